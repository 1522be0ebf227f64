/**
 * Uniswap v3's FullMath and SqrtPriceMath over native bigints. The contracts compute in 256-bit words with
 * phantom-overflow-free mulDiv; with arbitrary-precision bigints `a * b / d` is the same number, so only the rounding
 * and the places where the contracts deliberately wrap (the `amount * sqrtP` overflow check) need care.
 * Inputs outside the contracts' domain (which would revert on chain) are not validated here: the swap loop never
 * produces them for states that exist on chain.
 */

export const Q96 = 1n << 96n
export const MAX_UINT160 = (1n << 160n) - 1n
export const MAX_UINT256 = (1n << 256n) - 1n

export const mulDiv = (a: bigint, b: bigint, denominator: bigint): bigint => (a * b) / denominator

/** Operands are never negative here, so ceil(x / d) = (x + d − 1) / d (one division: V8's bigint % is slow). */
export const mulDivRoundingUp = (a: bigint, b: bigint, denominator: bigint): bigint =>
  (a * b + denominator - 1n) / denominator

/** UnsafeMath.divRoundingUp (x ≥ 0, d > 0). */
export const divRoundingUp = (x: bigint, d: bigint): bigint => (x + d - 1n) / d

/** Amount of token0 between two prices: L·2^96·(b − a) / (a·b), rounded as the pool rounds (up when it receives). */
export const getAmount0Delta = (sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint => {
  if (sqrtA > sqrtB) [sqrtA, sqrtB] = [sqrtB, sqrtA]
  const numerator1 = liquidity << 96n
  const numerator2 = sqrtB - sqrtA
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, sqrtB), sqrtA)
    : (numerator1 * numerator2) / sqrtB / sqrtA
}

/** Amount of token1 between two prices: L·(b − a) / 2^96. */
export const getAmount1Delta = (sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint => {
  const diff = sqrtA > sqrtB ? sqrtA - sqrtB : sqrtB - sqrtA
  return roundUp ? mulDivRoundingUp(liquidity, diff, Q96) : (liquidity * diff) >> 96n
}

/**
 * Next price after adding (or removing) `amount` of token0, rounded up so the pool never gives away too much.
 * The contract first tries `L·2^96·√P / (L·2^96 + amount·√P)` and falls back to the other form when
 * `amount·√P` overflows 256 bits — the two forms round differently, so the overflow test is reproduced.
 */
const nextSqrtPriceFromAmount0RoundingUp = (sqrtP: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint => {
  if (amount === 0n) return sqrtP
  const numerator1 = liquidity << 96n
  const product = amount * sqrtP
  if (add) {
    if (product <= MAX_UINT256) {
      const denominator = numerator1 + product
      if (denominator <= MAX_UINT256) return mulDivRoundingUp(numerator1, sqrtP, denominator)
    }
    return divRoundingUp(numerator1, numerator1 / sqrtP + amount)
  }
  // Removing token0: the contract requires no overflow and numerator1 > product (callers guarantee it).
  return mulDivRoundingUp(numerator1, sqrtP, numerator1 - product)
}

/** Next price after adding (or removing) `amount` of token1, rounded down. */
const nextSqrtPriceFromAmount1RoundingDown = (
  sqrtP: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean
): bigint => {
  if (add) {
    // Both branches of the contract (shift when amount fits 160 bits, mulDiv otherwise) equal floor(amount·2^96 / L).
    return sqrtP + (amount << 96n) / liquidity
  }
  return sqrtP - mulDivRoundingUp(amount, Q96, liquidity)
}

export const getNextSqrtPriceFromInput = (sqrtP: bigint, liquidity: bigint, amountIn: bigint, zeroForOne: boolean) =>
  zeroForOne
    ? nextSqrtPriceFromAmount0RoundingUp(sqrtP, liquidity, amountIn, true)
    : nextSqrtPriceFromAmount1RoundingDown(sqrtP, liquidity, amountIn, true)

export const getNextSqrtPriceFromOutput = (sqrtP: bigint, liquidity: bigint, amountOut: bigint, zeroForOne: boolean) =>
  zeroForOne
    ? nextSqrtPriceFromAmount1RoundingDown(sqrtP, liquidity, amountOut, false)
    : nextSqrtPriceFromAmount0RoundingUp(sqrtP, liquidity, amountOut, false)
