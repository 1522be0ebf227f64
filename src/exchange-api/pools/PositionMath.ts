import { createRequire } from "node:module"

const require = createRequire(import.meta.url)
const v3 = require("@uniswap/v3-sdk") as {
  TickMath: { getSqrtRatioAtTick: (tick: number) => { toString: () => string } }
}

const Q96 = 1n << 96n
export const sqrtRatioAtTick = (tick: number): bigint => BigInt(v3.TickMath.getSqrtRatioAtTick(tick).toString())

/**
 * Token amounts a position's liquidity is worth at `sqrtPriceX96` (Uniswap v3 LiquidityAmounts, rounded down as
 * a burn pays out): below the range all token0, above it all token1, inside both.
 */
export const amountsForLiquidity = (sqrtPriceX96: bigint, tickLower: number, tickUpper: number, liquidity: bigint) => {
  const a = sqrtRatioAtTick(tickLower)
  const b = sqrtRatioAtTick(tickUpper)
  const amount0For = (lo: bigint, hi: bigint) => ((liquidity << 96n) * (hi - lo)) / hi / lo
  const amount1For = (lo: bigint, hi: bigint) => (liquidity * (hi - lo)) / Q96
  if (sqrtPriceX96 <= a) return { amount0: amount0For(a, b), amount1: 0n }
  if (sqrtPriceX96 >= b) return { amount0: 0n, amount1: amount1For(a, b) }
  return { amount0: amount0For(sqrtPriceX96, b), amount1: amount1For(a, sqrtPriceX96) }
}

/** token1 per token0 in human units at a tick. */
export const priceAtTick = (tick: number, decimals0: number, decimals1: number) =>
  1.0001 ** tick * 10 ** (decimals0 - decimals1)
