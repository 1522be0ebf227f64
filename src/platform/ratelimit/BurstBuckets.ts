import type { RateLimitRule } from "./RateLimitConfig.ts"

/**
 * Burst allowances of per-IP limits, per process (RateLimiter): a token bucket per caller that holds at most a rule's
 * `burst` requests and refills at the rule's own average rate, `limit / windowSeconds` per second. A fixed window
 * alone lets a caller spend the whole window's budget at once: 1,200 client API reads in half a second, 120 nonce
 * rows, 300 GraphQL queries, each burst a spike that every other caller of the process waits behind
 * (`npm run bench:abuse`). With the bucket a caller at the window's average rate is never refused by it, one past
 * its burst gets 429 `RATE_LIMITED` with `Retry-After` until a request's worth has refilled, and the window's limit
 * keeps its meaning (the bucket never allows what the window refuses: both must allow).
 *
 * Per process, not in the shared store: a burst hurts the process it lands on, and deciding it costs no round trip.
 * With P processes behind a balancer a caller's burst is at most P × `burst`; its window stays shared.
 */
interface Bucket {
  tokens: number
  at: number
  /** The rule's burst and average rate (requests per millisecond) when last used. */
  burst: number
  perMs: number
}

const refilled = (b: Bucket, now: number) => Math.min(b.burst, b.tokens + Math.max(0, now - b.at) * b.perMs)

export const makeBurstBuckets = () => {
  const buckets = new Map<string, Bucket>()
  let sweptAt = 0

  /**
   * Milliseconds until `name` may send again under `rule`'s burst (0: now, or the rule has none); with `take` a
   * request is taken from the bucket when it may.
   */
  const wait = (name: string, rule: RateLimitRule, now: number, take: boolean): number => {
    const burst = rule.burst
    if (burst === undefined) return 0
    if (now - sweptAt > 60_000) {
      // A bucket full again is the same as none.
      for (const [key, b] of buckets) if (refilled(b, now) >= b.burst) buckets.delete(key)
      sweptAt = now
    }
    const perMs = rule.limit / (rule.windowSeconds * 1000)
    let b = buckets.get(name)
    if (b === undefined) {
      b = { tokens: burst, at: now, burst, perMs }
      if (take) buckets.set(name, b)
    }
    b.burst = burst
    b.perMs = perMs
    const tokens = refilled(b, now)
    if (tokens < 1) return Math.ceil((1 - tokens) / perMs)
    if (take) {
      b.tokens = tokens - 1
      b.at = now
    }
    return 0
  }

  return { wait, size: () => buckets.size }
}
