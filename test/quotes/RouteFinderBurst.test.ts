import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
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
const finderAndPool = RouteFinder.layerNoDeps.pipe(
  Layer.provideMerge(RouteFinderPool.layer),
  Layer.provideMerge(settings)
)

const request = (i: number) => {
  const tokenIn = tokens[(i * 7) % tokens.length]!
  const tokenOut = tokens[(i * 13 + 1) % tokens.length]!
  const type = i % 2 === 0 ? "exactIn" as const : "exactOut" as const
  const whole = 10n ** BigInt(type === "exactIn" ? tokenIn.decimals : tokenOut.decimals)
  return { tokenIn: tokenIn.address, tokenOut: tokenOut.address, amount: whole, type, gasPriceWei: 1_000_000_000n }
}

layer(finderAndPool, { timeout: "120 seconds", excludeTestServices: true })("route finder under a burst", (it) => {
  it.effect("queued quotes past QUOTE_TIMEOUT fail as QUOTE_TIMEOUT without stopping the worker thread", () =>
    Effect.gen(function*() {
      const finder = yield* RouteFinder
      const pool = yield* RouteFinderPool
      yield* finder.load(universe.snapshot, generatedConfig())
      // Until the thread is warm and synced (its first quote loads the pool graph, which may itself take > 5 ms).
      let first = yield* Effect.exit(finder.quote(request(0)))
      for (let i = 0; i < 50 && first._tag === "Failure"; i++) first = yield* Effect.exit(finder.quote(request(0)))
      assert.strictEqual(first._tag, "Success", String(first._tag === "Failure" && first.cause))
      const threadsBefore = pool.threads.map((t) => t.threadId)
      assert.lengthOf(threadsBefore, 1)

      const results = yield* Effect.forEach(Array.from({ length: 600 }, (_, i) => i), (i) =>
        Effect.exit(finder.quote(request(i))), { concurrency: "unbounded" })
      const failures = results.flatMap((r) => (r._tag === "Failure" ? [String(r.cause)] : []))
      assert.isAbove(failures.length, 0, "the burst must overflow the 5 ms budget")
      for (const f of failures) assert.include(f, "QUOTE_TIMEOUT")

      // Same thread, and it answers a new quote within the budget once the queue has drained.
      let after = yield* Effect.exit(finder.quote(request(1)))
      for (let i = 0; i < 100 && after._tag === "Failure"; i++) after = yield* Effect.exit(finder.quote(request(1)))
      assert.strictEqual(after._tag, "Success")
      assert.deepStrictEqual(pool.threads.map((t) => t.threadId), threadsBefore)
    }))
})
