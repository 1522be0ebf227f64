import type { PoolInfo, ProjectionState } from "./State.ts"

const Q96 = 2 ** 96

/** Human price of token0 in token1 from a pool's sqrtPriceX96 and the decimals of both tokens. */
export const priceFromSqrt = (sqrtPriceX96: bigint, decimals0: number, decimals1: number): number => {
  const ratio = Number(sqrtPriceX96) / Q96
  return ratio * ratio * 10 ** (decimals0 - decimals1)
}

export const finiteOrNull = (x: number | null): number | null => (x === null || !Number.isFinite(x) ? null : x)

/** A token's decimals; null when unknown (never guessed: a wrong scale would make every price and amount wrong). */
export const decimalsOf = (state: ProjectionState, token: string): number | null =>
  state.tokens.get(token)?.decimals ?? null

export const poolPrice = (state: ProjectionState, pool: PoolInfo): number | null => {
  const d0 = decimalsOf(state, pool.token0)
  const d1 = decimalsOf(state, pool.token1)
  return pool.sqrtPriceX96 === null || d0 === null || d1 === null ? null : priceFromSqrt(pool.sqrtPriceX96, d0, d1)
}

/**
 * USD price of a token through its reference pool: stablecoin = 1, WETH through the stablecoin/WETH pool, a launched
 * token through its launch pool (then WETH). Null when there is no path (no stablecoin configured, pool not yet
 * initialised, an unknown counter token).
 */
export const usdPrice = (state: ProjectionState, token: string, depth = 0): number | null => {
  if (state.stablecoin !== undefined && token === state.stablecoin) return 1
  if (depth > 3) return null
  const ref = state.refPool.get(token)
  const pool = ref === undefined ? undefined : state.pools.get(ref)
  if (pool === undefined) return null
  const price = poolPrice(state, pool)
  if (price === null || price === 0) return null
  const isToken0 = pool.token0 === token
  const other = isToken0 ? pool.token1 : pool.token0
  const otherUsd = usdPrice(state, other, depth + 1)
  return otherUsd === null ? null : finiteOrNull((isToken0 ? price : 1 / price) * otherUsd)
}

/** USD prices of both tokens of a pool; a side without its own path is priced through the pool's price. */
export const poolUsdPrices = (state: ProjectionState, pool: PoolInfo): readonly [number | null, number | null] => {
  let usd0 = usdPrice(state, pool.token0)
  let usd1 = usdPrice(state, pool.token1)
  const price = poolPrice(state, pool)
  if (price !== null && price > 0) {
    if (usd0 === null && usd1 !== null) usd0 = finiteOrNull(price * usd1)
    if (usd1 === null && usd0 !== null) usd1 = finiteOrNull(usd0 / price)
  }
  return [usd0, usd1]
}

/** An amount in whole tokens; null when the token's decimals are unknown. */
export const human = (amount: bigint, decimals: number | null): number | null =>
  decimals === null ? null : Number(amount) / 10 ** decimals
