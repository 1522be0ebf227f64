/**
 * Mid prices as exact rationals (num/den bigints): a pool's price is √P² / 2^192 token1 per token0, and a route's
 * mid price is the product along its hops. Used for price impact (quote vs mid price, fees included, as the
 * Uniswap SDKs' Trade.priceImpact) and to express gas in the quote token through WETH.
 */
import type { PoolGraph } from "./Graph.ts"
import type { Route } from "./Routes.ts"
import type { Address, PoolState, RoutingConfig } from "./types.ts"

export interface Rate {
  readonly num: bigint
  readonly den: bigint
}

const Q192 = 1n << 192n

/** Output per unit of input at the pool's current price, before fees. */
export const poolRate = (pool: PoolState, zeroForOne: boolean): Rate => {
  const p = pool.sqrtPriceX96 * pool.sqrtPriceX96
  return zeroForOne ? { num: p, den: Q192 } : { num: Q192, den: p }
}

export const routeRate = (route: Route): Rate => {
  let num = 1n
  let den = 1n
  for (let i = 0; i < route.pools.length; i++) {
    const r = poolRate(route.pools[i]!, route.zeroForOne[i]!)
    num *= r.num
    den *= r.den
  }
  return { num, den }
}

export const applyRate = (amount: bigint, rate: Rate): bigint => (amount * rate.num) / rate.den

/** Inverse conversion (amount of output → input at the same rate), rounded down. */
export const applyRateInverse = (amount: bigint, rate: Rate): bigint => (amount * rate.den) / rate.num

const rateVia = (graph: PoolGraph, path: ReadonlyArray<Address>): Rate | null => {
  let num = 1n
  let den = 1n
  for (let i = 0; i + 1 < path.length; i++) {
    // The most liquid candidate pool of the pair carries the reference price.
    const pool = graph.pairPools(path[i]!, path[i + 1]!)[0]
    if (pool === undefined) return null
    const r = poolRate(pool, pool.token0 === path[i])
    num *= r.num
    den *= r.den
  }
  return { num, den }
}

/**
 * Units of `token` per wei of the wrapped native token, at mid price: directly when a WETH/token pool exists,
 * otherwise through one base token. Null when the graph has no such path. Memoised per block.
 */
export const nativeRate = (graph: PoolGraph, config: RoutingConfig, token: Address): Rate | null => {
  const weth = config.wrappedNative
  if (token === weth) return { num: 1n, den: 1n }
  const key = `native|${token}`
  if (graph.memo.has(key)) return graph.memo.get(key) as Rate | null
  let rate = rateVia(graph, [weth, token])
  for (const base of config.baseTokens) {
    if (rate !== null) break
    if (base !== weth && base !== token) rate = rateVia(graph, [weth, base, token])
  }
  graph.memo.set(key, rate)
  return rate
}

/** Price impact in ppm: how far the execution falls short of the mid price (positive = worse than mid). */
export const priceImpactPpm = (spotOut: bigint, actualOut: bigint): number => {
  if (spotOut <= 0n) return 0
  return Number(((spotOut - actualOut) * 1_000_000n) / spotOut)
}
