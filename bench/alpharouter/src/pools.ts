/**
 * Our snapshot turned into what AlphaRouter's providers hand out: chain-1 `Token`s (renamed per remap.ts), v3-sdk
 * `Pool`s as the SOR sees them (no tick data: the SOR never simulates, it asks a quoter), "subgraph" rows with a TVL
 * (the SOR ranks candidate pools by tvlUSD), and, per pool, our own untouched state for the in-memory quoter.
 */
import { createRequire } from "node:module"
import type { Token as TokenT } from "@uniswap/sdk-core"
import type { Pool as PoolT, TickDataProvider } from "@uniswap/v3-sdk"
import type { V3SubgraphPool } from "@uniswap/smart-order-router"
import { CHAIN_ID, invertSqrtPrice, type Remap } from "./remap.ts"
import type { PoolJson, SnapshotJson } from "./snapshot.ts"

const require = createRequire(import.meta.url)
const core = require("@uniswap/sdk-core") as typeof import("@uniswap/sdk-core")
const v3 = require("@uniswap/v3-sdk") as typeof import("@uniswap/v3-sdk")
const JSBI = require("jsbi") as typeof import("jsbi").default

export interface PoolEntry {
  readonly ours: PoolJson
  /** The pool as the SOR sees it (renamed tokens, possibly inverted). */
  readonly sor: PoolT
  readonly flipped: boolean
  /** Tick data for the simulation on our own orientation; null when the pool has no initialized tick. */
  readonly ticks: TickDataProvider | null
  readonly tickIndexes: ReadonlyArray<number>
}

export interface World {
  readonly tokens: Map<string, TokenT>
  readonly byKey: Map<string, PoolEntry>
  readonly byAddress: Map<string, PoolEntry>
  readonly subgraph: ReadonlyArray<V3SubgraphPool>
  /** Pools left out: a second pool of the same pair and fee (the SOR keys pools by pair and fee). */
  readonly skipped: number
}

export const poolKey = (a: string, b: string, fee: number) => {
  const [x, y] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]
  return `${x.toLowerCase()}/${y.toLowerCase()}/${fee}`
}

const MIN = BigInt(v3.TickMath.MIN_SQRT_RATIO.toString())
const MAX = BigInt(v3.TickMath.MAX_SQRT_RATIO.toString())

const sorPoolOf = (p: PoolJson, remap: Remap, tokens: Map<string, TokenT>): { pool: PoolT; flipped: boolean } => {
  const flipped = remap.flipped(p.token0, p.token1)
  const t0 = tokens.get(remap.toSor(p.token0))!
  const t1 = tokens.get(remap.toSor(p.token1))!
  const sqrt = flipped ? invertSqrtPrice(BigInt(p.sqrtPriceX96), MIN, MAX) : BigInt(p.sqrtPriceX96)
  const sqrtJ = JSBI.BigInt(sqrt.toString())
  // The tick must agree with the price (v3-sdk checks it); for an inverted pool it is recomputed from the price.
  const tick = flipped ? v3.TickMath.getTickAtSqrtRatio(sqrtJ) : p.tick
  return { pool: new v3.Pool(t0, t1, p.fee, sqrtJ, JSBI.BigInt(p.liquidity), tick), flipped }
}

/** Token amounts locked in the pool (per range of active liquidity), as floats: what a subgraph's TVL measures. */
const lockedAmounts = (p: PoolJson): [number, number] => {
  const sqrtAt = (t: number) => 1.0001 ** (t / 2)
  const sqrtP = Number(BigInt(p.sqrtPriceX96)) / 2 ** 96
  let liquidity = 0
  let a0 = 0
  let a1 = 0
  for (let i = 0; i + 1 < p.ticks.length; i++) {
    liquidity += Number(BigInt(p.ticks[i]!.liquidityNet))
    if (liquidity <= 0) continue
    const lo = sqrtAt(p.ticks[i]!.index)
    const hi = sqrtAt(p.ticks[i + 1]!.index)
    if (sqrtP <= lo) a0 += liquidity * (1 / lo - 1 / hi)
    else if (sqrtP >= hi) a1 += liquidity * (hi - lo)
    else {
      a0 += liquidity * (1 / sqrtP - 1 / hi)
      a1 += liquidity * (sqrtP - lo)
    }
  }
  return [a0, a1]
}

/**
 * TVL in ETH and USD per pool. Token prices in ETH come from each token's deepest WETH pool (mid price); tokens without
 * one are valued through the other side of the pool. Approximate, like a subgraph's, and only used for ranking.
 */
