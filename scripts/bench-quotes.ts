/**
 * `npm run bench:quotes`: the quote engine against its baselines, in one run, on two pool sets:
 *   A. the devnet's pools (a fresh anvil: Uniswap v3, launchpad, stablecoin/WETH, BENCH_LAUNCHES launches);
 *   B. BENCH_POOLS generated pools: the routing core's `generateUniverse` (its own WETH, USDC and DAI, launch-like
 *      tokens paired mostly with WETH) once it has landed; until then scripts/bench/quote-pools.ts, merged with set A.
 * Prints, per set: our in-engine quote latency p50/p99 (workers/routing directly, exactIn and exactOut, splits on);
 * AlphaRouter (bench/alpharouter, own install, in-memory providers) latency and output for the same requests, and the
 * count of requests where our output is worse; on set A, QuoterV2 `eth_call` latency per route and whether the
 * routers' route quotes equal QuoterV2's to the wei. Then `GET /api/v1/quote` throughput of the built app at
 * BENCH_CONNECTIONS (50) connections for BENCH_SECONDS (10) (scripts/bench/quote-http.ts; BENCH_HTTP=0 skips it).
 * Env: BENCH_LAUNCHES (20), BENCH_POOLS (1500), BENCH_REQUESTS (200 per set), BENCH_ALPHA_REQUESTS (100 per set:
 * AlphaRouter takes ~0.5–2 s a quote), BENCH_WARMUP (20), BENCH_GAS_GWEI (1).
 */
import * as NodeOs from "node:os"
import type { Address, PoolSnapshot, QuoteRequest, RoutingOutcome } from "../workers/routing/types.ts"
import { type AlphaResult, type AlphaRun, ensureAlphaInstalled, runAlphaRouter } from "./bench/alpharouter.ts"
import { benchConfig, loadEngine, loadGenerator, summary, type TimedOutcome, timeQuotes } from "./bench/quote-engine.ts"
import { buildDevnetPools } from "./bench/quote-devnet.ts"
import { benchQuoteHttp } from "./bench/quote-http.ts"
import { generatePools, mergeSnapshots } from "./bench/quote-pools.ts"
import { type RouteCall, quoteRoutesOnChain } from "./bench/quote-quoterv2.ts"
import { makeRequests } from "./bench/quote-requests.ts"

const LAUNCHES = Number(process.env.BENCH_LAUNCHES ?? 20)
const POOLS = Number(process.env.BENCH_POOLS ?? 1500)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200)
const ALPHA_REQUESTS = Number(process.env.BENCH_ALPHA_REQUESTS ?? 100)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20)
const GAS_PRICE = BigInt(Math.round(Number(process.env.BENCH_GAS_GWEI ?? 1) * 1e9))
const HTTP = process.env.BENCH_HTTP !== "0"
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)

const log = (line: string) => console.log(`[bench:quotes] ${line}`)
const loadAverage = () => NodeOs.loadavg().map((x) => x.toFixed(2)).join(", ")
const lower = (a: string) => a.toLowerCase() as Address

log(`machine: ${NodeOs.cpus().length} cores, node ${process.version}, load average ${loadAverage()}`)
ensureAlphaInstalled(log)
const makeRouter = await loadEngine()
if (makeRouter === null) log("routing core (workers/routing/index.ts makeRouter) not found: our side is skipped")

const t0 = performance.now()
const dev = await buildDevnetPools(LAUNCHES)
const weth = lower(dev.devnet.uni.weth)
const stable = lower(dev.devnet.stable)
log(`devnet: ${dev.snapshot.pools.length} pools, ${dev.snapshot.tokens.length} tokens at block ${dev.snapshot.blockNumber} (${((performance.now() - t0) / 1000).toFixed(1)} s)`)

