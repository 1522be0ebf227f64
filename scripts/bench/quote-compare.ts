/**
 * The output comparison of `npm run bench:quotes`: per request routed by both, our output (exactIn) or input
 * (exactOut) against AlphaRouter's; and for each request where ours is worse, why. AlphaRouter's legs are rebuilt as
 * routes over our pool objects and simulated with our engine (its in-memory quoter runs v3-sdk on the same state, so
 * the amounts must agree to the wei), then priced with our gas model, and the case is put in one class:
 *  - short: its legs' amounts do not add up to the request's (the SOR floors each share, so an exactOut split may
 *    deliver a wei less than asked and pay less for it), and our quote for the amount its legs do cover is not
 *    worse than its quote;
 *  - gas: AlphaRouter's legs pay out more, but less than ours once our gas model (fitted to SwapRouter02 receipts,
 *    workers/routing/Gas.ts) is charged: the routers weigh gas differently, ours chose on purpose;
 *  - candidates: one of its legs is not among our candidate routes (Routes.ts) for the pair;
 *  - legs: every leg is a candidate, but it uses more legs than our maxSplits, or two legs that share a pool (ours
 *    never do: the second leg's quote would be off, see Split.ts);
 *  - search: none of these: our split search (estimates, bounded table) missed a better combination.
 * Both routers see the same gas price (BENCH_GAS_GWEI).
 */
import { GAS, routeGas, totalGas } from "../../workers/routing/Gas.ts"
import { PoolGraph } from "../../workers/routing/Graph.ts"
import { makeRouter } from "../../workers/routing/index.ts"
import { applyRate, nativeRate } from "../../workers/routing/Price.ts"
import { candidateRoutes, type Route } from "../../workers/routing/Routes.ts"
import { simulateExactIn, simulateExactOut } from "../../workers/routing/Simulate.ts"
import type { Address, PoolSnapshot, QuoteRequest, RoutingConfig } from "../../workers/routing/types.ts"
import type { AlphaResult } from "./alpharouter.ts"
import type { TimedOutcome } from "./quote-engine.ts"

export interface CompareSet {
  readonly name: string
  readonly snapshot: PoolSnapshot
  readonly config: RoutingConfig
  readonly requests: ReadonlyArray<QuoteRequest>
}

type Class = "short" | "gas" | "candidates" | "legs" | "search" | "unreproduced"

/** exactIn: output (higher is better); exactOut: input (lower is better). */
const figureOf = (o: TimedOutcome["outcome"], type: string) =>
  o._tag === "Found" ? (type === "exactIn" ? o.quote.amountOut : o.quote.amountIn) : null

