/**
 * `npm run bench:quotes`: the quote engine against its baselines, in one run, on two pool sets:
 *   A. the devnet's pools (a fresh anvil: Uniswap v3, launchpad, stablecoin/WETH, BENCH_LAUNCHES launches);
 *   B. BENCH_POOLS generated pools: the routing core's `generateUniverse` (workers/routing/testing: its own WETH,
 *      USDC and DAI, launch-like tokens paired mostly with WETH, some with each other).
 * Prints, per set: our in-engine quote latency p50/p99 (workers/routing directly, the quote routes' settings,
 * exactIn and exactOut, splits on); AlphaRouter (bench/alpharouter, own install, in-memory providers) latency and
 * output for the same requests, the count of requests where our output is worse and the cause of each
 * (scripts/bench/quote-compare.ts); on set A, QuoterV2 `eth_call` latency per route and whether the
 * routers' route quotes equal QuoterV2's to the wei. Then `GET /api/v1/quote` throughput of the built app at
 * BENCH_CONNECTIONS (50) connections for BENCH_SECONDS (10) (scripts/bench/quote-http.ts; BENCH_HTTP=0 skips it),
 * Before it, calldata encoding in process, viem against the SDKs (scripts/bench/quote-calldata.ts). HTTP:
 * BENCH_HTTP_ROUNDS (3) rounds alternating with a second app that encodes calldata through the Uniswap SDKs
 * (QUOTE_CALLDATA_ENCODER=sdk, the path before issue 26; BENCH_HTTP_BASELINE=0 leaves it out), or with
 * BENCH_HTTP_BASELINE_ROOT=<dir> the build of another checkout in <dir> (say, main before a change: its `dist/` built
 * there, its node_modules in place) with the default encoder. BENCH_PROFILE=1 runs the measured app under
 * `node --cpu-prof` and prints where each of its threads spent the measured rounds, per quote.
 * Env: BENCH_LAUNCHES (20), BENCH_POOLS (1500), BENCH_REQUESTS (200 per set), BENCH_ALPHA_REQUESTS (100 per set:
 * AlphaRouter takes ~0.5–2 s a quote), BENCH_WARMUP (20), BENCH_GAS_GWEI (1), BENCH_SETS (`A,B`: which pool sets),
 * BENCH_SHOW_WORSE (5: worse cases printed in full per set).
 */
import * as NodeOs from "node:os"
import { routingConfigFor } from "../src/exchange-api/quotes/QuoteChains.ts"
import { GENERATED_USDC, GENERATED_WETH, generateUniverse } from "../workers/routing/testing/generatePools.ts"
import type { Address, PoolSnapshot, QuoteRequest, RoutingConfig } from "../workers/routing/types.ts"
import { type AlphaResult, type AlphaRun, ensureAlphaInstalled, runAlphaRouter } from "./bench/alpharouter.ts"
import { benchCalldataEncoding } from "./bench/quote-calldata.ts"
import { compareWithAlpha } from "./bench/quote-compare.ts"
import { summary, type TimedOutcome, timeQuotes } from "./bench/quote-engine.ts"
import { buildDevnetPools } from "./bench/quote-devnet.ts"
import { benchQuoteHttp } from "./bench/quote-http.ts"
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
const HTTP_ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3)
const HTTP_BASELINE = process.env.BENCH_HTTP_BASELINE !== "0"
const HTTP_BASELINE_ROOT = process.env.BENCH_HTTP_BASELINE_ROOT || undefined
const PROFILE = process.env.BENCH_PROFILE === "1"
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const SETS = new Set((process.env.BENCH_SETS ?? "A,B").split(",").map((s) => s.trim().toUpperCase()))

const log = (line: string) => console.log(`[bench:quotes] ${line}`)
const loadAverage = () =>
  NodeOs.loadavg()
    .map((x) => x.toFixed(2))
    .join(", ")
const lower = (a: string) => a.toLowerCase() as Address

log(`machine: ${NodeOs.cpus().length} cores, node ${process.version}, load average ${loadAverage()}`)
// Only the pool sets need AlphaRouter: BENCH_SETS=none with the HTTP part alone skips its install.
if (SETS.has("A") || SETS.has("B")) ensureAlphaInstalled(log)

const t0 = performance.now()
const dev = await buildDevnetPools(LAUNCHES)
const weth = lower(dev.devnet.uni.weth)
const stable = lower(dev.devnet.stable)
log(
  `devnet: ${dev.snapshot.pools.length} pools, ${dev.snapshot.tokens.length} tokens at block ${dev.snapshot.blockNumber} (${((performance.now() - t0) / 1000).toFixed(1)} s)`
)

