/**
 * Uniswap v3's SwapMath.computeSwapStep: one step of a swap inside a single liquidity range, towards a target price.
 * `amountRemaining > 0` is exact input (fee taken from it), `< 0` exact output. The result goes into a caller-owned
 * record instead of a fresh tuple: the swap loop runs this millions of times per second in the split search.
 */
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
  mulDiv,
  mulDivRoundingUp
} from "./SqrtPriceMath.ts"

export interface SwapStep {
  sqrtRatioNextX96: bigint
  amountIn: bigint
  amountOut: bigint
  feeAmount: bigint
}

export const newSwapStep = (): SwapStep => ({ sqrtRatioNextX96: 0n, amountIn: 0n, amountOut: 0n, feeAmount: 0n })

const ONE_MILLION = 1_000_000n

export const computeSwapStep = (
  out: SwapStep,
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: bigint
): SwapStep => {
  const zeroForOne = sqrtRatioCurrentX96 >= sqrtRatioTargetX96
  const exactIn = amountRemaining >= 0n
  let sqrtRatioNextX96: bigint
  let amountIn = 0n
  let amountOut = 0n

  if (exactIn) {
    const amountRemainingLessFee = mulDiv(amountRemaining, ONE_MILLION - feePips, ONE_MILLION)
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, true)
      : getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, true)
    sqrtRatioNextX96 =
      amountRemainingLessFee >= amountIn
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromInput(sqrtRatioCurrentX96, liquidity, amountRemainingLessFee, zeroForOne)
  } else {
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, false)
    sqrtRatioNextX96 =
      -amountRemaining >= amountOut
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromOutput(sqrtRatioCurrentX96, liquidity, -amountRemaining, zeroForOne)
  }

  // Reaching the target reuses the amount computed towards it; otherwise both sides are recomputed from the new price.
  const max = sqrtRatioTargetX96 === sqrtRatioNextX96
  if (zeroForOne) {
    if (!(max && exactIn)) amountIn = getAmount0Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, true)
    if (!(max && !exactIn)) amountOut = getAmount1Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, false)
  } else {
    if (!(max && exactIn)) amountIn = getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, true)
    if (!(max && !exactIn)) amountOut = getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, false)
  }

  // Exact output never pays out more than was asked for.
  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining

  out.sqrtRatioNextX96 = sqrtRatioNextX96
  out.amountIn = amountIn
  out.amountOut = amountOut
  // Exact input that stops short of the target keeps the whole remainder as fee (the pool's rounding in its favour).
  out.feeAmount =
    exactIn && sqrtRatioNextX96 !== sqrtRatioTargetX96
      ? amountRemaining - amountIn
      : mulDivRoundingUp(amountIn, feePips, ONE_MILLION - feePips)
  return out
}
