/**
 * Exact simulation of one route, the way the chain executes it. Exact input runs forward (each hop's output is the
 * next hop's input, as SwapRouter02.exactInput and QuoterV2.quoteExactInput do); exact output runs backward from the
 * last hop (the amount a hop must deliver is what the next hop needs as input, as QuoterV2.quoteExactOutput does).
 * A hop that stops at the price limit or runs out of liquidity before filling makes the route infeasible (null): the
 * chain would either revert or swap less than asked. A float capacity check (math/Capacity.ts) rejects amounts
 * that certainly cannot fill before any exact work.
 */
import { exceedsCapacity } from "./math/Capacity.ts"
import { swap, type SwapResult } from "./math/PoolSwap.ts"
import type { Route } from "./Routes.ts"

export interface RouteSimulation {
  readonly amountIn: bigint
  readonly amountOut: bigint
  readonly ticksCrossed: number
  /** Per hop, in path order. */
  readonly hops: ReadonlyArray<SwapResult>
}

export const simulateExactIn = (route: Route, amountIn: bigint): RouteSimulation | null => {
  if (amountIn <= 0n) return null
  const hops: Array<SwapResult> = []
  let amount = amountIn
  let ticksCrossed = 0
  for (let i = 0; i < route.pools.length; i++) {
    // A hop that yields nothing cannot feed the next one (the pool rejects a zero amount).
    if (amount === 0n) return null
    if (exceedsCapacity(route.pools[i]!, route.zeroForOne[i]!, true, amount)) return null
    const result = swap(route.pools[i]!, route.zeroForOne[i]!, amount)
    if (!result.filled) return null
    hops.push(result)
    ticksCrossed += result.ticksCrossed
    amount = result.amountOut
  }
  return { amountIn, amountOut: amount, ticksCrossed, hops }
}

export const simulateExactOut = (route: Route, amountOut: bigint): RouteSimulation | null => {
  if (amountOut <= 0n) return null
  const hops: Array<SwapResult> = new Array(route.pools.length)
  let amount = amountOut
  let ticksCrossed = 0
  for (let i = route.pools.length - 1; i >= 0; i--) {
    if (exceedsCapacity(route.pools[i]!, route.zeroForOne[i]!, false, amount)) return null
    const result = swap(route.pools[i]!, route.zeroForOne[i]!, -amount)
    if (!result.filled) return null
    hops[i] = result
    ticksCrossed += result.ticksCrossed
    amount = result.amountIn
  }
  return { amountIn: amount, amountOut, ticksCrossed, hops }
}
