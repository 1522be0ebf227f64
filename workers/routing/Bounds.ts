/**
 * Upper bounds for pruning the search. A v3 swap never pays more than the pool's current price net of its fee (the
 * price only moves against the swapper and the pool rounds in its own favour), so a route's output is at most
 * input × Π(price × (1 − fee)) and its input for an exact output at least output / that rate; its gas is at least
 * the gas of its hops with no tick crossed. Computed in floating point, then widened by a relative 1e-9 (far
 * above double rounding error) so that a bound is never below the exact value.
 */
import type { Route } from "./Routes.ts"

const Q192 = 2 ** 192

/** Output per unit of input at mid prices after fees, along the route. */
export const spotRateAfterFees = (route: Route): number => {
  let rate = 1
  for (let i = 0; i < route.pools.length; i++) {
    const pool = route.pools[i]!
    const price = Number(pool.sqrtPriceX96 * pool.sqrtPriceX96) / Q192
    rate *= (route.zeroForOne[i] ? price : 1 / price) * (1 - pool.fee / 1_000_000)
  }
  return rate
}

/**
 * Largest value (exactIn: output − gas; exactOut: −(input + gas), in quote-token units) a route with this rate and
 * minimum gas cost could reach for `amount` (input for exactIn, output for exactOut).
 */
export const valueBound = (exactIn: boolean, amount: number, rate: number, minGasCost: number): number => {
  const value = exactIn ? amount * rate - minGasCost : -(amount / rate + minGasCost)
  return value + Math.abs(value) * 1e-9 + 1
}
