import { Effect, Layer, Metric } from "effect"
import { cachedFastLane } from "../../platform/http/CachedFastLane.ts"
import { rateLimitSettings } from "../../platform/ratelimit/RateLimiter.ts"
import { ExchangeCache } from "./ExchangeCache.ts"
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
 * Hits of the ExchangeCache answered at the Node listener (src/platform/http/CachedFastLane.ts), under the per-IP
 * limit of the public routes (PublicRateLimit.ts, the same bucket and rule). The routes under the cache take no input
 * but the target (no auth, no cookies), and entries are dropped on every indexer commit. Off with EXCHANGE_CACHE=false
 * or EXCHANGE_FAST_LANE=false; answers counted in `exchange_fast_lane_responses{status}` on /metrics.
 */
export const ExchangeFastLaneLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const settings = yield* exchangeSettings
    if (!settings.cacheEnabled || !settings.fastLane) return
    const cache = yield* ExchangeCache
    const limits = yield* rateLimitSettings
    yield* cachedFastLane({
      lookup: cache.lookup,
      rateLimit: { bucket: PUBLIC_BUCKET, rule: limits.exchangePublic },
      responses: fastLaneResponses
    })
  })
)
