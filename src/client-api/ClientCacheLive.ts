import { Effect, Layer, Metric } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { cachedFastLane } from "../platform/http/CachedFastLane.ts"
import { rateLimitSettings } from "../platform/ratelimit/RateLimiter.ts"
import { ClientCache, clientCacheSettings } from "./ClientCache.ts"
import { CLIENT_IP_BUCKET } from "./ClientIpLimitLive.ts"

const answered = (status: "200" | "304") =>
  Metric.counter("client_fast_lane_responses", {
    description: "Client API reads answered from the cache at the Node listener (the rest went through the Effect app)",
    attributes: { status },
    incremental: true
  })
/** Requests the client fast lane answered, by status (no tags, so no 304 in practice). */
export const clientFastLaneResponses = { ok: answered("200"), notModified: answered("304") } as const

const reading = new Set(["GET", "HEAD", "OPTIONS"])

/**
 * Every state-changing request the client API answers with success drops the ClientCache before its answer leaves
 * (and tells the other processes): a comment, a like, a profile edit, a claim are in the next anonymous read. The
 * sign-in routes (`/v1/session…`) are left out: a sign-in changes no public read (a new user has no cached profile:
 * only 200s are cached).
 */
const DropOnWritesLive = HttpRouter.middleware(
  Effect.gen(function* () {
    const cache = yield* ClientCache
    return (app) =>
      Effect.gen(function* () {
        const response = yield* app
        const request = yield* HttpServerRequest.HttpServerRequest
        if (!reading.has(request.method) && response.status < 400 && !request.url.startsWith("/v1/session"))
          yield* cache.written
        return response
      })
  }),
  { global: true }
)

/**
 * Anonymous hits of the ClientCache answered at the Node listener (src/platform/http/CachedFastLane.ts) under the
 * client API's per-IP limit (ClientIpLimit.ts: same bucket, same rule); requests with credentials always take the
 * Effect path. Off with CLIENT_CACHE=false or CLIENT_FAST_LANE=false.
 */
const ClientFastLaneLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const settings = yield* clientCacheSettings
    if (!settings.enabled || !settings.fastLane) return
    const cache = yield* ClientCache
    const limits = yield* rateLimitSettings
    yield* cachedFastLane({
      lookup: cache.lookup,
      anonymousOnly: true,
      rateLimit: { bucket: CLIENT_IP_BUCKET, rule: limits.clientIp },
      responses: clientFastLaneResponses
    })
  })
)

/** The client cache's fast lane and its invalidation by writes (the cache itself is provided by the caller). */
export const ClientCacheLive = Layer.mergeAll(DropOnWritesLive, ClientFastLaneLive)
