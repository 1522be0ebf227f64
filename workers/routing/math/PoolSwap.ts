/**
 * The swap loop of UniswapV3Pool.swap, over the pool state the indexer gives us (initialized ticks with liquidityNet,
 * sorted by index). It steps exactly where the contract steps — to the next initialized tick *within one bitmap word*
 * (256 tick spacings), because every step boundary changes the rounding — so amounts equal the chain's to the wei.
 * One deliberate shortcut: while in-range liquidity is zero no amount changes hands, so the loop jumps straight to
 * the next initialized tick instead of walking empty words; amounts and the state after a filled swap are unchanged.
 * Swaps without a price limit first jump over the steps that complete (SwapSegments), then finish with this loop.
 */
import { computeSwapStep, newSwapStep } from "./SwapMath.ts"
import { jumpSegments } from "./SwapSegments.ts"
import { getSqrtRatioAtTick, getTickAtSqrtRatio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from "./TickMath.ts"

/** What the loop needs of a pool (a PoolState satisfies it). */
export interface SwapPool {
  readonly fee: number
  readonly tickSpacing: number
  readonly sqrtPriceX96: bigint
  readonly tick: number
  readonly liquidity: bigint
  readonly ticks: ReadonlyArray<{ readonly index: number; readonly liquidityNet: bigint }>
}

export interface SwapResult {
  /** Input paid by the swapper, fee included. */
  readonly amountIn: bigint
  readonly amountOut: bigint
  /** Whether the specified amount was used up entirely; false when the price limit or the liquidity ran out first. */
  readonly filled: boolean
  /** State after the swap (exact when filled; when not filled the price is at the limit). */
  readonly sqrtPriceX96: bigint
  readonly tick: number
  readonly liquidity: bigint
  /** Initialized ticks crossed (drives the gas estimate). */
  readonly ticksCrossed: number
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
export const runLoop = (pool: SwapPool, zeroForOne: boolean, exactIn: boolean, limit: bigint, state: SwapState, maxSteps = Infinity): void => {
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

/**
 * Runs a swap. `amountSpecified > 0`: exact input of the input token; `< 0`: exact output of the output token.
 * Without a limit it uses the pool's extreme prices (MIN_SQRT_RATIO + 1 / MAX_SQRT_RATIO − 1), as QuoterV2 does.
 */
export const swap = (pool: SwapPool, zeroForOne: boolean, amountSpecified: bigint, sqrtPriceLimitX96?: bigint): SwapResult => {
  const exactIn = amountSpecified > 0n
  const state: SwapState = {
    remaining: amountSpecified,
    calculated: 0n,
    sqrtPrice: pool.sqrtPriceX96,
    tick: pool.tick,
    liquidity: pool.liquidity,
    ticksCrossed: 0
  }
  if (sqrtPriceLimitX96 === undefined && amountSpecified !== 0n) jumpSegments(pool, zeroForOne, exactIn, state)
  runLoop(pool, zeroForOne, exactIn, sqrtPriceLimitX96 ?? defaultLimit(zeroForOne), state)
  const { remaining, calculated } = state
  return new Swapped(
    exactIn ? amountSpecified - remaining : calculated,
    exactIn ? -calculated : remaining - amountSpecified,
    remaining === 0n,
    state
  )
}

/** A SwapResult whose tick is computed on first read (the router never reads it; tests and callers may). */
class Swapped implements SwapResult {
  readonly amountIn: bigint
  readonly amountOut: bigint
  readonly filled: boolean
  readonly sqrtPriceX96: bigint
  readonly liquidity: bigint
  readonly ticksCrossed: number
  readonly #state: SwapState
  constructor(amountIn: bigint, amountOut: bigint, filled: boolean, state: SwapState) {
    this.amountIn = amountIn
    this.amountOut = amountOut
    this.filled = filled
    this.sqrtPriceX96 = state.sqrtPrice
    this.liquidity = state.liquidity
    this.ticksCrossed = state.ticksCrossed
    this.#state = state
  }
  get tick(): number {
    return tickOf(this.#state)
  }
}
