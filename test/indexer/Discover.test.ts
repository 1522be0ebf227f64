import { assert, describe, it } from "@effect/vitest"
import type { DecodedLog } from "../../src/indexer/decode/Decode.ts"
import { discover, ignitionsWithoutConfig } from "../../src/indexer/project/Discover.ts"
import { priceFromSqrt, usdPrice } from "../../src/indexer/project/Prices.ts"
import { emptyBatch } from "../../src/indexer/project/Rows.ts"
import { addPool, emptyState, poolConfigOf } from "../../src/indexer/project/State.ts"

/** Pure discovery and pricing over fake decoded logs (no chain, no database). */
const weth = "0x" + "c".repeat(40)
const stable = "0x" + "e".repeat(40)
const config = {
  fee: 10_000,
  tickLower: -207_200,
  tickUpper: 887_200,
  sqrtPriceX96: 2510809139091789284100322n,
  sqrtPriceX96Inverted: 2500031419217008302293562112940196n
}

let logIndex = 0
const log = (kind: DecodedLog["kind"], name: string, args: Record<string, unknown>, block = 10n): DecodedLog => ({
  kind,
  name,
  args,
  log: {
    address: "0x" + "1".repeat(40),
    topics: [],
    data: "0x",
    blockNumber: block,
    blockHash: "0xh",
    logIndex: logIndex++,
    transactionHash: "0xt",
    blockTimestamp: 1_700_000_000n
  }
})
const ignited = (token: string, pool: string, c: ReturnType<typeof poolConfigOf>, canonical: boolean) =>
  log("launch", "Ignited", { token, creator: "0x" + "a".repeat(40), pool, ...c, canonical, positionId: 1n })

describe("discovery", () => {
  it("lists a launch only when its event flag and the registry's configuration (either token order) agree", () => {
    const state = emptyState(weth, stable, [weth, stable])
    state.launchConfig = config
    const low = "0x" + "0".repeat(39) + "1" // sorts below WETH: token0
    const high = "0x" + "f".repeat(40) // above WETH: token1, mirrored configuration
    const liar = "0x" + "2".repeat(40)
    const flagged = "0x" + "3".repeat(40)
    const batch = emptyBatch()
    discover(
      1,
      [
        ignited(low, "0x" + "4".repeat(40), poolConfigOf(config, true), true),
        ignited(high, "0x" + "5".repeat(40), poolConfigOf(config, false), true),
        ignited(liar, "0x" + "6".repeat(40), { ...poolConfigOf(config, true), fee: 3000 }, true), // flag says canonical
        ignited(flagged, "0x" + "7".repeat(40), poolConfigOf(config, true), false)
      ],
      new Map(),
      state,
      new Map(),
      batch
    )
    assert.deepStrictEqual(
      batch.events.launches.map((l) => l.token),
      [low, high]
    )
    assert.deepStrictEqual(
      batch.events.skipped_launches.map((l) => l.reason),
      ["configuration differs from the registry", "not canonical (event flag)"]
    )
    assert.deepStrictEqual(
      batch.pools.map((p) => [p.token0, p.token1]),
      [
        [low, weth],
        [weth, high]
      ]
    )
    assert.strictEqual(state.refPool.get(low), "0x" + "4".repeat(40))
  })

  it("follows LaunchConfigUpdated; without it the canonical check asks the chain", () => {
    const state = emptyState(weth, stable, [weth, stable])
    const token = "0x" + "0".repeat(39) + "9"
    const logs = [ignited(token, "0x" + "8".repeat(40), poolConfigOf(config, true), true)]
    assert.strictEqual(ignitionsWithoutConfig(logs, state).length, 1)
    const withEvent = [
      log("registry", "LaunchConfigUpdated", { ...config, startTick: -207_200, totalSupply: 1n }),
      ...logs
    ]
    assert.strictEqual(ignitionsWithoutConfig(withEvent, state).length, 0)
    const batch = emptyBatch()
    discover(1, withEvent, new Map(), state, new Map(), batch)
    assert.strictEqual(batch.events.launches.length, 1)
    assert.deepStrictEqual(state.launchConfig, config)
  })

  it("a pool between a launched token and any token, or between two base tokens, is followed; others are not", () => {
    const state = emptyState(weth, stable, [weth, stable])
    state.tokens.set("0x" + "0".repeat(39) + "1", { decimals: 18, isLaunch: true })
    const batch = emptyBatch()
    const created = (token0: string, token1: string, pool: string) =>
      log("factory", "PoolCreated", { token0, token1, fee: 3000, tickSpacing: 60, pool })
    discover(
      1,
      [
        created(stable, weth, "0x" + "a1".repeat(20)),
        created("0x" + "0".repeat(39) + "1", stable, "0x" + "a2".repeat(20)),
        created("0x" + "b".repeat(40), weth, "0x" + "a3".repeat(20))
      ],
      new Map(),
      state,
      new Map(),
      batch
    )
    assert.deepStrictEqual(
      batch.pools.map((p) => p.address),
      ["0x" + "a1".repeat(20), "0x" + "a2".repeat(20)]
    )
  })
})

describe("prices", () => {
  it("prices WETH through the stablecoin pool and a token through its launch pool; null without a path", () => {
    const state = emptyState(weth, stable, [weth, stable])
    for (const t of [weth, stable]) state.tokens.set(t, { decimals: 18, isLaunch: false })
    const token = "0x" + "0".repeat(39) + "1"
    state.tokens.set(token, { decimals: 18, isLaunch: true })
    // WETH (token0) / stable (token1) at 3,000; token (token0) / WETH (token1) at 0.001 WETH.
    const sqrt = (price: number) => BigInt(Math.round(Math.sqrt(price) * 2 ** 48)) * (1n << 48n)
    addPool(state, {
      address: "0xusd",
      token0: weth,
      token1: stable,
      fee: 3000,
      sqrtPriceX96: sqrt(3000),
      reserve0: 0n,
      reserve1: 0n
    })
    assert.strictEqual(usdPrice(state, token), null)
    addPool(
      state,
      {
        address: "0xlaunch",
        token0: token,
        token1: weth,
        fee: 10000,
        sqrtPriceX96: sqrt(0.001),
        reserve0: 0n,
        reserve1: 0n
      },
      token
    )
    assert.approximately(priceFromSqrt(sqrt(3000), 18, 18), 3000, 1e-6)
    assert.approximately(usdPrice(state, weth)!, 3000, 1e-6)
    assert.approximately(usdPrice(state, token)!, 3, 1e-6)
    assert.strictEqual(usdPrice(emptyState(weth, undefined, [weth]), weth), null)
  })
})