interface PoolSet {
  readonly name: string
  readonly snapshot: PoolSnapshot
  readonly weth: Address
  /** The stablecoin: a base token of ours, and the SOR's gas-in-USD token (renamed to chain 1's, see bench/alpharouter). */
  readonly stable: Address
  readonly requests: Array<QuoteRequest>
}
const launches = dev.launchTokens.map(lower)
const setA: PoolSet = {
  name: "A devnet",
  snapshot: dev.snapshot,
  weth,
  stable,
  requests: makeRequests(dev.snapshot, weth, {
    count: REQUESTS, seed: 1, minEth: 0.001, maxEth: 0.3, gasPriceWei: GAS_PRICE, tokens: [weth, stable, ...launches],
    pinned: [[weth, launches[0]!], [launches[0]!, weth], [launches[1]!, stable], [stable, launches[1]!], [launches[0]!, launches[1]!]]
  })
}
const setBOf = async (): Promise<PoolSet> => {
  const plan = { count: REQUESTS, seed: 2, minEth: 0.01, maxEth: 10, gasPriceWei: GAS_PRICE }
  const theirs = await loadGenerator()
  if (theirs !== null) {
    const { snapshot } = theirs.generateUniverse(11, POOLS)
    const [w, s] = [theirs.GENERATED_WETH, theirs.GENERATED_USDC]
    return { name: "B generated", snapshot, weth: w, stable: s, requests: makeRequests(snapshot, w, plan) }
  }
  const generated = generatePools(11, POOLS, weth, stable)
  const snapshot = mergeSnapshots(dev.snapshot, generated)
  const tokens = [weth, stable, ...generated.tokens.map((t) => t.address)]
  return { name: "B devnet + generated (interim generator)", snapshot, weth, stable, requests: makeRequests(snapshot, weth, { ...plan, tokens }) }
}
const setB = await setBOf()
log(`set B (${setB.name}): ${setB.snapshot.pools.length} pools, ${setB.snapshot.tokens.length} tokens`)

const byType = <A>(requests: ReadonlyArray<QuoteRequest>, xs: ReadonlyArray<A>, type: string) => xs.filter((_, i) => requests[i]!.type === type)

const oursOf = (set: PoolSet) => {
  if (makeRouter === null) return null
  const { buildMs, results } = timeQuotes(makeRouter, set.snapshot, benchConfig(set.weth, set.stable), set.requests, WARMUP)
  const found = results.filter((r) => r.outcome._tag === "Found").length
  log(`${set.name}: ours, router built in ${buildMs.toFixed(1)} ms; found ${found}/${results.length}`)
  for (const type of ["exactIn", "exactOut"]) log(`  ours ${type.padEnd(8)} ${summary(byType(set.requests, results, type).map((r) => r.latencyMs))}`)
  return results
}

const alphaOf = (set: PoolSet): AlphaRun => {
  const requests = set.requests.slice(0, ALPHA_REQUESTS)
  const run = runAlphaRouter({ snapshot: set.snapshot, roles: { wrappedNative: set.weth, usdToken: set.stable }, requests, gasPriceWei: GAS_PRICE, warmup: Math.min(WARMUP, 5) })
  const found = run.results.filter((r) => r.ok).length
  log(`${set.name}: AlphaRouter, setup ${run.setupMs.toFixed(0)} ms, ${run.pools} pools; found ${found}/${run.results.length}`)
  for (const type of ["exactIn", "exactOut"]) {
    const rs = byType(requests, run.results, type)
    log(`  AlphaRouter ${type.padEnd(8)} total ${summary(rs.map((r) => r.latencyMs))}`)
    log(`  AlphaRouter ${type.padEnd(8)} w/o quoter ${summary(rs.map((r) => r.latencyMs - r.quoterMs))}; quotes simulated per request p50 ${[...rs.map((r) => r.quotesSimulated)].sort((a, b) => a - b)[Math.floor(rs.length / 2)] ?? 0}`)
  }
  const slowest = [...run.results].sort((a, b) => b.latencyMs - a.latencyMs)[0]
  if (slowest !== undefined) log(`  AlphaRouter slowest: ${slowest.latencyMs.toFixed(0)} ms, of which quoter ${slowest.quoterMs.toFixed(0)} ms for ${slowest.quotesSimulated} quotes`)
  const failures = new Map<string, number>()
  for (const r of run.results) if (!r.ok) failures.set(r.error.slice(0, 80), (failures.get(r.error.slice(0, 80)) ?? 0) + 1)
  for (const [e, n] of failures) log(`  AlphaRouter failed ${n}×: ${e}`)
  return run
}

/** exactIn: output (higher is better); exactOut: input (lower is better). */
const oursFigure = (o: RoutingOutcome, type: string) => (o._tag === "Found" ? (type === "exactIn" ? o.quote.amountOut : o.quote.amountIn) : null)

