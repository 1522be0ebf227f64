import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { PostgresRateLimitStoreLive } from "../../src/platform/ratelimit/PostgresRateLimitStore.ts"
import { batchFor } from "../../src/platform/ratelimit/LocalCounts.ts"
import type { LocalCounting, RateLimitRule } from "../../src/platform/ratelimit/RateLimitConfig.ts"
import { RateLimiter } from "../../src/platform/ratelimit/RateLimiter.ts"
import { RateLimitStore } from "../../src/platform/ratelimit/RateLimitStore.ts"
import { TestDatabase } from "../support/TestDatabase.ts"

/**
 * Local counting (RateLimiter: hits far from the limit are decided in the process and sent in batches): exact with
 * one process, within limit + (P − 1) × batch with P processes, every allowed hit reaches the shared store, and once
 * the store reported a window full the rest of it is refused without asking it.
 */
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

/** The memory store with a random delay per increment (0–`maxMs` ms) and a count of round trips. */
const slowStore = (maxMs: number, random: () => number) =>
  Layer.effect(
    RateLimitStore,
    Effect.gen(function* () {
      const inner = yield* RateLimitStore
      let trips = 0
      return Object.assign(
        RateLimitStore.of({
          name: "memory",
          increment: (counter, hits, windowMs) => {
            if (hits > 0) trips++
            return Effect.andThen(Effect.sleep(Math.floor(random() * maxMs)), inner.increment(counter, hits, windowMs))
          }
        }),
        { trips: () => trips }
      )
    })
  ).pipe(Layer.provide(RateLimitStore.layerMemory))

/** A small deterministic PRNG, so a failing interleaving can be replayed from its seed. */
const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** P limiters (as P processes would have) over one store; the store itself is returned too. */
const processes = <R>(p: number, local: LocalCounting, store: Layer.Layer<RateLimitStore, never, R>) =>
  Effect.gen(function* () {
    const shared = yield* Layer.build(store)
    const limiters = yield* Effect.forEach(Array.from({ length: p }), () =>
      Layer.build(RateLimiter.layerNoDepsWith(local)).pipe(
        Effect.provide(shared),
        Effect.map((ctx) => ctx.mapUnsafe.get(RateLimiter.key) as RateLimiter["Service"])
      )
    )
    return {
      limiters,
      store: shared.mapUnsafe.get(RateLimitStore.key) as RateLimitStore["Service"] & { trips?: () => number }
    }
  })

/** Waits (bounded) until the store holds `total` hits of the counter (increment by 0 reads it). */
const storeReaches = (store: RateLimitStore["Service"], counter: string, total: number) =>
  store.increment(counter, 0, 60_000).pipe(
    Effect.repeat({ until: (w) => w.count >= total, schedule: Schedule.spaced("5 millis") }),
    Effect.timeout("5 seconds"),
    Effect.map((w) => w.count)
  )

