import { Effect, Layer } from "effect"
import type { ErrorBody } from "../platform/ApiError.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { limitSentence, rateLimited, type TooManyRequestsBody } from "../platform/ratelimit/RateLimitHttp.ts"
import { RateLimiter, rateLimitSettings } from "../platform/ratelimit/RateLimiter.ts"
import { callerLimitKey } from "../platform/system/CallerIp.ts"
import { ClientIpLimit } from "./ClientIpLimit.ts"

/** The limiter bucket of the client API's per-IP limit. */
export const CLIENT_IP_BUCKET = "client-ip"

/** The client error shape's 429 (src/platform/ApiError.ts). */
const tooManyRequests: TooManyRequestsBody = (decision, rule): ErrorBody => ({
  code: "RATE_LIMITED",
  message: `${limitSentence(decision, rule)}; retry in ${decision.resetSeconds} s`,
  details: { limit: decision.limit, retryAfterSeconds: decision.resetSeconds }
})

/** The per-IP limit of the client API (ClientIpLimit.ts) over the process's rate limiter. */
export const ClientIpLimitLive = Layer.effect(
  ClientIpLimit,
  Effect.gen(function* () {
    const settings = yield* rateLimitSettings
    const app = yield* AppConfig
    const limiter = yield* RateLimiter
    if (!settings.enabled) return ClientIpLimit.of((httpEffect) => httpEffect)
    return ClientIpLimit.of((httpEffect) =>
      Effect.flatMap(Effect.provideService(callerLimitKey, AppConfig, app), (ip) =>
        rateLimited(
          CLIENT_IP_BUCKET,
          ip,
          settings.clientIp,
          tooManyRequests
        )(httpEffect).pipe(Effect.provideService(RateLimiter, limiter))
      )
    )
  })
)