export const compareWithAlpha = (
  set: CompareSet,
  ours: ReadonlyArray<TimedOutcome>,
  alpha: ReadonlyArray<AlphaResult>,
  log: (line: string) => void
) => {
  const graph = new PoolGraph(set.snapshot, set.config)
  const router = makeRouter(set.snapshot, set.config)
  const poolByAddress = new Map(set.snapshot.pools.map((p) => [p.address, p]))
  const symbol = new Map(set.snapshot.tokens.map((t) => [t.address, t.symbol ?? t.address.slice(0, 8)]))
  const show = (path: ReadonlyArray<Address>) => path.map((t) => symbol.get(t) ?? t.slice(0, 8)).join(">")
  let both = 0,
    worse = 0,
    better = 0,
    equal = 0,
    oursOnly = 0,
    alphaOnly = 0
  const classes: Record<Class, number> = { short: 0, gas: 0, candidates: 0, legs: 0, search: 0, unreproduced: 0 }
  const worst: Array<{ bps: number; line: string }> = []

  alpha.forEach((a, i) => {
    const request = set.requests[i]!
    const { type } = request
    const o = ours[i]!.outcome
    const mine = figureOf(o, type)
    if (mine === null || !a.ok) {
      if (mine !== null) oursOnly++
      if (a.ok) alphaOnly++
      return
    }
    both++
    const diff = type === "exactIn" ? mine - a.quote : a.quote - mine // > 0: ours better
    if (diff === 0n) return void equal++
    if (diff > 0n) return void better++
    worse++
    const bps = Number((-diff * 1_000_000n) / (a.quote === 0n ? 1n : a.quote)) / 100

    // Their legs as our routes, simulated by our engine and charged our gas.
    const legs = a.routes.map((leg) => {
      const found = leg.pools.map((p) => poolByAddress.get(p))
      const pools = found.filter((p) => p !== undefined)
      const route: Route = { path: leg.path, pools, zeroForOne: pools.map((p, h) => p.token0 === leg.path[h]) }
      const sim =
        pools.length < found.length
          ? null
          : type === "exactIn"
            ? simulateExactIn(route, BigInt(leg.amount))
            : simulateExactOut(route, BigInt(leg.amount))
      return { leg, route, sim }
    })
    let cls: Class
    let detail = ""
    const covered = a.routes.reduce((sum, leg) => sum + BigInt(leg.amount), 0n)
    const oursForCovered =
      covered === request.amount ? null : figureOf(router.quote({ ...request, amount: covered }), type)
    if (oursForCovered !== null && (type === "exactIn" ? oursForCovered >= a.quote : oursForCovered <= a.quote)) {
      cls = "short"
      detail =
        `; its legs' ${type === "exactIn" ? "inputs" : "outputs"} add up to ${covered}, not the ${request.amount} asked; ` +
        `ours for ${covered}: ${oursForCovered}`
    } else if (
      legs.some(
        ({ leg, sim }) => sim === null || (type === "exactIn" ? sim.amountOut : sim.amountIn) !== BigInt(leg.quote)
      )
    ) {
      cls = "unreproduced"
    } else {
      const rate = nativeRate(graph, set.config, type === "exactIn" ? request.tokenOut : request.tokenIn)
      const gas = totalGas(legs.map(({ route, sim }) => routeGas(route.pools.length, sim!.ticksCrossed)))
      const cost = rate === null ? 0n : applyRate(gas * request.gasPriceWei, rate)
      const theirsAdjusted = type === "exactIn" ? a.quote - cost : a.quote + cost
      const oursAdjusted = o._tag === "Found" ? o.quote.quoteGasAdjusted : 0n
      const oursWins = type === "exactIn" ? oursAdjusted >= theirsAdjusted : oursAdjusted <= theirsAdjusted
      const candidates = candidateRoutes(graph, set.config, request.tokenIn, request.tokenOut)
      const isCandidate = (r: Route) =>
        candidates.some(
          (c) => c.pools.length === r.pools.length && c.pools.every((p, h) => p.address === r.pools[h]!.address)
        )
      const pools = legs.flatMap(({ route }) => route.pools.map((p) => p.address))
      detail =
        `; with our gas model (${GAS.base} base + per leg/hop/tick) theirs ${theirsAdjusted} after ${gas} gas, ours ${oursAdjusted}` +
        (o._tag === "Found" ? ` after ${o.quote.gasEstimate} gas` : "")
      if (oursWins) cls = "gas"
      else if (!legs.every(({ route }) => isCandidate(route))) cls = "candidates"
      else if (legs.length > set.config.maxSplits || new Set(pools).size < pools.length) cls = "legs"
      else cls = "search"
    }
    classes[cls]++
    const mineRoutes =
      o._tag === "Found" ? o.quote.routes.map((x) => `${x.percent}% ${show(x.path)}`).join(", ") : o._tag
    const theirRoutes = a.routes.map((x) => `${x.percent}% ${show(x.path)}`).join(", ")
    worst.push({
      bps,
      line:
        `worse by ${bps.toFixed(2)} bps [${cls}]: ${type} ${request.amount} ${show([request.tokenIn, request.tokenOut])}; ` +
        `ours [${mineRoutes}] ${mine}; AlphaRouter [${theirRoutes}] ${a.quote}${detail}`
    })
  })
  const worstBps = Math.max(0, ...worst.map((w) => w.bps))
  log(
    `${set.name}: output vs AlphaRouter on ${both} requests both routed: ours better ${better}, equal ${equal}, ours < theirs ${worse} (worst ${worstBps.toFixed(2)} bps; ${classes.short} of them AlphaRouter short of the amount), ` +
      `only ours ${oursOnly}, only AlphaRouter ${alphaOnly}`
  )
  if (worse > 0)
    log(
      `  ours < theirs by cause: ${Object.entries(classes)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ")}`
    )
  for (const { line } of worst.sort((x, y) => y.bps - x.bps).slice(0, Number(process.env.BENCH_SHOW_WORSE ?? 5)))
    log(`  ${line}`)
  return { both, worse, better, equal, classes }
}
