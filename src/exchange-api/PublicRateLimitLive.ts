import { Effect, Layer } from "effect"
import { AppConfig } from "../platform/AppConfig.ts"
import { rateLimited } from "../platform/ratelimit/RateLimitHttp.ts"
import { rateLimitSettings, RateLimiter } from "../platform/ratelimit/RateLimiter.ts"
import { callerLimitKey } from "../platform/system/CallerIp.ts"
import { PUBLIC_BUCKET, PublicRateLimit } from "./PublicRateLimit.ts"
import { rateLimitedBody } from "./RateLimitedBody.ts"

/** The per-IP limit of the public routes (PublicRateLimit.ts) over the process's rate limiter. */
export const PublicRateLimitLive = Layer.effect(
  PublicRateLimit,
  Effect.gen(function* () {
    const settings = yield* rateLimitSettings
    const app = yield* AppConfig
    const limiter = yield* RateLimiter
    const rule = settings.exchangePublic
    if (!settings.enabled) return PublicRateLimit.of((httpEffect) => httpEffect)
    return PublicRateLimit.of((httpEffect) =>
      Effect.flatMap(Effect.provideService(callerLimitKey, AppConfig, app), (ip) =>
        rateLimited(
          PUBLIC_BUCKET,
          ip,
          rule,
          rateLimitedBody
        )(httpEffect).pipe(Effect.provideService(RateLimiter, limiter))
      )
    )
  })
)
