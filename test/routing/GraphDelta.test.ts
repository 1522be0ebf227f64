/**
 * What a delta drops from the pool graph's caches (workers/routing/Graph.ts): every per-block memo entry (routes,
 * rates), and the depth rankings of the tokens its pools touch; the rankings of other tokens are kept. Before, the
 * rankings lived in the memo and each delta scanned every entry to find them, so a long-running worker's apply grew
 * with the tokens it had ever ranked (bench figures in docs/BENCHMARKS.md, "Deltas pushed to the workers").
 */
import { assert, describe, it } from "@effect/vitest"
import { PoolGraph } from "../../workers/routing/Graph.ts"
import { quote } from "../../workers/routing/Quote.ts"
import { makeDeltaSource, randomQuoteRequests } from "../../workers/routing/testing/generateDeltas.ts"
import { generatedConfig, generateUniverse, prng } from "../../workers/routing/testing/generatePools.ts"
import type { Address } from "../../workers/routing/types.ts"

describe("pool graph caches across deltas", () => {
  it("a delta clears the per-block memo and the rankings of its tokens only", () => {
    const { snapshot, usd } = generateUniverse(13, 400)
    const config = generatedConfig()
    const graph = new PoolGraph(snapshot, config)
    const tokens = new Map(snapshot.tokens.map((t) => [t.address, t]))
    const next = makeDeltaSource({
      chainId: snapshot.chainId,
      pools: new Map(snapshot.pools.map((p) => [p.address, p])),
      pending: [],
      tokens,
      rand: prng(5)
    })
    const request = randomQuoteRequests(snapshot.pools, tokens, usd, prng(6))
    const traded = [...new Set(snapshot.pools.flatMap((p) => [p.token0, p.token1]))]
    for (let block = 2n; block <= 21n; block++) {
      for (let i = 0; i < 10; i++) quote(graph, config, request())
      const before = new Map(traded.map((t) => [t, graph.deepestPartners(t, 5)]))
      assert.isAbove(graph.memo.size, 0, "the quotes memoised routes or rates")
      const delta = next(block, { swapped: 6, minted: 2, removed: 1 })
      const touched = new Set<Address>()
      for (const p of delta.pools) for (const t of [p.token0, p.token1]) touched.add(t)
      // A removed pool's tokens: read from the graph before the delta applies.
      for (const a of delta.removed) for (const t of [graph.pool(a)!.token0, graph.pool(a)!.token1]) touched.add(t)
      graph.apply(delta)
      assert.strictEqual(graph.memo.size, 0, `block ${block}: no memo entry outlives its block`)
      for (const [token, ranking] of before) {
        const same = graph.deepestPartners(token, 5) === ranking
        assert.strictEqual(same, !touched.has(token), `block ${block}, token ${token}: kept iff untouched`)
      }
    }
  })
})
