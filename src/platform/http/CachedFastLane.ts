import { Effect, type Metric } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { AppConfig } from "../AppConfig.ts"
import type { RateLimitRule } from "../ratelimit/RateLimitConfig.ts"
import { rateLimitHeaderPairs } from "../ratelimit/RateLimitHttp.ts"
import { type RateLimitDecision, rateLimitSettings, RateLimiter } from "../ratelimit/RateLimiter.ts"
import { callerIpOf, ipLimitKey, proxyTrustOf } from "../system/CallerIp.ts"
import { httpSecurityConfig, securityHeaderVariants } from "./HttpSecurity.ts"
import { makeEntryBlocks } from "./LaneHeaders.ts"
import { requestIdFrom } from "./RequestContext.ts"
import { type CachedResponse, isAnonymous, matchesTag } from "./ResponseCache.ts"
import { FastLane } from "./Serve.ts"

export interface CachedFastLaneOptions {
  /** The fresh entry of a request target (the service's ResponseCache `lookup`). */
  readonly lookup: (key: string) => CachedResponse | undefined
  /** Only requests without credentials (no `Authorization`, no cookie): the cache holds anonymous answers only. */
  readonly anonymousOnly?: boolean | undefined
  /** The per-IP limit the Effect path applies to these routes (its bucket and rule), if any. */
  readonly rateLimit?: { readonly bucket: string; readonly rule: RateLimitRule } | undefined
  /** Answers counted by status (attributes fixed by the caller, so no series key is computed per request). */
  readonly responses: {
    readonly ok: Metric.Counter<number>
    readonly notModified: Metric.Counter<number>
  }
}

/**
 * Cache hits of a service's ResponseCache (src/platform/http/ResponseCache.ts) answered at the Node listener
 * (Serve.ts `FastLane`): a GET whose request target (path and raw query, exactly as sent: the cache's key) has a fresh
 * entry, when the per-IP limit (if the routes have one) can be decided without a store round trip
 * (`RateLimiter.consumeLocal`). The answer is the one the Effect path gives for a hit, byte for byte but the `Date`:
 * status 200 (or 304 for a current `If-None-Match` when the cache gives tags), the entry's headers, the security
 * headers (HttpSecurity.ts `securityHeaderVariants`, HSTS included), `x-request-id` (the client's when plain, else a new
 * one), the `RateLimit-*` headers, the body.
 * Everything else falls through untouched: misses, other methods, requests with a body (the body limit applies),
 * cross-origin requests (CORS is decided on the Effect path), absolute-form targets, and hits whose limit needs the
 * store (the first hit of a window, the end of a window, a 429, a caller past its burst: the Effect path then counts
 * the request, so nothing is counted twice).
 *
 * Why it is safe: an entry exists only after the route decoded that exact target and answered 200, the service drops
 * entries when what they were computed from changes, and the routes under a cache must take no input but the target
 * (no auth, no cookies). Not traced, not access-logged (no lane when ACCESS_LOG is on) and not in the request
 * histogram (it needs the matched route): lane answers are counted in the caller's `responses` counters instead.
 */
export const cachedFastLane = (options: CachedFastLaneOptions) =>
  Effect.gen(function* () {
    const lane = yield* FastLane
    const appSettings = yield* AppConfig
    const proxyTrust = proxyTrustOf(appSettings)
    // The security headers of the Effect path, from the same definition (HSTS too, behind the trusted TLS proxy).
    const security = securityHeaderVariants((yield* httpSecurityConfig).hstsMaxAgeSeconds, appSettings.trustProxy)
    // Everything but the request id and the limit headers is the same for every answer of an entry: built once.
    const blocksOf = makeEntryBlocks(security)
    const limited =
      options.rateLimit !== undefined && (yield* rateLimitSettings).enabled ? options.rateLimit : undefined
    const pushLimitHeaders = limited === undefined ? undefined : rateLimitHeaderPairs(limited.rule)
    const limiter = yield* RateLimiter
    const context = yield* Effect.context<never>()
    const { lookup } = options
    const anonymousOnly = options.anonymousOnly === true
    const { ok, notModified } = options.responses

    const handler = (request: IncomingMessage, response: ServerResponse) => {
      const url = request.url
      if (request.method !== "GET" || url === undefined || url.charCodeAt(0) !== 47 /* "/" */) return false
      const headers = request.headers
      if (headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined) return false
      if (headers["origin"] !== undefined) return false
      if (anonymousOnly && !isAnonymous(headers)) return false
      const entry = lookup(url)
      if (entry === undefined) return false
      let decision: RateLimitDecision | undefined
      if (limited !== undefined) {
        const ip = ipLimitKey(
          callerIpOf(proxyTrust, headers["x-forwarded-for"] as string | undefined, request.socket.remoteAddress)
        )
        decision = limiter.consumeLocal(limited.bucket, ip, limited.rule)
        if (decision === undefined) return false
      }
      const blocks = blocksOf(entry)
      const tls = security.isTls(headers["x-forwarded-proto"] as string | undefined) ? 1 : 0
      const current = matchesTag(headers["if-none-match"], entry.etag)
      // The header order of the Effect path: the response's own, then the request id, then the limit headers.
      const out = (current ? blocks.notModified : blocks.ok)[tls]!.slice()
      out.push("x-request-id", requestIdFrom(headers["x-request-id"] as string | undefined))
      if (decision !== undefined) pushLimitHeaders!(out, decision)
      if (current) {
        response.writeHead(304, out)
        response.end()
        notModified.updateUnsafe(1, context)
        return true
      }
      response.writeHead(200, out)
      response.end(entry.body)
      ok.updateUnsafe(1, context)
      return true
    }
    yield* lane.add(handler)
  })
