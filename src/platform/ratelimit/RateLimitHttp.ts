import { Effect } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { RateLimitRule } from "./RateLimitConfig.ts"
import { type RateLimitDecision, RateLimiter } from "./RateLimiter.ts"

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, the widely deployed `RateLimit-*` form):
 * limit, requests left, seconds until the window resets, and the policy as `<limit>;w=<window seconds>`.
 */
export const rateLimitHeaders = (decision: RateLimitDecision, rule: RateLimitRule): Record<string, string> => ({
  "ratelimit-limit": String(decision.limit),
  "ratelimit-remaining": String(decision.remaining),
  "ratelimit-reset": String(decision.resetSeconds),
  "ratelimit-policy": `${rule.limit};w=${rule.windowSeconds}`
})

/**
 * The same headers as `rateLimitHeaders`, in the same order, as flat pairs pushed onto `out` (the fast lane's
 * `writeHead` array): the figures that do not vary per request (the limit, the policy) are formatted once per rule.
 */
export const rateLimitHeaderPairs = (rule: RateLimitRule) => {
  const limit = String(rule.limit)
  const policy = `${rule.limit};w=${rule.windowSeconds}`
  return (out: Array<string>, decision: RateLimitDecision) => {
    out.push(
      "ratelimit-limit",
      decision.limit === rule.limit ? limit : String(decision.limit),
      "ratelimit-remaining",
      String(decision.remaining),
      "ratelimit-reset",
      String(decision.resetSeconds),
      "ratelimit-policy",
      policy
    )
  }
}

/**
 * What a 429 tells the caller it passed, `what` naming the requests counted: the window (`At most 120 requests per
 * 60 s from one address`) or the burst (`More than 20 requests at once from one address (120 per 60 s on average)`).
 */
export const limitSentence = (decision: RateLimitDecision, rule: RateLimitRule, what = "requests") =>
  decision.burst === true
    ? `More than ${rule.burst} ${what} at once from one address (${rule.limit} per ${rule.windowSeconds} s on average)`
    : `At most ${decision.limit} ${what} per ${rule.windowSeconds} s from one address`

/** The body of a 429, in the error shape of the service that applies the limit. */
export type TooManyRequestsBody = (decision: RateLimitDecision, rule: RateLimitRule) => unknown

/** 429 with `Retry-After` (seconds) and the RateLimit headers. */
export const tooManyRequestsResponse = (
  decision: RateLimitDecision,
  rule: RateLimitRule,
  bodyOf: TooManyRequestsBody
) =>
  HttpServerResponse.jsonUnsafe(bodyOf(decision, rule), {
    status: 429,
    headers: { ...rateLimitHeaders(decision, rule), "retry-after": String(decision.resetSeconds) }
  })

/**
 * Wraps a request's handling (an HttpApiMiddleware's `httpEffect`, or any route effect) in a limit: over the limit
 * it answers 429 without running it; otherwise it runs it and the RateLimit headers are added to whatever response
 * goes out, errors included. Used for per-IP public limits here and per-partner-key limits by the quote routes.
 */
export const rateLimited =
  (bucket: string, key: string, rule: RateLimitRule, bodyOf: TooManyRequestsBody) =>
  <E, R>(httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
    Effect.gen(function* () {
      const limiter = yield* RateLimiter
      const decision = yield* limiter.consume(bucket, key, rule)
      if (!decision.allowed) return tooManyRequestsResponse(decision, rule, bodyOf)
      const headers = rateLimitHeaders(decision, rule)
      yield* HttpEffect.appendPreResponseHandler((_request, response) =>
        Effect.succeed(HttpServerResponse.setHeaders(response, headers))
      )
      return yield* httpEffect
    }) as Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | RateLimiter | HttpServerRequest.HttpServerRequest>