interface PoolSet {
  readonly name: string
  readonly snapshot: PoolSnapshot
  readonly weth: Address
  /** The stablecoin: a base token of ours, and the SOR's gas-in-USD token (renamed to chain 1's, see bench/alpharouter). */
  readonly stable: Address
  /** The quote routes' settings with this set's WETH and stablecoin as bases. */
  readonly config: RoutingConfig
  readonly requests: Array<QuoteRequest>
}
const launches = dev.launchTokens.map(lower)
const setA: PoolSet = {
  name: "A devnet",
  snapshot: dev.snapshot,
  weth,
  stable,
  config: routingConfigFor(weth, stable),
  requests: makeRequests(dev.snapshot, weth, {
    count: REQUESTS,
    seed: 1,
    minEth: 0.001,
    maxEth: 0.3,
    gasPriceWei: GAS_PRICE,
    tokens: [weth, stable, ...launches],
    pinned: [
      [weth, launches[0]!],
      [launches[0]!, weth],
      [launches[1]!, stable],
      [stable, launches[1]!],
      [launches[0]!, launches[1]!]
    ]
  })
}
const setB: PoolSet = (() => {
  const { snapshot } = generateUniverse(11, POOLS)
  const plan = { count: REQUESTS, seed: 2, minEth: 0.01, maxEth: 10, gasPriceWei: GAS_PRICE }
  return {
    name: "B generated",
    snapshot,
    weth: GENERATED_WETH,
    stable: GENERATED_USDC,
    config: routingConfigFor(GENERATED_WETH, GENERATED_USDC),
    requests: makeRequests(snapshot, GENERATED_WETH, plan)
  }
})()
log(`set B (${setB.name}): ${setB.snapshot.pools.length} pools, ${setB.snapshot.tokens.length} tokens`)

const byType = <A>(requests: ReadonlyArray<QuoteRequest>, xs: ReadonlyArray<A>, type: string) =>
  xs.filter((_, i) => requests[i]!.type === type)

const oursOf = (set: PoolSet) => {
  const { buildMs, results } = timeQuotes(set.snapshot, set.config, set.requests, WARMUP)
  const found = results.filter((r) => r.outcome._tag === "Found").length
  log(`${set.name}: ours, router built in ${buildMs.toFixed(1)} ms; found ${found}/${results.length}`)
  for (const type of ["exactIn", "exactOut"])
    log(`  ours ${type.padEnd(8)} ${summary(byType(set.requests, results, type).map((r) => r.latencyMs))}`)
  return results
}

const alphaOf = (set: PoolSet): AlphaRun => {
  const requests = set.requests.slice(0, ALPHA_REQUESTS)
  const run = runAlphaRouter({
    snapshot: set.snapshot,
    roles: { wrappedNative: set.weth, usdToken: set.stable },
    requests,
    gasPriceWei: GAS_PRICE,
    warmup: Math.min(WARMUP, 5)
  })
  const found = run.results.filter((r) => r.ok).length
  log(
    `${set.name}: AlphaRouter, setup ${run.setupMs.toFixed(0)} ms, ${run.pools} pools; found ${found}/${run.results.length}`
  )
  for (const type of ["exactIn", "exactOut"]) {
    const rs = byType(requests, run.results, type)
    log(`  AlphaRouter ${type.padEnd(8)} total ${summary(rs.map((r) => r.latencyMs))}`)
    log(
      `  AlphaRouter ${type.padEnd(8)} w/o quoter ${summary(rs.map((r) => r.latencyMs - r.quoterMs))}; quotes simulated per request p50 ${[...rs.map((r) => r.quotesSimulated)].sort((a, b) => a - b)[Math.floor(rs.length / 2)] ?? 0}`
    )
  }
  const slowest = [...run.results].sort((a, b) => b.latencyMs - a.latencyMs)[0]
  if (slowest !== undefined)
    log(
      `  AlphaRouter slowest: ${slowest.latencyMs.toFixed(0)} ms, of which quoter ${slowest.quoterMs.toFixed(0)} ms for ${slowest.quotesSimulated} quotes`
    )
  const failures = new Map<string, number>()
  for (const r of run.results)
    if (!r.ok) failures.set(r.error.slice(0, 80), (failures.get(r.error.slice(0, 80)) ?? 0) + 1)
  for (const [e, n] of failures) log(`  AlphaRouter failed ${n}×: ${e}`)
  return run
}

const feeOf = new Map(dev.snapshot.pools.map((p) => [p.address, p.fee]))
const callsFromOurs = (set: PoolSet, ours: ReadonlyArray<TimedOutcome>): Array<RouteCall> =>
  ours.flatMap((r, i) =>
    r.outcome._tag !== "Found"
      ? []
      : r.outcome.quote.routes.map((route) => ({
          tokens: route.path,
          fees: route.hops.map((h) => h.fee),
          type: set.requests[i]!.type,
          amount: set.requests[i]!.type === "exactIn" ? route.amountIn : route.amountOut,
          expected: set.requests[i]!.type === "exactIn" ? route.amountOut : route.amountIn
        }))
  )
