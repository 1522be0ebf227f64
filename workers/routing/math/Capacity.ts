/**
 * Floating-point capacity of a pool in one direction: the most output it can pay and the most input it can take
 * before its liquidity runs out (walking the initialized ticks to the price limit). Exact swaps never exceed the real
 * values (they round in the pool's favour), and the floats are within ~1e-12 of them, so an amount above capacity
 * by a margin of 1e-9 cannot fill: the route simulation rejects it without walking thousands of bitmap words.
 * Memoised per pool state (immutable; a delta brings a new object).
 */
import type { SwapPool } from "./PoolSwap.ts"
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "./TickMath.ts"
import { getSqrtRatioAtTick } from "./TickMath.ts"

export interface Capacity {
  /** Largest output (output token units), or Infinity. */
  readonly maxOut: number
  /** Largest input before liquidity runs out, fee included, or Infinity. */
  readonly maxIn: number
}

const Q96 = 2 ** 96
const MARGIN = 1 + 1e-9
const memo = new WeakMap<SwapPool, [Capacity | undefined, Capacity | undefined]>()

const compute = (pool: SwapPool, zeroForOne: boolean): Capacity => {
  const fee = pool.fee / 1e6
  let liquidity = Number(pool.liquidity)
  let price = Number(pool.sqrtPriceX96) / Q96
  let maxOut = 0
  let maxIn = 0
  // Amounts for moving from `price` to `next` at the current liquidity.
  const move = (next: number) => {
    if (liquidity > 0) {
      const [amount0, amount1] = [liquidity * Math.abs(1 / next - 1 / price), liquidity * Math.abs(next - price)]
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
      liquidity -= Number(t.liquidityNet)
    }
    move(Number(MIN_SQRT_RATIO) / Q96)
  } else {
    for (const t of ticks) {
      if (t.index <= pool.tick) continue
      move(Number(getSqrtRatioAtTick(t.index)) / Q96)
      liquidity += Number(t.liquidityNet)
    }
    move(Number(MAX_SQRT_RATIO) / Q96)
  }
  return { maxOut, maxIn }
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
  return Number(amount) > (exactIn ? c.maxIn : c.maxOut) * MARGIN + 1
}
