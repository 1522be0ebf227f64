import { Effect, Layer } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { TooManyRequests } from "../../../platform/ApiError.ts"
import { AppConfig } from "../../../platform/AppConfig.ts"
import type { RateLimitRule } from "../../../platform/ratelimit/RateLimitConfig.ts"
import { RateLimiter, rateLimitSettings } from "../../../platform/ratelimit/RateLimiter.ts"
import { callerLimitKey } from "../../../platform/system/CallerIp.ts"
import { signInLimits } from "./SignInLimits.ts"

/**
 * Per-client-IP limits of the client API (issue 23 M3), as HttpApi middleware so each endpoint declares its 429:
 * `SignInIpLimit` on the sign-in routes (wallet nonce, wallet verify, ID-token sign-in: each writes a row or may
 * cost an eth_call), SIGNIN_IP_RATE_LIMIT per SIGNIN_IP_RATE_WINDOW_SECONDS. The key is the caller's IP as
 * src/system/CallerIp.ts finds it (IPv6 by /64). Over the limit: 429 `RATE_LIMITED` in the client error shape.
 */
export class SignInIpLimit extends HttpApiMiddleware.Service<SignInIpLimit>()("app/sessions/SignInIpLimit", {
  error: TooManyRequests
}) {}

const limitedBy = (bucket: string, rule: RateLimitRule) =>
  Effect.gen(function*() {
    const app = yield* AppConfig
    const limiter = yield* RateLimiter
    const enabled = (yield* rateLimitSettings).enabled
    return <A, E, R>(httpEffect: Effect.Effect<A, E, R>) =>
      !enabled ? httpEffect : Effect.gen(function*() {
        const ip = yield* Effect.provideService(callerLimitKey, AppConfig, app)
        const decision = yield* limiter.consume(bucket, ip, rule)
        if (!decision.allowed) {
          return yield* new TooManyRequests({
            code: "RATE_LIMITED",
            message: `At most ${decision.limit} requests per ${rule.windowSeconds} s from one address; retry in ${decision.resetSeconds} s`,
            details: { limit: decision.limit, retryAfterSeconds: decision.resetSeconds }
          })
        }
        return yield* httpEffect
      })
  })

export const SignInIpLimitLive = Layer.effect(
  SignInIpLimit,
  Effect.gen(function*() {
    const limit = yield* limitedBy("signin-ip", (yield* signInLimits).perIp)
    return SignInIpLimit.of((httpEffect) => limit(httpEffect))
  })
)
