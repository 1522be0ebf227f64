import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { assert, describe, layer, type Vitest } from "@effect/vitest"
import { Redis } from "effect/persistence"
import { TestClock } from "effect/testing"
import { Effect, Layer, Redacted, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { PostgresRateLimitStoreLive } from "../../src/platform/ratelimit/PostgresRateLimitStore.ts"
import { RateLimiter } from "../../src/platform/ratelimit/RateLimiter.ts"
import { RateLimitStore } from "../../src/platform/ratelimit/RateLimitStore.ts"
import { RedisRateLimitStoreLive } from "../../src/platform/ratelimit/RedisRateLimitStore.ts"
import { TestDatabase } from "../support/TestDatabase.ts"

import { redisUrl } from "../exchange/support.ts"
type TestMethods<R> = Vitest.MethodsNonLive<R>
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

const consumeMany = (bucket: string, key: string, n: number, rule = { limit: 3, windowSeconds: 30 }) =>
  Effect.flatMap(RateLimiter, (limiter) =>
    Effect.forEach(Array.from({ length: n }), () => limiter.consume(bucket, key, rule), { concurrency: "unbounded" })
  )

/**
 * A process refuses on the store's last "full" for RATE_LIMIT_FLUSH_MS (100 ms by default) before asking it again
 * (src/platform/ratelimit/LocalCounts.ts decideLocally): a window ended in the store itself is seen after that.
 */
const pastTheStoresWord = TestClock.adjust("1 second")

/** Behaviour every store must show; `expire` ends a counter's window the store's own way. */
const contract = <R>(
  it: TestMethods<R | RateLimiter>,
  expire: (counter: string) => Effect.Effect<void, unknown, R>
) => {
  it.effect(
    "3 per window: 5 concurrent requests → 3 allowed (remaining 2, 1, 0), 2 refused; reset within the window",
    () =>
      Effect.gen(function* () {
        const decisions = yield* consumeMany(`b-${run}`, "ip-1", 5)
        const allowed = decisions.filter((d) => d.allowed)
        assert.strictEqual(allowed.length, 3)
        assert.deepStrictEqual(allowed.map((d) => d.remaining).sort(), [0, 1, 2])
        for (const d of decisions) {
          assert.strictEqual(d.limit, 3)
          assert.isAtLeast(d.resetSeconds, 1)
          assert.isAtMost(d.resetSeconds, 30)
          if (!d.allowed) assert.strictEqual(d.remaining, 0)
        }
        // Another key and another bucket have their own counters.
        assert.isTrue((yield* consumeMany(`b-${run}`, "ip-2", 1))[0]!.allowed)
        assert.isTrue((yield* consumeMany(`other-${run}`, "ip-1", 1))[0]!.allowed)
      })
  )

  it.effect("after the window ends the counter starts again", () =>
    Effect.gen(function* () {
      const over = yield* consumeMany(`r-${run}`, "ip-1", 4)
      assert.strictEqual(over.filter((d) => d.allowed).length, 3)
      yield* expire(`r-${run}:ip-1`)
      const fresh = yield* consumeMany(`r-${run}`, "ip-1", 1).pipe(
        Effect.repeat({ until: (ds) => ds[0]!.allowed, schedule: Schedule.spaced("10 millis") }),
        Effect.timeout("3 seconds")
      )
      assert.strictEqual(fresh[0]!.remaining, 2)
    })
  )

  it.effect("a burst of 200 concurrent requests on one key is counted exactly (batched round trips)", () =>
    Effect.gen(function* () {
      const decisions = yield* consumeMany(`burst-${run}`, "ip-1", 200, { limit: 120, windowSeconds: 30 })
      assert.strictEqual(decisions.filter((d) => d.allowed).length, 120)
      assert.deepStrictEqual(
        decisions
          .filter((d) => d.allowed)
          .map((d) => d.remaining)
          .sort((a, b) => a - b),
        Array.from({ length: 120 }, (_, i) => i)
      )
    })
  )
}

describe("RateLimiter", () => {
  layer(RateLimiter.layerNoDeps.pipe(Layer.provide(RateLimitStore.layerMemory)))("memory store", (it) => {
    // The memory store reads the Effect clock: the test clock moves past the window.
    contract(it, () => TestClock.adjust("31 seconds"))
  })

  layer(
    RateLimiter.layerNoDeps.pipe(Layer.provideMerge(PostgresRateLimitStoreLive), Layer.provideMerge(TestDatabase)),
    {
      timeout: "60 seconds"
    }
  )("postgres store", (it) => {
    contract(it, (counter) =>
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`UPDATE rate_limit_counters SET expires_at = now() - interval '1 second' WHERE counter = ${counter}`
      ).pipe(Effect.andThen(pastTheStoresWord))
    )

    it.effect(
      "increments asked for together go as one statement, each with its own count; a counter asked for twice waits for the next",
      () =>
        Effect.gen(function* () {
          const store = yield* RateLimitStore
          const sql = yield* SqlClient.SqlClient
          const names = Array.from({ length: 30 }, (_, i) => `one-${run}:${String(i).padStart(2, "0")}`)
          const counts = yield* Effect.forEach(
            [...names.map((n) => [n, 1] as const), ...names.map((n) => [n, 2] as const)],
            ([name, hits]) => Effect.map(store.increment(name, hits, 30_000), (w) => [name, hits, w.count] as const),
            { concurrency: "unbounded" }
          )
          // Each counter: one answer is its own hits alone, the other the sum (which went first is the store's order).
          for (const name of names) {
            const mine = counts.filter(([n]) => n === name)
            const first = mine.find(([, , count]) => count !== 3)!
            assert.deepStrictEqual(
              mine.map(([, , count]) => count).sort(),
              [first[1], 3].sort(),
              `${name}: ${JSON.stringify(mine)}`
            )
          }
          // The rows were last written together: one transaction id for the 30 of them (one each before the change).
          const rows = yield* sql<{ xids: number }>`
            SELECT count(DISTINCT xmin::text)::int AS xids FROM rate_limit_counters WHERE counter LIKE ${`one-${run}:%`}`
          assert.isAtMost(rows[0]!.xids, 2)
        })
    )

    it.effect("two stores (two processes) upserting the same counters in opposite orders never deadlock", () =>
      Effect.gen(function* () {
        const second = yield* Layer.build(PostgresRateLimitStoreLive).pipe(
          Effect.map((ctx) => ctx.mapUnsafe.get(RateLimitStore.key) as RateLimitStore["Service"])
        )
        const first = yield* RateLimitStore
        const names = Array.from({ length: 40 }, (_, i) => `order-${run}:${String(i).padStart(2, "0")}`)
        const burst = (store: RateLimitStore["Service"], order: ReadonlyArray<string>) =>
          Effect.forEach(order, (name) => store.increment(name, 1, 30_000), { concurrency: "unbounded", discard: true })
        yield* Effect.forEach(
          Array.from({ length: 10 }),
          () => Effect.all([burst(first, names), burst(second, [...names].reverse())], { concurrency: 2 }),
          { discard: true }
        )
        const totals = yield* Effect.forEach(names, (name) => first.increment(name, 0, 30_000))
        assert.deepStrictEqual(
          totals.map((w) => w.count),
          names.map(() => 20)
        )
      }).pipe(Effect.scoped)
    )

    it.effect("two limiters (as two processes would have) share one count", () =>
      Effect.gen(function* () {
        const second = yield* Layer.build(RateLimiter.layerNoDeps.pipe(Layer.provide(PostgresRateLimitStoreLive))).pipe(
          Effect.map((ctx) => ctx.mapUnsafe.get(RateLimiter.key) as RateLimiter["Service"])
        )
        const first = yield* RateLimiter
        const rule = { limit: 4, windowSeconds: 30 }
        const a = yield* Effect.all([first.consume(`s-${run}`, "ip", rule), first.consume(`s-${run}`, "ip", rule)])
        const b = yield* Effect.all([
          second.consume(`s-${run}`, "ip", rule),
          second.consume(`s-${run}`, "ip", rule),
          second.consume(`s-${run}`, "ip", rule)
        ])
        assert.deepStrictEqual(
          [...a, ...b].map((d) => d.allowed),
          [true, true, true, true, false]
        )
      }).pipe(Effect.scoped)
    )
  })

  layer(RateLimiter.layerNoDeps.pipe(Layer.provideMerge(RedisRateLimitStoreLive(Redacted.make(redisUrl)))), {
    timeout: "30 seconds"
  })("redis store (the machine's Redis)", (it) => {
    contract(it, (counter) =>
      Effect.scoped(
        Effect.gen(function* () {
          const redis = yield* Layer.build(NodeRedis.layer({ url: redisUrl })).pipe(
            Effect.map((ctx) => ctx.mapUnsafe.get(Redis.Redis.key) as Redis.Redis["Service"])
          )
          // Redis ends a window by expiring the key; deleting it is the same state (no waiting on the clock).
          yield* redis.send("DEL", `fire:rl:${counter}`)
          yield* pastTheStoresWord
        })
      )
    )
  })
})
