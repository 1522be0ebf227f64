import { Effect, Layer } from "effect"
import { TooManyRequests } from "../../../platform/ApiError.ts"
import { AppConfig } from "../../../platform/AppConfig.ts"
import type { RateLimitRule } from "../../../platform/ratelimit/RateLimitConfig.ts"
import { RateLimiter, rateLimitSettings } from "../../../platform/ratelimit/RateLimiter.ts"
import { limitSentence } from "../../../platform/ratelimit/RateLimitHttp.ts"
import { callerLimitKey } from "../../../platform/system/CallerIp.ts"
import { SignInIpLimit } from "./SignInIpLimit.ts"
import { signInLimits } from "./SignInLimits.ts"

/** The sign-in routes' per-IP limit (SignInIpLimit.ts) over the process's rate limiter. */
const limitedBy = (bucket: string, rule: RateLimitRule) =>
  Effect.gen(function* () {
    const app = yield* AppConfig
    const limiter = yield* RateLimiter
    const enabled = (yield* rateLimitSettings).enabled
    return <A, E, R>(httpEffect: Effect.Effect<A, E, R>) =>
      !enabled
        ? httpEffect
        : Effect.gen(function* () {
            const ip = yield* Effect.provideService(callerLimitKey, AppConfig, app)
            const decision = yield* limiter.consume(bucket, ip, rule)
            if (!decision.allowed) {
              return yield* new TooManyRequests({
                code: "RATE_LIMITED",
                message: `${limitSentence(decision, rule, "sign-in requests")}; retry in ${decision.resetSeconds} s`,
                details: { limit: decision.limit, retryAfterSeconds: decision.resetSeconds }
              })
            }
            return yield* httpEffect
          })
  })

export const SignInIpLimitLive = Layer.effect(
  SignInIpLimit,
  Effect.gen(function* () {
    const limit = yield* limitedBy("signin-ip", (yield* signInLimits).perIp)
    return SignInIpLimit.of((httpEffect) => limit(httpEffect))
  })
)
