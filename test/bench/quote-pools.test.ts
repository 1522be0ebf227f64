/**
 * The bench:quotes inputs: generated pools must be states a real pool could be in (or the engine and AlphaRouter
 * would be compared on impossible data), and QuoterV2 paths must be packed as Uniswap packs them.
 */
import { createRequire } from "node:module"
import { describe, expect, it } from "vitest"
import { generatePools, mergeSnapshots } from "../../scripts/bench/quote-pools.ts"
import { makeRequests, pricesInEth } from "../../scripts/bench/quote-requests.ts"
import { packPath } from "../../scripts/bench/quote-quoterv2.ts"
import type { Address } from "../../workers/routing/types.ts"

const require = createRequire(import.meta.url)
const v3 = require("@uniswap/v3-sdk") as {
  TickMath: { getTickAtSqrtRatio: (x: unknown) => number }
  TickListDataProvider: new (ticks: Array<{ index: number; liquidityNet: string; liquidityGross: string }>, spacing: number) => unknown
}
const JSBI = require("jsbi") as { BigInt: (s: string) => unknown }

const weth = "0x5fbdb2315678afecb367f032d93f642f64180aa3" as Address
const stable = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512" as Address

describe("generatePools", () => {
  const g = generatePools(3, 1200, weth, stable)

  it("makes the requested number of pools, one per pair and fee, ordered token0 < token1", () => {
    expect(g.pools.length).toBe(1200)
    const keys = new Set(g.pools.map((p) => `${p.token0}/${p.token1}/${p.fee}`))
    expect(keys.size).toBe(1200)
    for (const p of g.pools) expect(p.token0 < p.token1).toBe(true)
    expect(g.pools.some((p) => p.token0 === (weth < stable ? weth : stable) && p.token1 === (weth < stable ? stable : weth))).toBe(true)
  })

  it("keeps price, tick, ticks and in-range liquidity consistent", () => {
    for (const p of g.pools) {
      expect(v3.TickMath.getTickAtSqrtRatio(JSBI.BigInt(p.sqrtPriceX96.toString()))).toBe(p.tick)
      const active = p.ticks.filter((t) => t.index <= p.tick).reduce((s, t) => s + t.liquidityNet, 0n)
      expect(active).toBe(p.liquidity)
      // v3-sdk checks sorting, spacing and that the nets sum to zero.
      expect(() => new v3.TickListDataProvider(
        p.ticks.map((t) => ({ index: t.index, liquidityNet: t.liquidityNet.toString(), liquidityGross: (t.liquidityNet < 0n ? -t.liquidityNet : t.liquidityNet).toString() })),
        p.tickSpacing
      )).not.toThrow()
    }
  })

  it("is deterministic and merges with a base snapshot without duplicating tokens", () => {
    expect(generatePools(3, 50, weth, stable).pools).toEqual(generatePools(3, 50, weth, stable).pools)
    const base = { chainId: 31337, blockNumber: 1n, pools: [], tokens: [{ address: weth, decimals: 18 }, { address: stable, decimals: 18 }] }
    const merged = mergeSnapshots(base, generatePools(3, 50, weth, stable))
    expect(new Set(merged.tokens.map((t) => t.address)).size).toBe(merged.tokens.length)
  })

  it("prices tokens through WETH and sizes requests in the exact token's units", () => {
    const snapshot = mergeSnapshots({ chainId: 31337, blockNumber: 1n, pools: [], tokens: [{ address: weth, decimals: 18 }, { address: stable, decimals: 18 }] }, g)
    const prices = pricesInEth(snapshot, weth)
    expect(1 / prices.get(stable)!).toBeGreaterThan(2900)
    expect(1 / prices.get(stable)!).toBeLessThan(3100)
    const requests = makeRequests(snapshot, weth, { count: 40, seed: 5, minEth: 1, maxEth: 1, gasPriceWei: 1n, pinned: [[weth, stable]] })
    expect(requests).toHaveLength(40)
    expect(requests[0]).toMatchObject({ tokenIn: weth, tokenOut: stable, type: "exactIn", amount: 10n ** 18n })
    expect(requests.filter((r) => r.type === "exactOut")).toHaveLength(20)
  })
})

describe("packPath", () => {
  it("packs token, fee, token … and reverses for exactOut", () => {
    const a = "0x1111111111111111111111111111111111111111" as Address
    const b = "0x2222222222222222222222222222222222222222" as Address
    const c = "0x3333333333333333333333333333333333333333" as Address
    expect(packPath([a, b, c], [500, 3000], false)).toBe(`0x${"11".repeat(20)}0001f4${"22".repeat(20)}000bb8${"33".repeat(20)}`)
    expect(packPath([a, b, c], [500, 3000], true)).toBe(`0x${"33".repeat(20)}000bb8${"22".repeat(20)}0001f4${"11".repeat(20)}`)
  })
})
