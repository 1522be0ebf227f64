/**
 * Uniswap v3's TickMath: √1.0001^tick as a Q64.96 and its inverse. getSqrtRatioAtTick multiplies the Q128 factors
 * √1.0001^(−2^i) for each set bit of |tick| (the published constants of the contract), then inverts for positive
 * ticks and rounds up to Q96 — bit for bit what the contract computes.
 */

export const MIN_TICK = -887272
export const MAX_TICK = 887272
export const MIN_SQRT_RATIO = 4295128739n
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n

const MAX_UINT256 = (1n << 256n) - 1n

/** Factor for bit i of |tick| (bit 0 is the starting value), Q128. */
const FACTORS: ReadonlyArray<bigint> = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n
]

const computeSqrtRatioAtTick = (tick: number): bigint => {
  const absTick = tick < 0 ? -tick : tick
  let ratio = (absTick & 1) !== 0 ? FACTORS[0]! : 1n << 128n
  for (let bit = 1; bit < FACTORS.length; bit++) {
    if ((absTick & (1 << bit)) !== 0) ratio = (ratio * FACTORS[bit]!) >> 128n
  }
  if (tick > 0) ratio = MAX_UINT256 / ratio
  // Q128 → Q96, rounding up so that getTickAtSqrtRatio(getSqrtRatioAtTick(t)) === t.
  return (ratio >> 32n) + ((ratio & 0xffffffffn) === 0n ? 0n : 1n)
}

/**
 * Ticks recur constantly (initialized ticks, word boundaries): memoise them. Cleared when it grows past
 * CACHE_LIMIT entries so a long-lived worker cannot grow it without bound.
 */
const cache = new Map<number, bigint>()
const CACHE_LIMIT = 200_000

export const getSqrtRatioAtTick = (tick: number): bigint => {
  let ratio = cache.get(tick)
  if (ratio === undefined) {
    if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK)
      throw new RangeError(`tick out of range: ${tick}`)
    ratio = computeSqrtRatioAtTick(tick)
    if (cache.size >= CACHE_LIMIT) cache.clear()
    cache.set(tick, ratio)
  }
  return ratio
}

const LOG_SQRT_10001 = Math.log(1.0001) / 2

/**
 * The greatest tick whose ratio is ≤ sqrtPriceX96. The contract gets there with a fixed-point log2; any method that
 * returns that same tick is equivalent, so this one estimates it in floating point (off by at most one tick for
 * every ratio in range) and then settles it exactly against getSqrtRatioAtTick.
 */
export const getTickAtSqrtRatio = (sqrtPriceX96: bigint): number => {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) throw new RangeError("sqrt ratio out of range")
  const estimate = Math.floor(Math.log(Number(sqrtPriceX96) / 2 ** 96) / LOG_SQRT_10001)
  let tick = Math.min(MAX_TICK - 1, Math.max(MIN_TICK, estimate))
  while (tick > MIN_TICK && getSqrtRatioAtTick(tick) > sqrtPriceX96) tick--
  while (tick < MAX_TICK - 1 && getSqrtRatioAtTick(tick + 1) <= sqrtPriceX96) tick++
  return tick
}
