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
    const state = emptyState(weth, new Map([[stable, 1]]), [weth])
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
    const state = emptyState(weth, new Map([[stable, 1]]), [weth])
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
    const state = emptyState(weth, new Map([[stable, 1]]), [weth])
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
    const state = emptyState(weth, new Map([[stable, 1]]), [weth])
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
      reserve1: 0n,
      tick: null,
      liquidity: 0n
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
        reserve1: 0n,
        tick: null,
        liquidity: 0n
      },
      token
    )
    assert.approximately(priceFromSqrt(sqrt(3000), 18, 18), 3000, 1e-6)
    assert.approximately(usdPrice(state, weth)!, 3000, 1e-6)
    assert.approximately(usdPrice(state, token)!, 3, 1e-6)
    assert.strictEqual(usdPrice(emptyState(weth, new Map(), [weth]), weth), null)
  })

  it("prices WETH through its deepest stable pool, in a unit common to every decimals; a dust pool moves nothing", () => {
    const usdc = "0x" + "e".repeat(40)
    const dai = "0x" + "d".repeat(40)
    const state = emptyState(
      weth,
      new Map([
        [usdc, 1],
        [dai, 1]
      ]),
      [weth]
    )
    state.tokens.set(weth, { decimals: 18, isLaunch: false })
    state.tokens.set(usdc, { decimals: 6, isLaunch: false })
    state.tokens.set(dai, { decimals: 18, isLaunch: false })
    // A price of `usd` stable per WETH in raw units (WETH is token0 in both pools: its address sorts first).
    const sqrt = (usd: number, decimals: number) =>
      BigInt(Math.round(Math.sqrt(usd * 10 ** (decimals - 18)) * 2 ** 64)) * (1n << 32n)
    const pool = (address: string, stable: string, decimals: number, usd: number, liquidity: bigint) =>
      addPool(state, {
        address,
        token0: weth,
        token1: stable,
        fee: 500,
        sqrtPriceX96: sqrt(usd, decimals),
        reserve0: 0n,
        reserve1: 0n,
        tick: 0,
        liquidity
      })
    // 2,000 WETH against 6M USDC: L = sqrt(2e21 * 6e12) ≈ 1.1e17, 1.1e5 in whole units.
    pool("0xdeep", usdc, 6, 3000, 109_544_511_501_033_222n)
    // 100 WETH against 299,000 DAI: L ≈ 5.5e21 raw, larger than the USDC pool's, but 5.5e3 in whole units.
    pool("0xdai", dai, 18, 2990, 5_468_089_245_796_927_000_000n)
    // 0.001 WETH against 0.05 USDC at 50 USDC per WETH.
    pool("0xdust", usdc, 6, 50, 7_071_067_811n)
    assert.approximately(usdPrice(state, weth)!, 3000, 3000 * 1e-9)
    assert.strictEqual(usdPrice(state, usdc), 1)
    // The DAI pool gets deeper than the USDC pool: it prices WETH now.
    state.pools.get("0xdai")!.liquidity *= 100n
    assert.approximately(usdPrice(state, weth)!, 2990, 2990 * 1e-9)
    // A stablecoin's peg is what the configuration says, not a pool's price.
    const euro = emptyState(weth, new Map([[usdc, 1.08]]), [weth])
    assert.strictEqual(usdPrice(euro, usdc), 1.08)
  })
})
