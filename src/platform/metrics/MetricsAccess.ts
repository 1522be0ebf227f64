import { Config, Effect, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { createHash, timingSafeEqual } from "node:crypto"
import { Unauthorized } from "../ApiError.ts"

/**
 * `/metrics` tells whoever reads it the process's routes, load, error rates and rate-limit refusals. With
 * `METRICS_TOKEN` set, every service's `/metrics` answers only `Authorization: Bearer <METRICS_TOKEN>` (401
 * METRICS_TOKEN_REQUIRED otherwise), so it may stay on a public port; without it, it is open as before and must be
 * kept to the monitoring network at the proxy (docs/SECURITY.md).
 */
export const metricsTokenConfig = Config.option(Config.Redacted("METRICS_TOKEN"))

const digest = (value: string) => createHash("sha256").update(value).digest()

/** Equal in constant time (hashes of equal length, so the comparison does not leak the token's length either). */
const sameToken = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected))

/** Whether an `Authorization` header value may read `/metrics` under the configured token (any, when none is). */
export const metricsAuthorized = (token: Option.Option<Redacted.Redacted>, authorization: string | undefined) => {
  if (Option.isNone(token)) return true
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")
  return match !== null && sameToken(match[1]!, Redacted.value(token.value))
}

export const METRICS_TOKEN_REQUIRED = {
  code: "METRICS_TOKEN_REQUIRED",
  message: "/metrics needs Authorization: Bearer <METRICS_TOKEN>"
} as const

/** Fails with 401 unless the request carries the configured token (passes when none is configured). */
export const requireMetricsToken = Effect.gen(function* () {
  const token = yield* metricsTokenConfig.pipe(Effect.orDie)
  const request = yield* HttpServerRequest.HttpServerRequest
  if (metricsAuthorized(token, request.headers.authorization)) return
  return yield* Effect.fail(new Unauthorized(METRICS_TOKEN_REQUIRED))
})
