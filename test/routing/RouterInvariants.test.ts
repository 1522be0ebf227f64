/**
 * Router invariants over a generated set of 1,000 pools (workers/routing/testing): for random pairs and amounts,
 * every route is a simple path (no token repeats, ≤ maxHops), legs never share a pool, shares add up to 100 % and
 * to the request's amount, and every leg equals its own hop-by-hop exact simulation.
 */
import { assert, describe, it } from "@effect/vitest"
import { makeRouter } from "../../workers/routing/index.ts"
import { swap } from "../../workers/routing/math/PoolSwap.ts"
import { generatedConfig, generateUniverse, prng } from "../../workers/routing/testing/generatePools.ts"
import type { Address, PoolState, TradeType } from "../../workers/routing/types.ts"

describe("Router invariants (generated pools)", () => {
  it("simple paths, disjoint legs, exact legs, totals", () => {
    const { snapshot, usd } = generateUniverse(7, 1000)
    const config = generatedConfig()
    const router = makeRouter(snapshot, config)
    const pools = new Map<Address, PoolState>(snapshot.pools.map((p) => [p.address, p]))
    const traded = [...new Set(snapshot.pools.flatMap((p) => [p.token0, p.token1]))]
    const decimals = new Map(snapshot.tokens.map((t) => [t.address, t.decimals]))
    const rand = prng(11)
    const tags: Record<string, number> = {}
    let splits = 0
    for (let i = 0; i < 400; i++) {
      const tokenIn = traded[Math.floor(rand() * traded.length)]!
      const tokenOut = traded[Math.floor(rand() * traded.length)]!
      if (tokenIn === tokenOut) continue
      const type: TradeType = rand() < 0.5 ? "exactIn" : "exactOut"
      const sized = type === "exactIn" ? tokenIn : tokenOut
      const amount = BigInt(Math.floor((10 ** (1 + rand() * 4) / usd.get(sized)!) * 10 ** decimals.get(sized)!)) + 1n
      const outcome = router.quote({ tokenIn, tokenOut, amount, type, gasPriceWei: 1_000_000_000n })
      tags[outcome._tag] = (tags[outcome._tag] ?? 0) + 1
      if (outcome._tag !== "Found") continue
      const q = outcome.quote
      if (q.routes.length > 1) splits++
      assert.strictEqual(type === "exactIn" ? q.amountIn : q.amountOut, amount)
      assert.strictEqual(
        q.routes.reduce((s, r) => s + r.amountIn, 0n),
        q.amountIn
      )
      assert.strictEqual(
        q.routes.reduce((s, r) => s + r.amountOut, 0n),
        q.amountOut
      )
      assert.approximately(
        q.routes.reduce((s, r) => s + r.percent, 0),
        100,
        1e-9
      )
      const legPools = q.routes.flatMap((r) => r.hops.map((h) => h.pool))
      assert.strictEqual(new Set(legPools).size, legPools.length, "a pool is used by two legs")
      for (const route of q.routes) {
        assert.isTrue(route.path.length >= 2 && route.path.length <= config.maxHops + 1)
        assert.strictEqual(new Set(route.path).size, route.path.length, "token cycle")
        assert.strictEqual(route.path[0], tokenIn)
        assert.strictEqual(route.path.at(-1), tokenOut)
        route.hops.forEach((hop, h) => {
          const p = pools.get(hop.pool)!
          assert.strictEqual(hop.tokenIn, route.path[h])
          assert.strictEqual(hop.tokenOut, route.path[h + 1])
          assert.isTrue([p.token0, p.token1].includes(hop.tokenIn) && [p.token0, p.token1].includes(hop.tokenOut))
          // exactIn legs run forward (input → output), exactOut legs backward (output → input needed).
          const exact = swap(p, p.token0 === hop.tokenIn, type === "exactIn" ? hop.amountIn : -hop.amountOut)
          assert.isTrue(exact.filled)
          assert.strictEqual(
            type === "exactIn" ? hop.amountOut : hop.amountIn,
            type === "exactIn" ? exact.amountOut : exact.amountIn
          )
          if (h > 0) assert.strictEqual(hop.amountIn, route.hops[h - 1]!.amountOut)
        })
        assert.strictEqual(route.hops[0]!.amountIn, route.amountIn)
        assert.strictEqual(route.hops.at(-1)!.amountOut, route.amountOut)
      }
    }
    assert.isTrue((tags.Found ?? 0) > 150 && splits > 5, JSON.stringify({ tags, splits }))
  })
})