const callsFromAlpha = (set: PoolSet, alpha: ReadonlyArray<AlphaResult>): Array<RouteCall> =>
  alpha.flatMap((r, i) =>
    !r.ok
      ? []
      : r.routes.map((route) => ({
          tokens: route.path,
          fees: route.pools.map((p) => feeOf.get(p) ?? 0),
          type: set.requests[i]!.type,
          amount: BigInt(route.amount),
          expected: BigInt(route.quote)
        }))
  )

const quoterOf = async (label: string, calls: ReadonlyArray<RouteCall>) => {
  const outcomes = await quoteRoutesOnChain(dev.devnet.chain, dev.devnet.uni.quoterV2, calls)
  const same = outcomes.filter((o) => o.onChain === o.call.expected).length
  const reverted = outcomes.filter((o) => o.onChain === null).length
  log(
    `  QuoterV2 eth_call per route (${label}): ${summary(outcomes.map((o) => o.latencyMs))}; equal to the wei ${same}/${outcomes.length}, reverted ${reverted}`
  )
}

try {
  for (const set of [setA, setB].filter((x) => SETS.has(x.name[0]!))) {
    log(
      `--- ${set.name}: ${set.requests.length} requests (${ALPHA_REQUESTS} for AlphaRouter), load average ${loadAverage()}`
    )
    const ours = oursOf(set)
    const alpha = alphaOf(set)
    if (set === setA) {
      await quoterOf("our routes", callsFromOurs(set, ours))
      await quoterOf("AlphaRouter's routes", callsFromAlpha(set, alpha.results))
    }
    compareWithAlpha(set, ours, alpha.results, log)
  }
} finally {
  await dev.devnet.anvil.stop()
}
log(`--- calldata encoding in process (best of 3 alternating rounds), load average ${loadAverage()}`)
for (const line of benchCalldataEncoding()) log(`  ${line}`)
if (HTTP) {
  log(`--- HTTP GET /api/v1/quote, autocannon -c ${CONNECTIONS} -d ${SECONDS}, load average ${loadAverage()}`)
  const http = await benchQuoteHttp(log, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: HTTP_ROUNDS,
    baseline: HTTP_BASELINE,
    baselineRoot: HTTP_BASELINE_ROOT,
    profile: PROFILE
  })
  if (http === null) log("  the app has no quote routes yet: skipped")
  else {
    const median = (list: ReadonlyArray<{ rps: number }>) =>
      [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)]
    const baselineName =
      HTTP_BASELINE_ROOT === undefined
        ? "calldata by the Uniswap SDKs (QUOTE_CALLDATA_ENCODER=sdk, baseline)"
        : `the build in ${HTTP_BASELINE_ROOT} (default encoder, baseline)`
    for (const [name, list] of [
      ["calldata by viem (QUOTE_CALLDATA_ENCODER=viem, default)", http.viem],
      [baselineName, http.sdk]
    ] as const) {
      const m = median(list) as (typeof list)[number] | undefined
      if (m === undefined) continue
      log(`  ${name}, median of ${list.length} rounds (${list.map((r) => r.rps.toFixed(0)).join(", ")} quotes/s):`)
      log(
        `    ${m.rps.toFixed(0)} quotes/s over ${m.paths} distinct requests; latency p50 ${m.p50} ms, p99 ${m.p99} ms; non-2xx ${m.non2xx}, errors ${m.errors} (by status: ${m.statuses})`
      )
      const cpu = list.flatMap((r) => (r.cpuUs === null ? [] : [r.cpuUs]))
      if (cpu.length > 0)
        log(
          `    CPU per quote, each round: main thread ${cpu.map((c) => c.main.toFixed(0)).join(", ")} µs; whole app process (workers included) ${cpu.map((c) => c.process.toFixed(0)).join(", ")} µs`
        )
    }
    const failed = [...http.viem, ...http.sdk].reduce((n, r) => n + r.non2xx + r.errors, 0)
    // Answers that are errors (a 429 of a limit, a 500 QUOTE_TIMEOUT under load) are not quotes: say so with the figures.
    if (failed > 0)
      log(
        `  NOTE: ${failed} non-2xx answers or errors over the rounds: those requests were not quotes (see the statuses)`
      )
    const [v, b] = [median(http.viem), median(http.sdk)]
    if (v !== undefined && b !== undefined)
      log(
        `  ratio ${HTTP_BASELINE_ROOT === undefined ? "viem/sdk" : "this build/baseline build"} quotes/s: ${(v.rps / b.rps).toFixed(2)}`
      )
    for (const line of http.profile) log(`  ${line}`)
  }
}
log(`done, load average ${loadAverage()}`)
