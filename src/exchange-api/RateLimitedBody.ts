import type { RateLimitRule } from "../platform/ratelimit/RateLimitConfig.ts"
import type { RateLimitDecision } from "../platform/ratelimit/RateLimiter.ts"
import type { ExchangeErrorBody } from "./ExchangeError.ts"

/** The exchange API's 429 body (its error shape), for the per-IP and the per-partner-key limits. */
export const rateLimitedBody = (decision: RateLimitDecision, rule: RateLimitRule): ExchangeErrorBody => ({
  error: `Rate limit exceeded: ${rule.limit} requests per ${rule.windowSeconds} s; retry in ${decision.resetSeconds} s`,
  code: "RATE_LIMITED",
  details: { limit: rule.limit, windowSeconds: rule.windowSeconds, retryAfterSeconds: decision.resetSeconds }
})