describe("RateLimiter local counting", () => {
  it.live(
    "one process: 1,200 hits in sequence on a limit of 1,000 → exactly 1,000 allowed, remaining 999..0, few round trips",
    () =>
      Effect.gen(function* () {
        const {
          limiters: [limiter],
          store
        } = yield* processes(1, { batch: 100, flushMs: 5 }, slowStore(2, mulberry32(1)))
        const rule: RateLimitRule = { limit: 1000, windowSeconds: 60 }
        const decisions = []
        let local = 0
        for (let i = 0; i < 1200; i++) {
          const fast = limiter!.consumeLocal("seq", "ip", rule)
          if (fast !== undefined) local++
          decisions.push(fast ?? (yield* limiter!.consume("seq", "ip", rule)))
        }
        const allowed = decisions.filter((d) => d.allowed)
        assert.strictEqual(allowed.length, 1000)
        assert.deepStrictEqual(
          allowed.map((d) => d.remaining),
          Array.from({ length: 1000 }, (_, i) => 999 - i)
        )
        assert.isTrue(decisions.slice(1000).every((d) => !d.allowed && d.remaining === 0))
        // The first hit of the window and the last `batch` before the limit go to the store; most of the rest do not.
        assert.isAtLeast(local, 800)
        assert.isBelow(store.trips!(), 400)
        // Every allowed hit reaches the store; of the 200 past the limit, only those that asked it again (one per
        // flush interval, 5 ms here) do: the rest were refused on its report of a full window.
        const stored = yield* storeReaches(store, "seq:ip", 1000)
        assert.isAtLeast(stored, 1000, "every allowed hit reaches the store")
        assert.isAtMost(stored, 1200)
      }).pipe(Effect.scoped)
  )

  it.live("once the store reported the window full, the rest of it is refused without a round trip", () =>
    Effect.gen(function* () {
      const {
        limiters: [limiter],
        store
      } = yield* processes(1, { batch: 100, flushMs: 60_000 }, slowStore(1, mulberry32(6)))
      const rule: RateLimitRule = { limit: 20, windowSeconds: 60 }
      // A limit under the batch: every hit up to it is the store's to decide (its last `batch` hits).
      const upTo = yield* Effect.forEach(Array.from({ length: 21 }), () => limiter!.consume("full", "ip", rule))
      assert.deepStrictEqual(
        upTo.map((d) => d.allowed),
        [...Array.from({ length: 20 }, () => true), false]
      )
      const trips = store.trips!()
      const past = yield* Effect.forEach(Array.from({ length: 500 }), () => limiter!.consume("full", "ip", rule))
      assert.isTrue(past.every((d) => !d.allowed && d.remaining === 0 && d.resetSeconds >= 59))
      // Before: each of the 500 refusals was an increment of the store (a write on PostgreSQL).
      assert.strictEqual(store.trips!(), trips)
      // The fast lane still answers only what it allows: a refusal is the Effect path's to write.
      assert.isUndefined(limiter!.consumeLocal("full", "ip", rule))
      // The 20 allowed hits reached the store; no refusal did (the 21st was already refused on the 20th's answer).
      assert.strictEqual((yield* store.increment("full:ip", 0, 60_000)).count, 20)
      // Another caller's window is its own.
      assert.isTrue((yield* limiter!.consume("full", "other", rule)).allowed)
      // The store's word is trusted for a flush interval: past it, the next refusal is the store's again.
      const {
        limiters: [brief],
        store: briefStore
      } = yield* processes(1, { batch: 100, flushMs: 1_000 }, slowStore(1, mulberry32(7)))
      yield* Effect.forEach(Array.from({ length: 21 }), () => brief!.consume("full", "ip", rule))
      const briefTrips = briefStore.trips!()
      assert.isFalse((yield* brief!.consume("full", "ip", rule)).allowed)
      assert.strictEqual(briefStore.trips!(), briefTrips)
      yield* Effect.sleep("1100 millis")
      assert.isFalse((yield* brief!.consume("full", "ip", rule)).allowed)
      assert.strictEqual(briefStore.trips!(), briefTrips + 1)
    }).pipe(Effect.scoped)
  )

  it.live("one process: 1,500 concurrent requests → exactly 1,000 allowed with distinct remaining 0..999", () =>
    Effect.gen(function* () {
      const {
        limiters: [limiter]
      } = yield* processes(1, { batch: 50, flushMs: 5 }, slowStore(3, mulberry32(2)))
      const rule: RateLimitRule = { limit: 1000, windowSeconds: 60 }
      // Waves of 100, so that later waves find a known window and are decided locally.
      const decisions = yield* Effect.forEach(Array.from({ length: 15 }), () =>
        Effect.forEach(Array.from({ length: 100 }), () => limiter!.consume("burst", "ip", rule), {
          concurrency: "unbounded"
        })
      )
      const allowed = decisions.flat().filter((d) => d.allowed)
      assert.strictEqual(allowed.length, 1000)
      assert.deepStrictEqual(
        allowed.map((d) => d.remaining).sort((a, b) => a - b),
        Array.from({ length: 1000 }, (_, i) => i)
      )
    }).pipe(Effect.scoped)
  )

  it.live("a new counter is never decided locally: consumeLocal counts nothing until the store has answered once", () =>
    Effect.gen(function* () {
      const {
        limiters: [limiter],
        store
      } = yield* processes(1, { batch: 10, flushMs: 5 }, slowStore(1, mulberry32(3)))
      const rule: RateLimitRule = { limit: 100, windowSeconds: 60 }
      assert.isUndefined(limiter!.consumeLocal("new", "ip", rule))
      assert.strictEqual((yield* store.increment("new:ip", 0, 60_000)).count, 0)
      assert.strictEqual((yield* limiter!.consume("new", "ip", rule)).remaining, 99)
      assert.strictEqual(limiter!.consumeLocal("new", "ip", rule)?.remaining, 98)
      // Batch 0 turns local decisions off.
      const {
        limiters: [off]
      } = yield* processes(1, { batch: 0, flushMs: 5 }, RateLimitStore.layerMemory)
      yield* off!.consume("off", "ip", rule)
      assert.isUndefined(off!.consumeLocal("off", "ip", rule))
    }).pipe(Effect.scoped)
  )

  it.live(
    "a high limit scales the batch to 1 % of it: a synchronous burst of 5,000 is decided locally (batch 100 would stop at 100)",
    () =>
      Effect.gen(function* () {
        assert.strictEqual(batchFor(100, { limit: 600, windowSeconds: 60 }), 100)
        assert.strictEqual(batchFor(100, { limit: 1_000_000, windowSeconds: 60 }), 10_000)
        assert.strictEqual(batchFor(0, { limit: 1_000_000, windowSeconds: 60 }), 0)
        const {
          limiters: [limiter],
          store
        } = yield* processes(1, { batch: 100, flushMs: 5 }, slowStore(2, mulberry32(5)))
        const high: RateLimitRule = { limit: 1_000_000, windowSeconds: 60 }
        yield* limiter!.consume("high", "ip", high)
        // No yield between the calls: no round trip can return meanwhile, so every hit is decided on local counts alone.
        const burst = Array.from({ length: 5000 }, () => limiter!.consumeLocal("high", "ip", high))
        assert.isTrue(burst.every((d) => d !== undefined && d.allowed))
        assert.strictEqual(burst[4999]!.remaining, 1_000_000 - 5001)
        assert.strictEqual(yield* storeReaches(store, "high:ip", 5001), 5001, "every hit reaches the store")
        // The default-sized rule keeps the configured batch: the 101st hit without an acknowledgement needs the store.
        const low: RateLimitRule = { limit: 600, windowSeconds: 60 }
        yield* limiter!.consume("low", "ip", low)
        const lowBurst = Array.from({ length: 101 }, () => limiter!.consumeLocal("low", "ip", low))
        assert.strictEqual(lowBurst.filter((d) => d !== undefined).length, 100)
      }).pipe(Effect.scoped)
  )

  for (const [p, seed] of [
    [2, 11],
    [2, 12],
    [3, 13],
    [3, 14],
    [4, 15]
  ] as const) {
    it.live(
      `${p} processes, random interleaving (seed ${seed}): between limit and limit + (P − 1) × batch allowed`,
      () =>
        Effect.gen(function* () {
          const random = mulberry32(seed)
          const batch = 40
          const rule: RateLimitRule = { limit: 500, windowSeconds: 60 }
          const { limiters, store } = yield* processes(p, { batch, flushMs: 3 }, slowStore(4, random))
          // 1,000 requests in waves of random size, each to a random process, some through consumeLocal first.
          const decisions = []
          while (decisions.length < 1000) {
            const wave = Array.from(
              { length: 1 + Math.floor(random() * 30) },
              () => limiters[Math.floor(random() * p)]!
            )
            decisions.push(
              ...(yield* Effect.forEach(
                wave,
                (l) =>
                  Effect.suspend(() => {
                    const fast = random() < 0.5 ? l.consumeLocal("shared", "ip", rule) : undefined
                    return fast !== undefined ? Effect.succeed(fast) : l.consume("shared", "ip", rule)
                  }),
                { concurrency: "unbounded" }
              ))
            )
            if (random() < 0.3) yield* Effect.sleep(Math.floor(random() * 6))
          }
          const allowed = decisions.filter((d) => d.allowed).length
          assert.isAtLeast(allowed, rule.limit)
          assert.isAtMost(allowed, rule.limit + (p - 1) * batch)
          // Every allowed hit reaches the store; refusals past a window it reported full do not.
          const stored = yield* storeReaches(store, "shared:ip", allowed)
          assert.isAtLeast(stored, allowed)
          assert.isAtMost(stored, decisions.length)
        }).pipe(Effect.scoped)
    )
  }
})