const subgraphRows = (
  entries: ReadonlyArray<PoolEntry>,
  remap: Remap,
  weth: string,
  usd: string
): Array<V3SubgraphPool> => {
  const priceInEth = new Map<string, { price: number; liquidity: bigint }>([
    [weth, { price: 1, liquidity: 1n << 255n }]
  ])
  for (const e of entries) {
    const [s0, s1] = [remap.toSor(e.ours.token0), remap.toSor(e.ours.token1)]
    if (s0 !== weth && s1 !== weth) continue
    const other = s0 === weth ? s1 : s0
    const d0 = e.sor.token0.decimals
    const d1 = e.sor.token1.decimals
    const raw = (Number(BigInt(e.sor.sqrtRatioX96.toString())) / 2 ** 96) ** 2 // token1 per token0, base units
    const p1per0 = raw * 10 ** (d0 - d1)
    const price = e.sor.token0.address.toLowerCase() === weth ? 1 / p1per0 : p1per0
    const seen = priceInEth.get(other)
    const liquidity = BigInt(e.ours.liquidity)
    if (Number.isFinite(price) && (seen === undefined || liquidity > seen.liquidity))
      priceInEth.set(other, { price, liquidity })
  }
  const ethUsd = 1 / (priceInEth.get(usd)?.price ?? 1 / 3000)
  return entries.map((e) => {
    const [a0, a1] = lockedAmounts(e.ours)
    const [o0, o1] = e.flipped ? [a1, a0] : [a0, a1] // amounts of the SOR's token0/token1
    const p0 = priceInEth.get(e.sor.token0.address.toLowerCase())?.price
    const p1 = priceInEth.get(e.sor.token1.address.toLowerCase())?.price
    const v0 = o0 / 10 ** e.sor.token0.decimals
    const v1 = o1 / 10 ** e.sor.token1.decimals
    const tvlETH =
      p0 !== undefined && p1 !== undefined
        ? v0 * p0 + v1 * p1
        : p0 !== undefined
          ? 2 * v0 * p0
          : p1 !== undefined
            ? 2 * v1 * p1
            : 0
    return {
      id: e.ours.address.toLowerCase(),
      feeTier: String(e.ours.fee),
      liquidity: e.ours.liquidity,
      token0: { id: e.sor.token0.address.toLowerCase() },
      token1: { id: e.sor.token1.address.toLowerCase() },
      tvlETH,
      tvlUSD: tvlETH * ethUsd
    }
  })
}

/** Thrown when a swap walks past the last initialized tick: no liquidity is left that way, so it can only be drained. */
export class Drained extends Error {}

/**
 * v3-sdk's tick list, except that past the outermost initialized tick it stops the swap (`Drained`) instead of walking
 * empty bitmap words one by one to the price limit (thousands of steps, which would make the baseline's quoter,
 * not its routing, dominate). The outcome is the same: such a swap reaches its price limit and counts as not filled.
 */
const drainAware = (inner: TickDataProvider, smallest: number, largest: number): TickDataProvider => ({
  getTick: (tick) => inner.getTick(tick),
  nextInitializedTickWithinOneWord: (tick, lte, tickSpacing) => {
    if (lte ? tick < smallest : tick >= largest) throw new Drained()
    return inner.nextInitializedTickWithinOneWord(tick, lte, tickSpacing)
  }
})

export const buildWorld = (
  snapshot: SnapshotJson,
  remap: Remap,
  roles: { wrappedNative: string; usdToken: string }
): World => {
  const tokens = new Map<string, TokenT>()
  for (const t of snapshot.tokens) {
    const a = remap.toSor(t.address)
    tokens.set(a, new core.Token(CHAIN_ID, a, t.decimals, t.symbol ?? a.slice(0, 8), t.symbol ?? a.slice(0, 8)))
  }
  const byKey = new Map<string, PoolEntry>()
  const byAddress = new Map<string, PoolEntry>()
  let skipped = 0
  for (const p of snapshot.pools) {
    const key = poolKey(remap.toSor(p.token0), remap.toSor(p.token1), p.fee)
    if (byKey.has(key)) {
      skipped++
      continue
    }
    const { pool, flipped } = sorPoolOf(p, remap, tokens)
    const ticks =
      p.ticks.length === 0
        ? null
        : drainAware(
            new v3.TickListDataProvider(
              p.ticks.map((t) => ({
                index: t.index,
                liquidityNet: JSBI.BigInt(t.liquidityNet),
                liquidityGross: JSBI.BigInt(
                  BigInt(t.liquidityNet) < 0n ? (-BigInt(t.liquidityNet)).toString() : t.liquidityNet
                )
              })),
              p.tickSpacing
            ),
            p.ticks[0]!.index,
            p.ticks[p.ticks.length - 1]!.index
          )
    const entry: PoolEntry = { ours: p, sor: pool, flipped, ticks, tickIndexes: p.ticks.map((t) => t.index) }
    byKey.set(key, entry)
    byAddress.set(p.address.toLowerCase(), entry)
  }
  const subgraph = subgraphRows(
    [...byKey.values()],
    remap,
    remap.toSor(roles.wrappedNative),
    remap.toSor(roles.usdToken)
  )
  return { tokens, byKey, byAddress, subgraph, skipped }
}