const compare = (set: PoolSet, ours: ReadonlyArray<TimedOutcome>, alpha: ReadonlyArray<AlphaResult>) => {
  let both = 0, worse = 0, better = 0, equal = 0, oursOnly = 0, alphaOnly = 0
  let worstBps = 0
  const worst: Array<{ bps: number; i: number; a: AlphaResult & { ok: true } }> = []
  alpha.forEach((a, i) => {
    const type = set.requests[i]!.type
    const mine = oursFigure(ours[i]!.outcome, type)
    if (mine === null || !a.ok) {
      if (mine !== null) oursOnly++
      if (a.ok) alphaOnly++
      return
    }
    both++
    const diff = type === "exactIn" ? mine - a.quote : a.quote - mine // > 0: ours better
    if (diff === 0n) equal++
    else if (diff > 0n) better++
    else {
      worse++
      const bps = Number((-diff * 1_000_000n) / (a.quote === 0n ? 1n : a.quote)) / 100
      worstBps = Math.max(worstBps, bps)
      worst.push({ bps, i, a })
    }
  })
  log(`${set.name}: output vs AlphaRouter on ${both} requests both routed: ours better ${better}, equal ${equal}, ours < theirs ${worse} (worst ${worstBps.toFixed(2)} bps); only ours ${oursOnly}, only AlphaRouter ${alphaOnly}`)
  // The worst cases in full, to see which routes the engine missed.
  const symbol = new Map(set.snapshot.tokens.map((t) => [t.address, t.symbol ?? t.address.slice(0, 8)]))
  for (const { bps, i, a } of worst.sort((x, y) => y.bps - x.bps).slice(0, 3)) {
    const r = set.requests[i]!
    const o = ours[i]!.outcome
    const mine = o._tag === "Found" ? o.quote.routes.map((x) => `${x.percent}% ${x.path.map((t) => symbol.get(t)).join(">")}`).join(", ") : o._tag
    const theirs = a.routes.map((x) => `${x.percent}% ${x.path.map((t) => symbol.get(t)).join(">")}`).join(", ")
    log(`  worse by ${bps.toFixed(2)} bps: ${r.type} ${r.amount} ${symbol.get(r.tokenIn)}>${symbol.get(r.tokenOut)}; ours [${mine}] ${oursFigure(o, r.type)}; AlphaRouter [${theirs}] ${a.quote}`)
  }
}

const feeOf = new Map(dev.snapshot.pools.map((p) => [p.address, p.fee]))
const callsFromOurs = (set: PoolSet, ours: ReadonlyArray<TimedOutcome>): Array<RouteCall> =>
  ours.flatMap((r, i) => r.outcome._tag !== "Found" ? [] : r.outcome.quote.routes.map((route) => ({
    tokens: route.path, fees: route.hops.map((h) => h.fee), type: set.requests[i]!.type,
    amount: set.requests[i]!.type === "exactIn" ? route.amountIn : route.amountOut,
    expected: set.requests[i]!.type === "exactIn" ? route.amountOut : route.amountIn
  })))
const callsFromAlpha = (set: PoolSet, alpha: ReadonlyArray<AlphaResult>): Array<RouteCall> =>
  alpha.flatMap((r, i) => !r.ok ? [] : r.routes.map((route) => ({
    tokens: route.path, fees: route.pools.map((p) => feeOf.get(p) ?? 0), type: set.requests[i]!.type, amount: BigInt(route.amount), expected: BigInt(route.quote)
  })))

const quoterOf = async (label: string, calls: ReadonlyArray<RouteCall>) => {
  const outcomes = await quoteRoutesOnChain(dev.devnet.chain, dev.devnet.uni.quoterV2, calls)
  const same = outcomes.filter((o) => o.onChain === o.call.expected).length
  const reverted = outcomes.filter((o) => o.onChain === null).length
  log(`  QuoterV2 eth_call per route (${label}): ${summary(outcomes.map((o) => o.latencyMs))}; equal to the wei ${same}/${outcomes.length}, reverted ${reverted}`)
}

try {
  for (const set of [setA, setB]) {
    log(`--- ${set.name}: ${set.requests.length} requests (${ALPHA_REQUESTS} for AlphaRouter), load average ${loadAverage()}`)
    const ours = oursOf(set)
    const alpha = alphaOf(set)
    if (set === setA) {
      if (ours !== null) await quoterOf("our routes", callsFromOurs(set, ours))
      await quoterOf("AlphaRouter's routes", callsFromAlpha(set, alpha.results))
    }
    if (ours !== null) compare(set, ours, alpha.results)
  }
} finally {
  await dev.devnet.anvil.stop()
}
if (HTTP) {
  log(`--- HTTP GET /api/v1/quote, autocannon -c ${CONNECTIONS} -d ${SECONDS}, load average ${loadAverage()}`)
  const http = await benchQuoteHttp(log, { connections: CONNECTIONS, seconds: SECONDS })
  if (http === null) log("  the app has no quote routes yet: skipped")
  else log(`  ${http.rps.toFixed(0)} quotes/s over ${http.paths} distinct requests; latency p50 ${http.p50} ms, p99 ${http.p99} ms; non-2xx ${http.non2xx}, errors ${http.errors}`)
}
log(`done, load average ${loadAverage()}`)
