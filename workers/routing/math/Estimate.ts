/**
 * Floating-point swap estimates for the split search: the same liquidity ranges as the exact loop, walked from one
 * initialized tick to the next in doubles (no bitmap words, no integer rounding). Within ~1e-12 relative of the exact
 * result plus a few wei per step — plenty to rank routes and shares, at a small fraction of the cost of bigint
 * steps. Only the chosen legs are then simulated exactly (Quote.ts), so no estimate ever reaches a quote.
 * Per pool state (immutable) the float prices of its ticks and the liquidity of each range are memoised; range
 * liquidity is summed as bigints first, since large nets that cancel would leave float noise.
 */
import type { SwapPool } from "./SwapLoop.ts"
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "./TickMath.ts"

interface Ranges {
  /** √price (real, not Q96) at each initialized tick. */
  readonly sqrt: Float64Array
  /** Liquidity between tick i and i + 1 (index i), below the first tick 0. */
  readonly liquidity: Float64Array
  /** Range containing the current tick (−1: below the first initialized tick). */
  readonly current: number
  readonly price: number
}

const Q96 = 2 ** 96
const MIN_PRICE = Number(MIN_SQRT_RATIO) / Q96
const MAX_PRICE = Number(MAX_SQRT_RATIO) / Q96
const memo = new WeakMap<SwapPool, Ranges>()

const rangesOf = (pool: SwapPool): Ranges => {
  let r = memo.get(pool)
  if (r === undefined) {
    const n = pool.ticks.length
    const sqrt = new Float64Array(n)
    const liquidity = new Float64Array(n)
    let sum = 0n
    let current = -1
    for (let i = 0; i < n; i++) {
      const t = pool.ticks[i]!
      sqrt[i] = Number(getSqrtRatioAtTick(t.index)) / Q96
      sum += t.liquidityNet
      liquidity[i] = Number(sum)
      if (t.index <= pool.tick) current = i
    }
    r = { sqrt, liquidity, current, price: Number(pool.sqrtPriceX96) / Q96 }
    memo.set(pool, r)
  }
  return r
}

export interface Estimate {
  /** exactIn: output; exactOut: input (fee included). */
  readonly amount: number
  readonly ticksCrossed: number
}

/** Estimate of a swap without price limit; null when the pool's liquidity runs out first. */
export const estimateSwap = (
  pool: SwapPool,
  zeroForOne: boolean,
  exactIn: boolean,
  amount: number
): Estimate | null => {
  const r = rangesOf(pool)
  const keep = 1 - pool.fee / 1_000_000
  let i = r.current
  let p = r.price
  let liquidity = Number(pool.liquidity)
  let remaining = exactIn ? amount * keep : amount
  let result = 0
  let crossed = 0
  for (;;) {
    // Boundary of the current range in the direction of the swap.
    const edge = zeroForOne ? (i >= 0 ? r.sqrt[i]! : MIN_PRICE) : i + 1 < r.sqrt.length ? r.sqrt[i + 1]! : MAX_PRICE
    if (liquidity > 0) {
      // token0 and token1 between p and the edge. Written without differences of nearly equal numbers: with deep
      // liquidity a swap moves √price by less than a double's precision, and L · (p′ − p) would be noise.
      const d0 = (liquidity * Math.abs(edge - p)) / (edge * p)
      const d1 = liquidity * Math.abs(edge - p)
      const [gives, takes] = zeroForOne ? [d0, d1] : [d1, d0] // input needed, output available
      const cap = exactIn ? gives : takes
      if (remaining <= cap) {
        // The other side for `remaining` within the range: token0 ↔ token1 at the prices before and after.
        const next = exactIn
          ? zeroForOne
            ? 1 / (1 / p + remaining / liquidity)
            : p + remaining / liquidity
          : zeroForOne
            ? p - remaining / liquidity
            : 1 / (1 / p - remaining / liquidity)
        const token0Side = zeroForOne === exactIn // remaining is token0: the other side is token1
        result += token0Side ? remaining * p * next : remaining / (p * next)
        return { amount: exactIn ? result : result / keep, ticksCrossed: crossed }
      }
      remaining -= cap
      result += exactIn ? takes : gives
    }
    // Cross into the next range, or stop at the end of the price range.
    if (zeroForOne ? i < 0 : i + 1 >= r.sqrt.length) return null
    p = edge
    crossed++
    if (zeroForOne) i--
    else i++
    liquidity = i >= 0 ? r.liquidity[i]! : 0
  }
}
