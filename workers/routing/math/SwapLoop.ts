/**
 * The swap loop of UniswapV3Pool.swap, over the pool state the indexer gives us (initialized ticks with liquidityNet,
 * sorted by index). It steps exactly where the contract steps — to the next initialized tick *within one bitmap word*
 * (256 tick spacings), because every step boundary changes the rounding — so amounts equal the chain's to the wei.
 * One deliberate shortcut: while in-range liquidity is zero no amount changes hands, so the loop jumps straight to
 * the next initialized tick instead of walking empty words; amounts and the state after a filled swap are unchanged.
 * A swap (PoolSwap.ts) runs it, after jumping over the steps that complete (SwapSegments.ts, which records it).
 */
import { computeSwapStep, newSwapStep } from "./SwapMath.ts"
import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK
} from "./TickMath.ts"

/** What the loop needs of a pool (a PoolState satisfies it). */
export interface SwapPool {
  readonly fee: number
  readonly tickSpacing: number
  readonly sqrtPriceX96: bigint
  readonly tick: number
  readonly liquidity: bigint
  readonly ticks: ReadonlyArray<{ readonly index: number; readonly liquidityNet: bigint }>
}

/** The loop's running state; `remaining` is signed like amountSpecified. */
export interface SwapState {
  remaining: bigint
  calculated: bigint
  sqrtPrice: bigint
  tick: number
  liquidity: bigint
  ticksCrossed: number
  /**
   * Set when the last step stopped inside a tick range and the loop is over: the tick is then only needed by whoever
   * reads the result, so getTickAtSqrtRatio (the costliest part of a one-step swap) is left to `tickOf`.
   */
  tickStale?: boolean
}

/** The state's tick, computing it if the loop left it stale. */
export const tickOf = (state: SwapState): number => {
  if (state.tickStale) {
    state.tick = getTickAtSqrtRatio(state.sqrtPrice)
    state.tickStale = false
  }
  return state.tick
}

/** Index of the last initialized tick ≤ tick, or −1. */
const lastAtOrBelow = (ticks: SwapPool["ticks"], tick: number): number => {
  let lo = 0
  let hi = ticks.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (ticks[mid]!.index <= tick) {
      found = mid
      lo = mid + 1
    } else {
      hi = mid - 1
    }
  }
  return found
}

/**
 * TickBitmap.nextInitializedTickWithinOneWord over a sorted list: the next initialized tick in the direction of the
 * swap, or the edge of the current 256-spacing word when none is in it. `skipWords` drops the word bound (used while
 * liquidity is zero). Returns the tick (clamped to MIN/MAX_TICK) and the index of the initialized tick, or −1.
 */
const nextTick = (pool: SwapPool, tick: number, lte: boolean, skipWords: boolean): [number, number] => {
  const { ticks, tickSpacing } = pool
  const compressed = Math.floor(tick / tickSpacing)
  const below = lastAtOrBelow(ticks, tick)
  if (lte) {
    const bound = skipWords ? MIN_TICK : Math.max(MIN_TICK, ((compressed >> 8) << 8) * tickSpacing)
    if (below >= 0 && ticks[below]!.index >= bound) return [ticks[below]!.index, below]
    return [bound, -1]
  }
  const bound = skipWords ? MAX_TICK : Math.min(MAX_TICK, ((((compressed + 1) >> 8) + 1) * 256 - 1) * tickSpacing)
  const above = below + 1
  if (above < ticks.length && ticks[above]!.index <= bound) return [ticks[above]!.index, above]
  return [bound, -1]
}

export const defaultLimit = (zeroForOne: boolean) => (zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n)

const step = newSwapStep()

/**
 * Runs loop iterations from `state` (mutated) until the amount is used up or the price reaches `limit`, or, with
 * `maxSteps`, after that many iterations (SwapSegments records the loop one step at a time this way).
 */
export const runLoop = (
  pool: SwapPool,
  zeroForOne: boolean,
  exactIn: boolean,
  limit: bigint,
  state: SwapState,
  maxSteps = Infinity
): void => {
  const fee = BigInt(pool.fee)
  for (let n = 0; n < maxSteps && state.remaining !== 0n && state.sqrtPrice !== limit; n++) {
    const start = state.sqrtPrice
    tickOf(state)
    const [tickNext, tickIndex] = nextTick(pool, state.tick, zeroForOne, state.liquidity === 0n)
    const sqrtNext = getSqrtRatioAtTick(tickNext)
    const target = (zeroForOne ? sqrtNext < limit : sqrtNext > limit) ? limit : sqrtNext
    computeSwapStep(step, start, target, state.liquidity, state.remaining, fee)
    state.sqrtPrice = step.sqrtRatioNextX96
    if (exactIn) {
      state.remaining -= step.amountIn + step.feeAmount
      state.calculated -= step.amountOut
    } else {
      state.remaining += step.amountOut
      state.calculated += step.amountIn + step.feeAmount
    }
    if (state.sqrtPrice === sqrtNext) {
      if (tickIndex >= 0) {
        // Crossing leftwards takes the range's liquidity away: liquidityNet with the opposite sign.
        const net = pool.ticks[tickIndex]!.liquidityNet
        state.liquidity = zeroForOne ? state.liquidity - net : state.liquidity + net
        state.ticksCrossed++
      }
      state.tick = zeroForOne ? tickNext - 1 : tickNext
    } else if (state.sqrtPrice !== start) {
      if (state.remaining === 0n || state.sqrtPrice === limit) state.tickStale = true
      else state.tick = getTickAtSqrtRatio(state.sqrtPrice)
    }
  }
}
