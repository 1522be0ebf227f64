import { Effect, Layer, Metric } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { AppConfig } from "../../platform/AppConfig.ts"
import { FastLane } from "../../platform/http/Serve.ts"
import { httpSecurityConfig, makeSecurityHeaders } from "../../platform/http/HttpSecurity.ts"
import { requestIdFrom } from "../../platform/http/RequestContext.ts"
import { rateLimitHeaders } from "../../platform/ratelimit/RateLimitHttp.ts"
import { rateLimitSettings, RateLimiter } from "../../platform/ratelimit/RateLimiter.ts"
import { callerIpOf, ipLimitKey, proxyTrustOf } from "../../platform/system/CallerIp.ts"
import { entryHeaders, ExchangeCache, matchesTag } from "./ExchangeCache.ts"
import { exchangeSettings } from "../ExchangeConfig.ts"
import { PUBLIC_BUCKET } from "../PublicRateLimit.ts"

const answered = (status: "200" | "304") =>
  Metric.counter("exchange_fast_lane_responses", {
    description:
      "Exchange requests answered from the cache at the Node listener (the rest went through the Effect app)",
    attributes: { status },
    incremental: true
  })
/** Requests the fast lane answered, by status (attributes fixed here: the series key is computed once, not per request). */
export const fastLaneResponses = { ok: answered("200"), notModified: answered("304") } as const

/**
 * Cache hits of the exchange API answered at the Node listener (src/platform/http/Serve.ts `FastLane`): a GET whose request target
 * (path and raw query, exactly as sent: the cache's key) has a fresh `ExchangeCache` entry, when the per-IP limit can
 * be decided without a store round trip (`RateLimiter.consumeLocal`). The answer is the one the Effect path gives for
 * a hit, byte for byte but the `Date`: status 200 (or 304 for a current `If-None-Match`), the entry's `ETag` and
 * `Cache-Control`, the security headers (src/platform/http/HttpSecurity.ts `makeSecurityHeaders`, HSTS included), `x-request-id`
 * (the client's when plain, else a new one), the `RateLimit-*` headers, the body.
 * Everything else falls through untouched: misses, other methods, requests with a body (the body limit applies),
 * absolute-form targets, and hits whose limit needs the store (the first hit of a window, the end of a window, a 429:
 * the Effect path then counts the request, so nothing is counted twice).
 *
 * Why it is safe: an entry exists only after the route decoded that exact target and answered 200, entries are
 * dropped on every indexer commit (IndexerChangeFeed) and expire after MAX_AGE, and the routes under the cache take
 * no input but the target (no auth, no cookies). Off with EXCHANGE_CACHE=false or EXCHANGE_FAST_LANE=false.
 * Not traced, not access-logged (the lane is not installed when ACCESS_LOG is on) and not in the request histogram
 * `http_request_duration_seconds` (it needs the matched route): lane answers are counted in
 * `exchange_fast_lane_responses{status}` on /metrics instead.
 */
export const ExchangeFastLaneLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const settings = yield* exchangeSettings
    if (!settings.cacheEnabled || !settings.fastLane) return
    const cache = yield* ExchangeCache
    const lane = yield* FastLane
    const appSettings = yield* AppConfig
    const { trustProxy } = appSettings
    const proxyTrust = proxyTrustOf(appSettings)
    // The security headers of the Effect path, from the same definition (HSTS too, behind the trusted TLS proxy).
    const securityHeaders = makeSecurityHeaders((yield* httpSecurityConfig).hstsMaxAgeSeconds, trustProxy)
    const limits = yield* rateLimitSettings
    const limiter = yield* RateLimiter
    const context = yield* Effect.context<never>()
    const rule = limits.exchangePublic
    const { ok, notModified } = fastLaneResponses

    const handler = (request: IncomingMessage, response: ServerResponse) => {
      const url = request.url
      if (request.method !== "GET" || url === undefined || url.charCodeAt(0) !== 47 /* "/" */) return false
      const headers = request.headers
      if (headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined) return false
      // Cross-origin browser requests take the Effect path, where CORS (src/platform/http/HttpSecurity.ts) is decided.
      if (headers["origin"] !== undefined) return false
      const entry = cache.lookup(url)
      if (entry === undefined) return false
      let limitHeaders: Record<string, string> | undefined
      if (limits.enabled) {
        const ip = ipLimitKey(
          callerIpOf(proxyTrust, headers["x-forwarded-for"] as string | undefined, request.socket.remoteAddress)
        )
        const decision = limiter.consumeLocal(PUBLIC_BUCKET, ip, rule)
        if (decision === undefined) return false
        limitHeaders = rateLimitHeaders(decision, rule)
      }
      // The header order of the Effect path: the response's own, then the request id, then the limit headers.
      const requestId = requestIdFrom(headers["x-request-id"] as string | undefined)
      const security = securityHeaders(headers["x-forwarded-proto"] as string | undefined)
      if (matchesTag(headers["if-none-match"], entry.etag)) {
        response.writeHead(304, { ...entryHeaders(entry), ...security, "x-request-id": requestId, ...limitHeaders })
        response.end()
        notModified.updateUnsafe(1, context)
        return true
      }
      response.writeHead(200, {
        ...entryHeaders(entry),
        "content-type": "application/json",
        "content-length": String(entry.body.byteLength),
        ...security,
        "x-request-id": requestId,
        ...limitHeaders
      })
      response.end(entry.body)
      ok.updateUnsafe(1, context)
      return true
    }
    yield* lane.add(handler)
  })
)
