import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { RouteFinderPool } from "../../src/exchange-api/quotes/RouteFinderPool.ts"
import { QuoteConfig } from "../../src/exchange-api/quotes/QuoteConfig.ts"
import { RouteFinder } from "../../src/exchange-api/quotes/RouteFinder.ts"
import { generatedConfig, generateUniverse } from "../../workers/routing/testing/generatePools.ts"

/**
 * QUOTE_TIMEOUT under a burst (src/exchange-api/quotes/RouteFinder.ts): quotes that waited in the queue past their budget fail
 * with QUOTE_TIMEOUT, the worker skips them when it reaches them (`Expired`), and the thread is not stopped: after
 * the burst the same thread answers at once. One worker thread, a 5 ms budget, 600 quotes at once over 1,000
 * generated pools: far more work than the budget allows.
 */
const universe = generateUniverse(21, 1000)
const tokens = universe.snapshot.tokens

const settings = QuoteConfig.layerWith({ workers: 1, timeoutMs: 5 })

/** The `_tag` of every reply the worker threads sent (timed-out callers no longer see theirs). */
class Replies extends Context.Service<Replies, ReadonlyArray<string>>()("test/quotes/RouteFinderBurst/Replies") {}

/** The real pool, with `run` recording each reply's tag; everything else is the pool's own. */
const RecordingPool = Layer.effectContext(
  Effect.gen(function* () {
    const pool = yield* RouteFinderPool
    const tags: Array<string> = []
    const run = (task: unknown, options?: object) =>
      pool.run(task, options).then((reply: { _tag: string }) => {
        tags.push(reply._tag)
        return reply
      })
    const recording = new Proxy(pool, {
      get: (target, key) => {
        if (key === "run") return run
        const value = Reflect.get(target, key, target)
        return typeof value === "function" ? value.bind(target) : value
      }
    })
    return Context.make(RouteFinderPool, recording).pipe(Context.add(Replies, tags))
  })
).pipe(Layer.provide(RouteFinderPool.layer))

const finderAndPool = RouteFinder.layerNoDeps.pipe(Layer.provideMerge(RecordingPool), Layer.provideMerge(settings))

const request = (i: number) => {
  const tokenIn = tokens[(i * 7) % tokens.length]!
  const tokenOut = tokens[(i * 13 + 1) % tokens.length]!
  const type = i % 2 === 0 ? ("exactIn" as const) : ("exactOut" as const)
  const whole = 10n ** BigInt(type === "exactIn" ? tokenIn.decimals : tokenOut.decimals)
  return { tokenIn: tokenIn.address, tokenOut: tokenOut.address, amount: whole, type, gasPriceWei: 1_000_000_000n }
}

layer(finderAndPool, { timeout: "120 seconds", excludeTestServices: true })("route finder under a burst", (it) => {
  it.effect(
    "queued quotes past QUOTE_TIMEOUT fail as QUOTE_TIMEOUT, the worker skips them (Expired), and the thread is not stopped",
    () =>
      Effect.gen(function* () {
        const finder = yield* RouteFinder
        const pool = yield* RouteFinderPool
        yield* finder.load(universe.snapshot, generatedConfig())
        // Until the thread is warm and synced (its first quote loads the pool graph, which may itself take > 5 ms).
        let first = yield* Effect.exit(finder.quote(request(0)))
        for (let i = 0; i < 50 && first._tag === "Failure"; i++) first = yield* Effect.exit(finder.quote(request(0)))
        assert.strictEqual(first._tag, "Success", String(first._tag === "Failure" && first.cause))
        const threadsBefore = pool.threads.map((t) => t.threadId)
        assert.lengthOf(threadsBefore, 1)
        const replies = yield* Replies
        const before = replies.length

        const results = yield* Effect.forEach(
          Array.from({ length: 600 }, (_, i) => i),
          (i) => Effect.exit(finder.quote(request(i))),
          { concurrency: "unbounded" }
        )
        const failures = results.flatMap((r) => (r._tag === "Failure" ? [String(r.cause)] : []))
        assert.isAbove(failures.length, 0, "the burst must overflow the 5 ms budget")
        for (const f of failures) assert.include(f, "QUOTE_TIMEOUT")
        // Same thread, and it answers a new quote within the budget once the queue has drained.
        let attempts = 1
        let after = yield* Effect.exit(finder.quote(request(1)))
        for (; attempts <= 100 && after._tag === "Failure"; attempts++)
          after = yield* Effect.exit(finder.quote(request(1)))
        assert.strictEqual(after._tag, "Success")
        // One thread takes tasks in order, so every burst task it took was answered before this quote: the worker
        // skipped those past their budget (`Expired`, no routing) instead of routing them for nobody.
        const answered = replies.slice(before)
        const expired = answered.filter((t) => t === "Expired").length
        assert.isAbove(expired, 0, `reply tags since the burst: ${[...new Set(answered)].join(", ")}`)
        assert.isAtMost(
          answered.length - expired,
          600 - failures.length + attempts,
          "only quotes answered in time were routed"
        )
        assert.deepStrictEqual(
          pool.threads.map((t) => t.threadId),
          threadsBefore
        )
      })
  )
})
