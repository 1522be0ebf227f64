/**
 * One quote: candidate routes → split search on estimates → exact simulation of the chosen legs and of the best
 * single route (the better exact result wins) → totals, gas and price impact. Shares are rounded down
 * (amount · level / levels); the few wei they leave go to the largest leg, so every reported amount is an exact
 * simulation of what the transaction will carry. If the estimates picked something that does not fill exactly (a
 * share within rounding of a pool's capacity), every route is simulated exactly at 100 % instead.
 */
import { routeGas, totalGas } from "./Gas.ts"
import type { PoolGraph } from "./Graph.ts"
import { applyRate, nativeRate, priceImpactPpm, type Rate, routeRate } from "./Price.ts"
import { candidateRoutes, type Route } from "./Routes.ts"
import { type RouteSimulation, simulateExactIn, simulateExactOut } from "./Simulate.ts"
import { findSplit, type PlannedLeg } from "./Split.ts"
import type { HopResult, QuoteRequest, QuoteResult, RouteResult, RoutingConfig, RoutingOutcome } from "./types.ts"

interface Leg {
  readonly route: Route
  readonly level: number
  readonly sim: RouteSimulation
  readonly gas: bigint
}

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

/** Exact legs for planned shares (largest first, taking the rounding remainder); null if one does not fill. */
const realize = (planned: ReadonlyArray<PlannedLeg>, levels: number, request: QuoteRequest): Array<Leg> | null => {
  const sorted = [...planned].sort((a, b) => b.level - a.level)
  const shares = sorted.map((leg) => (request.amount * BigInt(leg.level)) / BigInt(levels))
  shares[0] = shares[0]! + request.amount - shares.reduce((sum, s) => sum + s, 0n)
  const legs: Array<Leg> = []
  for (let i = 0; i < sorted.length; i++) {
    const { route, level } = sorted[i]!
    const sim = request.type === "exactIn" ? simulateExactIn(route, shares[i]!) : simulateExactOut(route, shares[i]!)
    if (sim === null) return null
    legs.push({ route, level, sim, gas: routeGas(route.pools.length, sim.ticksCrossed) })
  }
  return legs
}

/** Gas-adjusted value of exact legs: higher is better (exactIn output − gas, exactOut −(input + gas)). */
const valueOf = (legs: ReadonlyArray<Leg>, request: QuoteRequest, rate: Rate | null): bigint => {
  const gas = rate === null ? 0n : applyRate(totalGas(legs.map((l) => l.gas)) * request.gasPriceWei, rate)
  return request.type === "exactIn"
    ? legs.reduce((s, l) => s + l.sim.amountOut, 0n) - gas
    : -(legs.reduce((s, l) => s + l.sim.amountIn, 0n) + gas)
}

/** The gas cost in the quote token (tokenOut for exactIn, tokenIn for exactOut) and the quote adjusted by it. */
const gasInQuoteToken = (
  type: QuoteRequest["type"],
  amountIn: bigint,
  amountOut: bigint,
  costWei: bigint,
  rate: Rate | null
): Pick<QuoteResult, "gasCostInQuoteToken" | "quoteGasAdjusted"> => {
  const cost = rate === null ? null : applyRate(costWei, rate)
  return {
    gasCostInQuoteToken: cost,
    quoteGasAdjusted: type === "exactIn" ? amountOut - (cost ?? 0n) : amountIn + (cost ?? 0n)
  }
}

/**
 * The quote with `extraWei` more gas cost counted (an OP-stack chain's L1 data fee, known once the calldata is):
 * converted together with the execution cost at the quote's own rate, so both are one rounding, as if routed with it.
 */
export const addGasCost = (result: QuoteResult, extraWei: bigint): QuoteResult => ({
  ...result,
  ...gasInQuoteToken(result.type, result.amountIn, result.amountOut, result.gasCostWei + extraWei, result.gasRate)
})

export const quote = (graph: PoolGraph, config: RoutingConfig, request: QuoteRequest): RoutingOutcome => {
  const { tokenIn, tokenOut, type } = request
  if (!graph.hasUsablePool(tokenIn) || !graph.hasUsablePool(tokenOut)) return { _tag: "NoPoolsAvailable" }
  const routes = candidateRoutes(graph, config, tokenIn, tokenOut)
  if (routes.length === 0) return { _tag: "NoRoute" }
  if (request.amount <= 0n) return { _tag: "InsufficientLiquidity" }

  const exactIn = type === "exactIn"
  const rate = nativeRate(graph, config, exactIn ? tokenOut : tokenIn)
  const plan = findSplit({
    routes,
    type,
    amount: request.amount,
    maxSplits: request.maxSplits ?? config.maxSplits,
    stepPercent: config.splitStepPercent,
    gasCostPerGas: rate === null ? 0 : (Number(request.gasPriceWei) * Number(rate.num)) / Number(rate.den)
  })
  const candidates: Array<Array<Leg>> = []
  const split = plan.best === null ? null : realize(plan.best, plan.levels, request)
  if (split !== null) candidates.push(split)
  const single =
    plan.single === null || (plan.best?.length === 1 && plan.best[0]!.route === plan.single)
      ? null
      : realize([{ route: plan.single, level: plan.levels }], plan.levels, request)
  if (single !== null) candidates.push(single)
  if (candidates.length === 0) {
    for (const route of routes) {
      const legs = realize([{ route, level: plan.levels }], plan.levels, request)
      if (legs !== null) candidates.push(legs)
    }
  }
  if (candidates.length === 0) return { _tag: "InsufficientLiquidity" }
  const values = candidates.map((legs) => valueOf(legs, request, rate))
  const legs = candidates[values.reduce((best, v, i) => (v > values[best]! ? i : best), 0)]!

  const amountIn = legs.reduce((sum, leg) => sum + leg.sim.amountIn, 0n)
  const amountOut = legs.reduce((sum, leg) => sum + leg.sim.amountOut, 0n)
  const gasEstimate = totalGas(legs.map((leg) => leg.gas))
  const gasCostWei = gasEstimate * request.gasPriceWei
  const spotOut = legs.reduce((sum, leg) => sum + applyRate(leg.sim.amountIn, routeRate(leg.route)), 0n)
  const routeResults: Array<RouteResult> = legs.map((leg) => ({
    percent: (leg.level * 100) / plan.levels,
    path: leg.route.path,
    hops: hopsOf(leg),
    amountIn: leg.sim.amountIn,
    amountOut: leg.sim.amountOut,
    gasEstimate: leg.gas
  }))
  return {
    _tag: "Found",
    quote: {
      type,
      routes: routeResults,
      amountIn,
      amountOut,
      gasEstimate,
      gasCostWei,
      gasRate: rate,
      ...gasInQuoteToken(type, amountIn, amountOut, gasCostWei, rate),
      priceImpactPpm: priceImpactPpm(spotOut, amountOut),
      blockNumber: graph.blockNumber
    }
  }
}
