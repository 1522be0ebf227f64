/**
 * Memoised swap steps per pool and direction. Every swap of a pool (in one direction, without a price limit) starts
 * from the same state, and each step that reaches its target — the next initialized tick or word edge — moves the
 * same amounts whatever the amount specified: amountIn is rounded up and amountOut down towards the target, and the
 * fee is mulDivRoundingUp(amountIn, fee, 1e6 − fee). An exact-input step reaches its target iff the remaining input
 * is ≥ amountIn + fee (that is what `amountRemainingLessFee ≥ amountIn` means in integers); an exact-output step iff
 * the remaining output is ≥ amountOut. So prefix sums of those per-step amounts tell, by binary search, how many
 * steps any swap completes; the swap jumps there and the ordinary loop does the last, partial step. The results are
 * identical to stepping one by one (the property test runs both paths), but a swap across thousands of words costs
 * a binary search instead of thousands of bigint steps. Pool states are immutable (a delta brings a new object), so
 * the memo is a WeakMap keyed by the state and built lazily, only as far as swaps have reached.
 */
import { defaultLimit, runLoop, type SwapPool, type SwapState, tickOf } from "./SwapLoop.ts"

interface Segments {
  /** After step k: Σ(amountIn + fee), Σ amountOut, and the loop state. */
  readonly cumIn: Array<bigint>
  readonly cumOut: Array<bigint>
  readonly sqrtPrice: Array<bigint>
  readonly tick: Array<number>
  readonly liquidity: Array<bigint>
  readonly crossed: Array<number>
  /** State after the last recorded step, run with an input too large to ever run out. */
  readonly cursor: SwapState
  /** The last step reached the price limit: there is nothing further. */
  end: boolean
}

const UNBOUNDED = 1n << 250n
const memo = new WeakMap<SwapPool, [Segments | undefined, Segments | undefined]>()

const segmentsOf = (pool: SwapPool, zeroForOne: boolean): Segments => {
  let entry = memo.get(pool)
  if (entry === undefined) memo.set(pool, (entry = [undefined, undefined]))
  const side = zeroForOne ? 0 : 1
  let segments = entry[side]
  if (segments === undefined) {
    const cursor = {
      remaining: UNBOUNDED,
      calculated: 0n,
      sqrtPrice: pool.sqrtPriceX96,
      tick: pool.tick,
      liquidity: pool.liquidity,
      ticksCrossed: 0
    }
    segments = { cumIn: [], cumOut: [], sqrtPrice: [], tick: [], liquidity: [], crossed: [], cursor, end: false }
    entry[side] = segments
  }
  return segments
}

/** Records steps until the cumulative amount reaches `amount` or the limit price is reached. */
const extend = (pool: SwapPool, zeroForOne: boolean, s: Segments, exactIn: boolean, amount: bigint): void => {
  const limit = defaultLimit(zeroForOne)
  const cum = exactIn ? s.cumIn : s.cumOut
  while (!s.end && (cum.length === 0 || cum[cum.length - 1]! < amount)) {
    const c = s.cursor
    runLoop(pool, zeroForOne, true, limit, c, 1)
    s.cumIn.push(UNBOUNDED - c.remaining)
    s.cumOut.push(-c.calculated)
    s.sqrtPrice.push(c.sqrtPrice)
    s.tick.push(tickOf(c))
    s.liquidity.push(c.liquidity)
    s.crossed.push(c.ticksCrossed)
    if (c.sqrtPrice === limit) s.end = true
  }
}

/** Advances `state` (fresh from the pool, amount ≠ 0) over every step the swap completes. */
export const jumpSegments = (pool: SwapPool, zeroForOne: boolean, exactIn: boolean, state: SwapState): void => {
  const amount = exactIn ? state.remaining : -state.remaining
  const s = segmentsOf(pool, zeroForOne)
  extend(pool, zeroForOne, s, exactIn, amount)
  const cum = exactIn ? s.cumIn : s.cumOut
  // First step whose cumulative amount reaches the swap's amount: it completes only if it matches exactly.
  let lo = 0
  let hi = cum.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (cum[mid]! >= amount) hi = mid
    else lo = mid + 1
  }
  const k = lo < cum.length && cum[lo] === amount ? lo : lo - 1
  if (k < 0) return
  state.remaining = exactIn ? amount - s.cumIn[k]! : s.cumOut[k]! - amount
  state.calculated = exactIn ? -s.cumOut[k]! : s.cumIn[k]!
  state.sqrtPrice = s.sqrtPrice[k]!
  state.tick = s.tick[k]!
  state.liquidity = s.liquidity[k]!
  state.ticksCrossed = s.crossed[k]!
}
