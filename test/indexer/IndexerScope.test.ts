import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit } from "effect"
import { indexerScopeConfig, type ScopeDefaults } from "../../src/indexer/IndexerScope.ts"

/** The indexer's scope: the deployments file's parts, each replaced by its INDEXER_* variable when set. */
const usdt = `0x${"1".repeat(40)}` as const
const dai = `0x${"2".repeat(40)}` as const
const wbtc = `0x${"3".repeat(40)}` as const
const pool = `0x${"4".repeat(40)}` as const
const file: ScopeDefaults = {
  stablecoins: [{ address: usdt }, { address: dai, pegUsd: 1.001 }],
  indexing: { baseTokens: [wbtc], pools: [pool], poolsAmongBaseTokens: true }
}
const load = (defaults: ScopeDefaults, env: Record<string, string>) =>
  Effect.exit(indexerScopeConfig(defaults).parse(ConfigProvider.fromEnvRecord(env)))

describe("indexer scope", () => {
  it.effect("reads the deployments file; fee tiers default to the four of Uniswap v3", () =>
    Effect.gen(function* () {
      const scope = yield* indexerScopeConfig(file).parse(ConfigProvider.fromEnvRecord({}))
      assert.deepStrictEqual(scope, {
        baseTokens: [wbtc],
        stablecoins: [
          { address: usdt, pegUsd: 1 },
          { address: dai, pegUsd: 1.001 }
        ],
        trackedPools: { addresses: [pool], amongBaseTokens: true, feeTiers: [100, 500, 3000, 10000] }
      })
      const empty = yield* indexerScopeConfig({}).parse(ConfigProvider.fromEnvRecord({}))
      assert.deepStrictEqual(empty.trackedPools, {
        addresses: [],
        amongBaseTokens: false,
        feeTiers: [100, 500, 3000, 10000]
      })
    })
  )

  it.effect("each INDEXER_* variable replaces its part", () =>
    Effect.gen(function* () {
      const scope = yield* indexerScopeConfig(file).parse(
        ConfigProvider.fromEnvRecord({
          INDEXER_BASE_TOKENS: `${usdt},${dai}`,
          INDEXER_STABLECOINS: `${dai}:0.99, ${usdt}`,
          INDEXER_POOLS: `${pool},${wbtc}`,
          INDEXER_POOLS_AMONG_BASE_TOKENS: "false",
          INDEXER_FEE_TIERS: "500,3000"
        })
      )
      assert.deepStrictEqual(scope, {
        baseTokens: [usdt, dai],
        stablecoins: [
          { address: dai, pegUsd: 0.99 },
          { address: usdt, pegUsd: 1 }
        ],
        trackedPools: { addresses: [pool, wbtc], amongBaseTokens: false, feeTiers: [500, 3000] }
      })
    })
  )

  it.effect("a malformed address, peg or fee tier is refused with the variable's name", () =>
    Effect.gen(function* () {
      const refused: ReadonlyArray<Record<string, string>> = [
        { INDEXER_BASE_TOKENS: "0x1234" },
        { INDEXER_STABLECOINS: `${usdt}:zero` },
        { INDEXER_STABLECOINS: `${usdt}:-1` },
        { INDEXER_POOLS: "pool" },
        { INDEXER_FEE_TIERS: "0.3" }
      ]
      for (const env of refused) {
        const exit = yield* load(file, env)
        assert.isTrue(Exit.isFailure(exit), JSON.stringify(env))
        assert.include(String(Exit.isFailure(exit) ? exit.cause : ""), Object.keys(env)[0]!)
      }
    })
  )
})
