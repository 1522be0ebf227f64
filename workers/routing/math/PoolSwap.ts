/**
 * A swap over a pool's state, to the wei of UniswapV3Pool.swap: swaps without a price limit first jump over the steps
 * that complete (SwapSegments.ts), then finish with the contract's loop (SwapLoop.ts).
 */
import { jumpSegments } from "./SwapSegments.ts"
import { defaultLimit, runLoop, type SwapPool, type SwapState, tickOf } from "./SwapLoop.ts"

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

/**
 * Runs a swap. `amountSpecified > 0`: exact input of the input token; `< 0`: exact output of the output token.
 * Without a limit it uses the pool's extreme prices (MIN_SQRT_RATIO + 1 / MAX_SQRT_RATIO − 1), as QuoterV2 does.
 */
export const swap = (
  pool: SwapPool,
  zeroForOne: boolean,
  amountSpecified: bigint,
  sqrtPriceLimitX96?: bigint
): SwapResult => {
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
