/**
 * One quote: candidate routes → split search → the chosen legs with exact amounts → totals, gas and price impact.
 * The split search quotes shares rounded down (amount · level / levels); the legs' shares can then fall short of the
 * amount by a few wei, so that remainder goes to the largest leg, which is simulated again: every reported amount
 * is an exact simulation of the amount the transaction will carry.
 */
import { routeGas, totalGas } from "./Gas.ts"
import type { PoolGraph } from "./Graph.ts"
import { applyRate, nativeRate, priceImpactPpm, routeRate } from "./Price.ts"
import { candidateRoutes } from "./Routes.ts"
import { simulateExactIn, simulateExactOut } from "./Simulate.ts"
import { findSplit, type Leg } from "./Split.ts"
import type { HopResult, QuoteRequest, RouteResult, RoutingConfig, RoutingOutcome } from "./types.ts"

const hopsOf = (leg: Leg): Array<HopResult> =>
  leg.route.pools.map((pool, i) => {
    const hop = leg.sim.hops[i]!
    return {
      pool: pool.address,
      tokenIn: leg.route.path[i]!,
      tokenOut: leg.route.path[i + 1]!,
      fee: pool.fee,
      sqrtPriceX96Before: pool.sqrtPriceX96,
      sqrtPriceX96After: hop.sqrtPriceX96,
      liquidity: pool.liquidity,
      tickBefore: pool.tick,
      ticksCrossed: hop.ticksCrossed,
      amountIn: hop.amountIn,
      amountOut: hop.amountOut
    }
  })

/** Gives the rounding remainder to one leg (largest first) and re-simulates it; null if no leg can take it. */
const settle = (legs: ReadonlyArray<Leg>, request: QuoteRequest): ReadonlyArray<Leg> | null => {
  const exactIn = request.type === "exactIn"
  const carried = legs.reduce((sum, leg) => sum + (exactIn ? leg.sim.amountIn : leg.sim.amountOut), 0n)
  const remainder = request.amount - carried
  if (remainder === 0n) return legs
  for (let i = 0; i < legs.length; i++) {
    const leg = legs[i]!
    const sim = exactIn
      ? simulateExactIn(leg.route, leg.sim.amountIn + remainder)
      : simulateExactOut(leg.route, leg.sim.amountOut + remainder)
    if (sim !== null) return legs.map((l, j) => (j === i ? { ...l, sim, gas: routeGas(l.route.pools.length, sim.ticksCrossed) } : l))
  }
  return null
}

export const quote = (graph: PoolGraph, config: RoutingConfig, request: QuoteRequest): RoutingOutcome => {
  const { tokenIn, tokenOut, type } = request
  if (!graph.hasUsablePool(tokenIn) || !graph.hasUsablePool(tokenOut)) return { _tag: "NoPoolsAvailable" }
  const routes = candidateRoutes(graph, config, tokenIn, tokenOut)
  if (routes.length === 0) return { _tag: "NoRoute" }
  if (request.amount <= 0n) return { _tag: "InsufficientLiquidity" }

  const exactIn = type === "exactIn"
  const quoteToken = exactIn ? tokenOut : tokenIn
  const rate = nativeRate(graph, config, quoteToken)
  const gasCost = rate === null ? null : (gas: bigint) => applyRate(gas * request.gasPriceWei, rate)
  const plan = findSplit({
    routes,
    type,
    amount: request.amount,
    maxSplits: request.maxSplits ?? config.maxSplits,
    stepPercent: config.splitStepPercent,
    gasCost
  })
  if (plan === null) return { _tag: "InsufficientLiquidity" }
  const legs = settle([...plan.legs].sort((a, b) => b.level - a.level), request)
  if (legs === null) return { _tag: "InsufficientLiquidity" }

  const routeResults: Array<RouteResult> = legs.map((leg) => ({
    percent: (leg.level * 100) / plan.levels,
    path: leg.route.path,
    hops: hopsOf(leg),
    amountIn: leg.sim.amountIn,
    amountOut: leg.sim.amountOut,
    gasEstimate: leg.gas
  }))
  const amountIn = legs.reduce((sum, leg) => sum + leg.sim.amountIn, 0n)
  const amountOut = legs.reduce((sum, leg) => sum + leg.sim.amountOut, 0n)
  const gasEstimate = totalGas(legs.map((leg) => leg.gas))
  const gasCostWei = gasEstimate * request.gasPriceWei
  const gasCostInQuoteToken = rate === null ? null : applyRate(gasCostWei, rate)
  const spotOut = legs.reduce((sum, leg) => sum + applyRate(leg.sim.amountIn, routeRate(leg.route)), 0n)
  return {
    _tag: "Found",
    quote: {
      type,
      routes: routeResults,
      amountIn,
      amountOut,
      gasEstimate,
      gasCostWei,
      gasCostInQuoteToken,
      quoteGasAdjusted: exactIn ? amountOut - (gasCostInQuoteToken ?? 0n) : amountIn + (gasCostInQuoteToken ?? 0n),
      priceImpactPpm: priceImpactPpm(spotOut, amountOut),
      blockNumber: graph.blockNumber
    }
  }
}
