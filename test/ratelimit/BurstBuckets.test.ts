import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { makeBurstBuckets } from "../../src/platform/ratelimit/BurstBuckets.ts"
import { burstConfig, defaultBurst, type RateLimitRule } from "../../src/platform/ratelimit/RateLimitConfig.ts"
import { RateLimiter } from "../../src/platform/ratelimit/RateLimiter.ts"
import { RateLimitStore } from "../../src/platform/ratelimit/RateLimitStore.ts"

/**
 * Burst allowances (src/platform/ratelimit/BurstBuckets.ts): a caller may send at most `burst` requests at once, then
 * the rule's average rate; the window's own limit is unchanged.
 */
describe("burst allowance", () => {
  // 60 per 60 s: one request's worth refills every second.
  const rule: RateLimitRule = { limit: 60, windowSeconds: 60, burst: 5 }

  it("past its burst a caller waits for a request's worth to refill; at the average rate it is never refused", () => {
    const buckets = makeBurstBuckets()
    const at0 = Array.from({ length: 7 }, () => buckets.wait("ip", rule, 0, true))
    assert.deepStrictEqual(at0, [0, 0, 0, 0, 0, 1000, 1000])
    assert.strictEqual(buckets.wait("ip", rule, 400, true), 600)
    assert.strictEqual(buckets.wait("ip", rule, 1000, true), 0)
    assert.strictEqual(buckets.wait("ip", rule, 1000, true), 1000)
    // Looking (take = false) takes nothing.
    assert.strictEqual(buckets.wait("ip", rule, 2000, false), 0)
    assert.strictEqual(buckets.wait("ip", rule, 2000, false), 0)
    assert.strictEqual(buckets.wait("ip", rule, 2000, true), 0)
    assert.strictEqual(buckets.wait("ip", rule, 2000, true), 1000)
    // Another caller has its own bucket; a rule without a burst has none.
    assert.strictEqual(buckets.wait("other", rule, 2000, true), 0)
    assert.strictEqual(buckets.wait("ip", { limit: 60, windowSeconds: 60 }, 2000, true), 0)
    // One request a second for 100 s, after a full burst: never refused.
    const steady = makeBurstBuckets()
    for (let i = 0; i < 5; i++) steady.wait("ip", rule, 0, true)
    for (let s = 1; s <= 100; s++) assert.strictEqual(steady.wait("ip", rule, s * 1000, true), 0)
  })

  it("buckets full again are forgotten", () => {
    const buckets = makeBurstBuckets()
    for (let i = 0; i < 1000; i++) buckets.wait(`ip-${i}`, rule, 0, true)
    assert.strictEqual(buckets.size(), 1000)
    // A minute later every one has refilled; the sweep runs with the next call.
    buckets.wait("late", rule, 61_000, true)
    assert.strictEqual(buckets.size(), 1)
  })

  it("the default is ten seconds of the rule's average rate, at least 10, at most the limit; on in production only", () =>
    Effect.gen(function* () {
      assert.strictEqual(defaultBurst({ limit: 120, windowSeconds: 60 }), 20)
      assert.strictEqual(defaultBurst({ limit: 1200, windowSeconds: 60 }), 200)
      assert.strictEqual(defaultBurst({ limit: 300, windowSeconds: 60 }), 50)
      assert.strictEqual(defaultBurst({ limit: 5, windowSeconds: 600 }), 5)
      const base = { limit: 120, windowSeconds: 60 }
      const burstOf = (env: Record<string, string>) =>
        Effect.map(burstConfig("X_BURST")(base).parse(ConfigProvider.fromEnvRecord(env)), (r) => r.burst)
      assert.strictEqual(yield* burstOf({ FIRE_ENV: "production" }), 20)
      assert.strictEqual(yield* burstOf({ RPC_URL: "https://rpc.example" }), 20)
      assert.isUndefined(yield* burstOf({}))
      assert.strictEqual(yield* burstOf({ X_BURST: "7" }), 7)
      assert.isUndefined(yield* burstOf({ FIRE_ENV: "production", X_BURST: "0" }))
    }))

  it.live("the limiter: past the burst 429 while the window has room (not counted in it); then the average rate", () =>
    Effect.gen(function* () {
      const limiter = yield* RateLimiter
      // 60 per 60 s: a request's worth refills every second.
      const fast: RateLimitRule = { limit: 60, windowSeconds: 60, burst: 3 }
      const burst = yield* Effect.forEach(Array.from({ length: 5 }), () => limiter.consume("b", "ip", fast))
      assert.deepStrictEqual(
        burst.map((d) => d.allowed),
        [true, true, true, false, false]
      )
      assert.strictEqual(burst[2]!.remaining, 57)
      assert.deepStrictEqual(burst[3], { allowed: false, limit: 60, remaining: 0, resetSeconds: 1, burst: true })
      // The fast lane does not answer a caller past its burst (the Effect path writes the 429).
      assert.isUndefined(limiter.consumeLocal("b", "ip", fast))
      yield* Effect.sleep("1100 millis")
      const after = yield* limiter.consume("b", "ip", fast)
      assert.isTrue(after.allowed)
      // The two refused were not counted in the window.
      assert.strictEqual(after.remaining, 56)
    }).pipe(Effect.provide(RateLimiter.layerNoDeps), Effect.provide(RateLimitStore.layerMemory))
  )
})
