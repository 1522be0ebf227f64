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
 * How deep a pool is for pricing `token` (the other token worth `otherUsd`): its in-range liquidity in whole-token
 * units, L / 10^((d0 + d1) / 2) — the geometric mean sqrt(x · y) of its virtual reserves, which the price does not
 * change — times sqrt(otherUsd), so that pools of a token against different counter tokens and decimals compare in
 * one unit, sqrt(token · USD). A pool at a wild price with little liquidity (a dust pool) stays shallow whatever its
 * price: it cannot win over a deep pool, so it cannot move the price.
 */
export const depthOf = (state: ProjectionState, pool: PoolInfo, otherUsd: number): number => {
  const d0 = decimalsOf(state, pool.token0)
  const d1 = decimalsOf(state, pool.token1)
  return d0 === null || d1 === null ? 0 : (Number(pool.liquidity) / 10 ** ((d0 + d1) / 2)) * Math.sqrt(otherUsd)
}

/**
 * The USD price of `token` through the deepest of its pricing pools (State.ts `pricingPools`) whose other token
 * `counterUsd` prices. When none has liquidity at its price (a fresh launch), the token's launch pool, else the
 * first registered candidate. Null when no candidate has a price.
 */
const throughDeepest = (
  state: ProjectionState,
  token: string,
  counterUsd: (other: string) => number | null
): number | null => {
  let best: { readonly depth: number; readonly usd: number } | null = null
  let fallback: number | null = null
  const ref = state.refPool.get(token)
  for (const address of state.pricingPools.get(token) ?? []) {
    const pool = state.pools.get(address)!
    const other = pool.token0 === token ? pool.token1 : pool.token0
    if (other === token) continue
    const price = poolPrice(state, pool)
    if (price === null || price === 0) continue
    const otherUsd = counterUsd(other)
    if (otherUsd === null) continue
    const usd = finiteOrNull((pool.token0 === token ? price : 1 / price) * otherUsd)
    if (usd === null) continue
    const depth = depthOf(state, pool, otherUsd)
    if (depth > 0 && (best === null || depth > best.depth)) best = { depth, usd }
    if (fallback === null || address === ref) fallback = usd
  }
  return best?.usd ?? fallback
}

const pegOf = (state: ProjectionState) => (token: string) => state.stablecoins.get(token) ?? null

/**
 * A base token's USD price: a stablecoin at its peg; another (WETH, a blue chip) through its deepest pool with a
 * stablecoin, else through its deepest pool with a base token that is priced that way.
 */
const baseUsd = (state: ProjectionState, token: string): number | null => {
  const peg = state.stablecoins.get(token)
  if (peg !== undefined) return peg
  return (
    throughDeepest(state, token, pegOf(state)) ??
    throughDeepest(state, token, (other) =>
      state.stablecoins.has(other) ? null : throughDeepest(state, other, pegOf(state))
    )
  )
}

/**
 * USD price of a token from the market: the stablecoins at their peg, the other base tokens through their deepest
 * stable pools, any other token (a launch) through its deepest pool with a base token. Computed from the pools' state
 * after each log, so it does not depend on how logs are grouped into batches. Null when there is no path (no
 * stablecoin configured, pools not yet initialised).
 */
export const usdPrice = (state: ProjectionState, token: string): number | null =>
  state.baseTokens.has(token)
    ? baseUsd(state, token)
    : throughDeepest(state, token, (other) => (state.baseTokens.has(other) ? baseUsd(state, other) : null))

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

/** A pool's reserves in USD at the given prices of its tokens; null when either has no USD price or no decimals. */
export const poolTvlUsd = (
  state: ProjectionState,
  pool: PoolInfo,
  [usd0, usd1]: readonly [number | null, number | null]
): number | null => {
  const h0 = human(pool.reserve0, decimalsOf(state, pool.token0))
  const h1 = human(pool.reserve1, decimalsOf(state, pool.token1))
  return usd0 === null || usd1 === null || h0 === null || h1 === null ? null : finiteOrNull(h0 * usd0 + h1 * usd1)
}