// Live clock (excludeTestServices): the flush timers must fire.
layer(TestDatabase, { timeout: "60 seconds", excludeTestServices: true })(
  "RateLimiter local counting over Postgres",
  (it) => {
    it.effect("two processes: hits decided locally reach rate_limit_counters within the flush interval", () =>
      Effect.gen(function* () {
        const {
          limiters: [a, b]
        } = yield* processes(2, { batch: 100, flushMs: 20 }, PostgresRateLimitStoreLive)
        const rule: RateLimitRule = { limit: 100_000, windowSeconds: 60 }
        const counter = `pg-${run}`
        yield* a!.consume(counter, "ip", rule)
        yield* b!.consume(counter, "ip", rule)
        let local = 0
        for (let i = 0; i < 300; i++)
          if ((i % 2 === 0 ? a : b)!.consumeLocal(counter, "ip", rule) !== undefined) local++
        assert.isAtLeast(local, 200)
        const sql = yield* SqlClient.SqlClient
        const count = yield* sql<{
          count: string
        }>`SELECT count::text AS count FROM rate_limit_counters WHERE counter = ${`${counter}:ip`}`.pipe(
          Effect.repeat({
            until: (rows) => Number(rows[0]?.count ?? 0) >= 2 + local,
            schedule: Schedule.spaced("10 millis")
          }),
          Effect.timeout("5 seconds")
        )
        assert.strictEqual(Number(count[0]!.count), 2 + local)
      }).pipe(Effect.scoped)
    )
  }
)
