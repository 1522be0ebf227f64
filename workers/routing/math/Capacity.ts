/**
 * Floating-point capacity of a pool in one direction: the most output it can pay and the most input it can take
 * before its liquidity runs out (walking the initialized ticks to the price limit). Exact swaps pay out less than
 * the real value and take in less than 4 wei more per step (rounding in the pool's favour), and the floats are within
 * ~1e-12 of the real values, so an amount above capacity by a relative 1e-9 (plus the rounding allowance) cannot
 * fill: the route simulation rejects it without walking thousands of bitmap words.
 * Memoised per pool state (immutable; a delta brings a new object).
 */
import type { SwapPool } from "./SwapLoop.ts"
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "./TickMath.ts"
import { getSqrtRatioAtTick } from "./TickMath.ts"

export interface Capacity {
  /** Largest output (output token units). */
  readonly maxOut: number
  /** Largest input before liquidity runs out, fee included. */
  readonly maxIn: number
  /** Most steps a swap can take (each rounds its input up by < 4 wei: the exact input can exceed maxIn by that). */
  readonly maxSteps: number
}

const Q96 = 2 ** 96
const MARGIN = 1 + 1e-9
const memo = new WeakMap<SwapPool, [Capacity | undefined, Capacity | undefined]>()

const compute = (pool: SwapPool, zeroForOne: boolean): Capacity => {
  const fee = pool.fee / 1e6
  // Liquidity stays a bigint: large nets that cancel out would leave float noise (or lose a small full range).
  let liquidity = pool.liquidity
  let price = Number(pool.sqrtPriceX96) / Q96
  let maxOut = 0
  let maxIn = 0
  // Amounts for moving from `price` to `next` at the current liquidity.
  const move = (next: number) => {
    if (liquidity > 0n) {
      const l = Number(liquidity)
      const [amount0, amount1] = [l * Math.abs(1 / next - 1 / price), l * Math.abs(next - price)]
      maxOut += zeroForOne ? amount1 : amount0
      maxIn += (zeroForOne ? amount0 : amount1) / (1 - fee)
    }
    price = next
  }
  const ticks = pool.ticks
  if (zeroForOne) {
    for (let i = ticks.length - 1; i >= 0; i--) {
      const t = ticks[i]!
      if (t.index > pool.tick) continue
      move(Number(getSqrtRatioAtTick(t.index)) / Q96)
      liquidity -= t.liquidityNet
    }
    move(Number(MIN_SQRT_RATIO) / Q96)
  } else {
    for (const t of ticks) {
      if (t.index <= pool.tick) continue
      move(Number(getSqrtRatioAtTick(t.index)) / Q96)
      liquidity += t.liquidityNet
    }
    move(Number(MAX_SQRT_RATIO) / Q96)
  }
  const maxSteps = ticks.length + 2 + Math.ceil((2 * 887_272) / (256 * pool.tickSpacing))
  return { maxOut, maxIn, maxSteps }
}

export const capacityOf = (pool: SwapPool, zeroForOne: boolean): Capacity => {
  let entry = memo.get(pool)
  if (entry === undefined) memo.set(pool, (entry = [undefined, undefined]))
  const side = zeroForOne ? 0 : 1
  return (entry[side] ??= compute(pool, zeroForOne))
}

/** Whether a swap of this size certainly cannot fill (false means: simulate to find out). */
export const exceedsCapacity = (pool: SwapPool, zeroForOne: boolean, exactIn: boolean, amount: bigint): boolean => {
  const c = capacityOf(pool, zeroForOne)
  return exactIn ? Number(amount) > c.maxIn * MARGIN + 4 * c.maxSteps + 1 : Number(amount) > c.maxOut * MARGIN + 1
}
