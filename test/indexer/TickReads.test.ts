import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type Address, parseAbi } from "viem"
import {
  defaultLensLimits,
  type LensLimits,
  readInitializedTicks,
  wordRange
} from "../../src/indexer/bootstrap/TickReads.ts"
import { scopedMainnetShaped } from "../support/MainnetShaped.ts"
import { readerOver } from "./fake-reader.ts"

/**
 * The initialized ticks of the mainnet-shaped market's pools (fee tiers 0.01 % to 1 %: 116 to 6,932 bitmap words each),
 * read by contracts/TickBitmapLens.sol through a state override on a real anvil: the same ticks, with the liquidity
 * `ticks()` reports, whether one eth_call covers many pools or the lens must stop and be asked again (few words per
 * request, too little gas for a request, fewer ticks per answer than a word holds).
 */

const poolAbi = parseAbi([
  "function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool)"
])

describe("initialized ticks through the lens", () => {
  it.effect(
    "equal the chain's ticks() of every position's ticks, in any request size",
    () =>
      Effect.gen(function* () {
        const { chain, scenario } = yield* scopedMainnetShaped()
        const client = chain.publicClient
        const blockNumber = yield* Effect.promise(() => client.getBlockNumber({ cacheTime: 0 }))
        const pools = scenario.pools.map((p) => ({ address: p.address.toLowerCase(), tickSpacing: p.tickSpacing }))
        const read = (limits: LensLimits) =>
          Effect.gen(function* () {
            const ctx = { blockNumber, concurrency: 4, stats: { calls: 0, requests: 0 } }
            const ticks = yield* readInitializedTicks(ctx, pools, limits).pipe(Effect.provide(readerOver(client)))
            return { ticks, requests: ctx.stats.requests, calls: ctx.stats.calls }
          })

        const full = yield* read(defaultLensLimits)
        for (const p of scenario.pools) {
          const pool = p.address.toLowerCase()
          const expected = [...scenario.positionTicks.get(pool)!].sort((a, b) => a - b)
          const chainTicks = yield* Effect.promise(() =>
            Promise.all(
              expected.map((tick) =>
                client.readContract({
                  address: p.address as Address,
                  abi: poolAbi,
                  functionName: "ticks",
                  args: [tick],
                  blockNumber
                })
              )
            )
          )
          assert.deepStrictEqual(
            full.ticks.get(pool),
            expected.map((tick, i) => ({
              tick,
              liquidityGross: chainTicks[i]![0],
              liquidityNet: chainTicks[i]![1]
            })),
            p.label
          )
        }
        // One lens request per 4,500 words (and one for its code); every word and tick counted as a view call.
        const words = pools.reduce((n, p) => n + wordRange(p.tickSpacing).to - wordRange(p.tickSpacing).from + 1, 0)
        const ticks = [...full.ticks.values()].reduce((n, t) => n + t.length, 0)
        assert.strictEqual(full.calls, words + ticks)
        assert.strictEqual(full.requests, 1 + Math.ceil(words / defaultLensLimits.wordsPerRequest))

        for (const limits of [
          { ...defaultLensLimits, wordsPerRequest: 40 },
          { ...defaultLensLimits, callGas: 2_500_000n, gasReserve: 1_000_000n },
          { ...defaultLensLimits, maxTicks: 3n }
        ]) {
          const small = yield* read(limits)
          assert.deepStrictEqual(small.ticks, full.ticks)
          assert.strictEqual(small.calls, full.calls)
          assert.isAbove(small.requests, full.requests)
        }
      }).pipe(Effect.scoped),
    600_000
  )
})
