import { Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import { ExchangeUnauthorized } from "../ExchangeError.ts"
import { rateLimited } from "../../platform/ratelimit/RateLimitHttp.ts"
import { rateLimitedBody } from "../RateLimitedBody.ts"
import { RateLimiter } from "../../platform/ratelimit/RateLimiter.ts"
import { AppConfig } from "../../platform/AppConfig.ts"
import { callerLimitKey } from "../../platform/system/CallerIp.ts"
import { PartnerAuth } from "./PartnerAuth.ts"
import { PartnerKeys } from "./PartnerKeys.ts"
import { quoteSettings } from "./QuoteConfig.ts"

const invalid = new ExchangeUnauthorized({ error: "Invalid API key", code: "INVALID_API_KEY" })

/** The partner-key check (see PartnerAuth) over the exchange's PartnerKeys: server side, kept out of the API contract's imports. */
export const PartnerAuthLive = Layer.effect(
  PartnerAuth,
  Effect.gen(function* () {
    const keys = yield* PartnerKeys
    const limiter = yield* RateLimiter
    const settings = yield* quoteSettings
    const app = yield* AppConfig
    const header = settings.apiKeyHeader === "authorization" ? "x-api-key" : settings.apiKeyHeader
    return PartnerAuth.of({
      partnerKey: (httpEffect) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const verdict = yield* keys.check(request.headers[header])
          if (verdict === "open") {
            // Open (QUOTE_OPEN, no key exists): each client IP has its own small window instead of a key's.
            const ip = yield* Effect.provideService(callerLimitKey, AppConfig, app)
            return yield* rateLimited(
              "quote-open-ip",
              ip,
              settings.openRateLimit,
              rateLimitedBody
            )(httpEffect).pipe(Effect.provideService(RateLimiter, limiter))
          }
          if (verdict === "invalid") return yield* Effect.fail(invalid)
          return yield* rateLimited(
            "partner-key",
            verdict.keyHash.slice(0, 32),
            verdict.rateLimit,
            rateLimitedBody
          )(httpEffect).pipe(Effect.provideService(RateLimiter, limiter))
        })
    })
  })
).pipe(Layer.provide(PartnerKeys.layer))
