/**
 * `npm run bench:indexer`: builds a large swap history on a fresh anvil (launches, then BENCH_SWAPS swaps through
 * SwapRouter02.multicall, BENCH_SWAPS_PER_TX per transaction), then times a full backfill into a fresh embedded
 * PostgreSQL and prints events/s; then measures head latency (block mined → its rows committed) over BENCH_HEAD_SAMPLES
 * single-swap blocks. Then, unless BENCH_PONDER=0, indexes the same pools (Swap) and tokens (Transfer) up to the same
 * head with Ponder (bench/ponder, its own package.json and lockfile, installed there with `npm ci` on first use) into
 * its own database of the same PostgreSQL server, and prints both rates and their ratio. BENCH_RANGES (e.g.
 * "100,250,1000") and BENCH_TARGETS (e.g. "5000,10000,20000") first backfill the same history once per fixed block
 * range or per INDEXER_TARGET_LOGS, each into a fresh database. The fetch ceiling (every log over plain eth_getLogs,
 * JSON.parse only) is measured first, in BENCH_CEILING_RANGES block ranges. After Ponder, the events ceiling: only the
 * Swap and Transfer logs both indexers store, in BENCH_EVENT_CEILING_RANGES block ranges with 1, 2 and 4 requests in
 * flight, with its CPU; from it, the CPU budget that 10× Ponder's rate would leave to decode, project and store.
 * Each backfill also prints the CPU time it cost (this process, PostgreSQL's processes; anvil apart) per 100k events
 * and the events per CPU-second, which the other work on a shared machine does not change the way it changes wall time.
 * With BENCH_HOSTED=1, after the local runs: the same backfill by fire-api, then by Ponder, each through its own
 * fault-injecting proxy set like a hosted plan (scripts/bench/hosted-plan.ts: 50 ms a call, 25 requests/s, eth_getLogs
 * capped at 2,000 blocks and 10,000 logs), each client set to the plan's 25 requests/s (INDEXER_RPC_RPS, Ponder's
 * maxRequestsPerSecond): events/s and the calls the proxy counted, per method and per 10,000 events, for both.
 */
import { NodeServices } from "@effect/platform-node"
import { Context, Effect, Layer, Redacted, Stream } from "effect"
import { SqlClient } from "effect/sql"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { encodeFunctionData, maxUint256, parseAbi, parseEther, toEventSelector, type Address } from "viem"
import { freePort, startEmbeddedPostgres } from "../layers/EmbeddedPostgres.ts"
import { makePublicClient } from "../layers/PublicClient.ts"
import { MigrationsLive, pgClientLayer } from "../layers/Sql.ts"
import { defaultIndexerSettings } from "../src/indexer/IndexerConfig.ts"
import { IndexerEvents } from "../src/indexer/IndexerEvents.ts"
import { IndexerStatus } from "../src/indexer/IndexerStatus.ts"
import { abis, receiptOf, sendTx, write } from "../test/contracts/chain.ts"
import { ignite, seed, startDevnet } from "../test/indexer/devnet.ts"
import { indexerLayer } from "../test/indexer/harness.ts"
import { cpuSince, cpuSnapshot, describeCpu } from "./bench/cpu.ts"
import { ensurePonderInstalled, runPonder } from "./bench/ponder-indexer.ts"
import { fetchCeiling } from "./bench/fetch-ceiling.ts"
import { callsPer10k, describeCalls, HOSTED_PLAN, hostedPlanFaults, startProxyProcess } from "./bench/hosted-plan.ts"
import { withProgress } from "./bench/progress.ts"

const SWAPS = Number(process.env.BENCH_SWAPS ?? 200_000)
const PER_TX = Number(process.env.BENCH_SWAPS_PER_TX ?? 100)
const LAUNCHES = Number(process.env.BENCH_LAUNCHES ?? 20)
const HEAD_SAMPLES = Number(process.env.BENCH_HEAD_SAMPLES ?? 100)
/** Blocks per batch of the headline backfill: the app's default INDEXER_MAX_BLOCK_RANGE unless BENCH_BLOCK_RANGE is set. */
const BLOCK_RANGE = Number(process.env.BENCH_BLOCK_RANGE ?? defaultIndexerSettings(31337).maxBlockRange)
const PONDER = process.env.BENCH_PONDER !== "0"
/** The hosted-plan runs (scripts/bench/hosted-plan.ts), after the local ones. */
const HOSTED = process.env.BENCH_HOSTED === "1"
/** Logs per eth_getLogs response (and batch) of the headline backfill: the app's default INDEXER_TARGET_LOGS unless BENCH_TARGET_LOGS is set. */
const TARGET_LOGS = Number(process.env.BENCH_TARGET_LOGS ?? defaultIndexerSettings(31337).targetLogsPerRequest)
const numbers = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .filter((x) => x.trim() !== "")
    .map(Number)
/**
 * Extra full backfills (fresh database each), to pick the settings: BENCH_RANGES sweeps INDEXER_MAX_BLOCK_RANGE with
 * the target out of the way (a fixed range, as before the target existed), BENCH_TARGETS sweeps INDEXER_TARGET_LOGS.
 */
const SWEEP = [
  ...numbers(process.env.BENCH_RANGES).map((range) => ({
    label: `range ${range} blocks`,
    settings: { maxBlockRange: range, targetLogsPerRequest: Number.MAX_SAFE_INTEGER }
  })),
  ...numbers(process.env.BENCH_TARGETS).map((target) => ({
    label: `target ${target} logs`,
    settings: { targetLogsPerRequest: target }
  }))
]
/** Ranges of the fetch-ceiling measurement: the best of them is the ceiling. */
const CEILING_RANGES = numbers(process.env.BENCH_CEILING_RANGES ?? "25,50,100,250")
/** Ranges of the events-ceiling measurement (the events both indexers store, after the Ponder run). */
const EVENT_CEILING_RANGES = numbers(process.env.BENCH_EVENT_CEILING_RANGES ?? "50,100,250")
const SWAP_TOPIC = toEventSelector("Swap(address,address,int256,int256,uint160,uint128,int24)")
const TRANSFER_TOPIC = toEventSelector("Transfer(address,address,uint256)")
const multicallAbi = parseAbi(["function multicall(bytes[] data) payable returns (bytes[] results)"])

const log = (line: string) => console.log(`[bench:indexer] ${line}`)
const pct = (xs: Array<number>, p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!

const loadAverage = () =>
  NodeOs.loadavg()
    .map((x) => x.toFixed(2))
    .join(", ")
log(`machine: ${NodeOs.cpus().length} cores, node ${process.version}, load average ${loadAverage()}`)
const d = await startDevnet()
const t0 = performance.now()
const s = await seed(d)
const { buyer } = d.accounts
await write(d.chain, buyer, d.uni.weth, abis.weth, "deposit", [], parseEther("5000"))
const tokens: Array<{ token: Address; fee: number }> = [
  { token: s.a.token, fee: s.a.fee },
  { token: s.b.token, fee: s.b.fee }
]
for (let i = 0; i < LAUNCHES; i++) {
  const l = await ignite(d, d.accounts.creatorA, `Bench${i}`)
  tokens.push({ token: l.token, fee: l.fee })
}
for (const t of tokens) {
  // A first buy gives the buyer tokens to sell back; the approval lets the router take them.
  await write(d.chain, buyer, d.uni.swapRouter02, abis.swapRouter02, "exactInputSingle", [
    {
      tokenIn: d.uni.weth,
      tokenOut: t.token,
      fee: t.fee,
      recipient: buyer,
      amountIn: parseEther("5"),
      amountOutMinimum: 0n,
      sqrtPriceLimitX96: 0n
    }
  ])
  await write(d.chain, buyer, t.token, abis.erc20, "approve", [d.uni.swapRouter02, maxUint256])
}
const swapCall = (i: number) => {
  const t = tokens[i % tokens.length]!
  const buy = Math.floor(i / tokens.length) % 2 === 0
  return encodeFunctionData({
    abi: abis.swapRouter02,
    functionName: "exactInputSingle",
    args: [
      {
        tokenIn: buy ? d.uni.weth : t.token,
        tokenOut: buy ? t.token : d.uni.weth,
        fee: t.fee,
        recipient: buyer,
        amountIn: buy ? parseEther("0.001") : parseEther("1000"),
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n
      }
    ]
  })
}
let made = 0
await withProgress(
  "bench:indexer history",
  async () => {
    while (made < SWAPS) {
      const n = Math.min(PER_TX, SWAPS - made)
      const calls = Array.from({ length: n }, (_, k) => swapCall(made + k))
      // A fixed gas limit (no estimate: it would execute every swap twice); the receipt must still say success.
      const hash = await d.chain.wallet.sendTransaction({
        account: buyer,
        to: d.uni.swapRouter02,
        chain: d.chain.wallet.chain ?? null,
        gas: 200_000n * BigInt(n),
        data: encodeFunctionData({ abi: multicallAbi, functionName: "multicall", args: [calls] })
      })
      if ((await receiptOf(d.chain, hash)).status !== "success") throw new Error(`multicall ${hash} reverted`)
      made += n
    }
  },
  { detail: () => `${made.toLocaleString("en-US")}/${SWAPS.toLocaleString("en-US")} swaps generated` }
)
const head = await d.chain.public.getBlockNumber({ cacheTime: 0 })
log(
  `history: ${made} swaps over ${tokens.length} launch pools, head ${head}, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`
)

let ceilingPerSecond = 0
{
  // Every log of the history (~285 a block here, ours and others'), in ranges of each size; anvil's cost per log
  // grows with the response, so the ceiling is the best of them.
  for (const range of CEILING_RANGES) {
    const ceiling = await fetchCeiling(d.anvil.rpcUrl, d.startBlock, head, range)
    ceilingPerSecond = Math.max(ceilingPerSecond, ceiling.perSecond)
    log(
      `fetch ceiling (eth_getLogs in ${range}-block ranges + JSON.parse, no decode, no store): ${ceiling.logs} logs, ${(ceiling.bytes / 1e6).toFixed(0)} MB in ${ceiling.seconds.toFixed(2)} s = ${ceiling.perSecond} logs/s`
    )
  }
  if (CEILING_RANGES.length > 0) log(`fetch ceiling: ${ceilingPerSecond} logs/s (the best range)`)
}

const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "bench-indexer-"))
const program = Effect.gen(function* () {
  const pg = yield* startEmbeddedPostgres({ dir: NodePath.join(dir, "pg"), port: 0 })
  const db = MigrationsLive.pipe(Layer.provideMerge(pgClientLayer(pg.url, 8)), Layer.provide(NodeServices.layer))
  // The block-range sweep: the same history backfilled into a fresh database per range, one after the other.
  const sweep: Array<{ label: string; events: number; seconds: number }> = []
  for (const [i, { label, settings }] of SWEEP.entries()) {
    // The same setting may be listed twice (repeated runs, to see the spread).
    const name = `sweep_${i}`
    yield* Effect.scoped(
      Effect.flatMap(sqlClientOf(Redacted.value(pg.url)), (admin) => admin.unsafe(`CREATE DATABASE ${name}`))
    )
    const url = Redacted.make(Redacted.value(pg.url).replace(/\/postgres$/, `/${name}`))
    const sweepDb = MigrationsLive.pipe(Layer.provideMerge(pgClientLayer(url, 8)), Layer.provide(NodeServices.layer))
    const r = yield* Effect.gen(function* () {
      const status = yield* IndexerStatus
      const start = performance.now()
      const cpu0 = cpuSnapshot()
      const done = yield* status.awaitBlock(head, "30 minutes")
      const seconds = (performance.now() - start) / 1000
      log(`sweep, ${label}: ${describeCpu(cpuSince(cpu0), done.eventsTotal, seconds)}`)
      return { label, events: done.eventsTotal, seconds }
    }).pipe(
      Effect.provide(
        indexerLayer(d, { pollIntervalMs: 50, finalityDepth: 2, ...settings }).pipe(Layer.provideMerge(sweepDb))
      ),
      Effect.scoped
    )
    log(
      `sweep, ${label}: ${r.events} events in ${r.seconds.toFixed(2)} s = ${Math.round(r.events / r.seconds)} events/s (load average ${loadAverage()})`
    )
    sweep.push(r)
  }
  if (sweep.length > 0) {
    console.log(
      [
        "| setting | backfill | events/s |",
        "|---|---|---|",
        ...sweep.map(
          (r) =>
            `| ${r.label} | ${r.seconds.toFixed(1)} s | ${Math.round(r.events / r.seconds).toLocaleString("en-US")} |`
        )
      ].join("\n")
    )
  }

  // Our indexer runs (and is stopped) inside this scope, so it does not compete with Ponder for the 2 cores.
  const ours = yield* Effect.gen(function* () {
    const status = yield* IndexerStatus
    const start = performance.now()
    const cpu0 = cpuSnapshot()
    const mark0 = process.hrtime.bigint() / 1000n
    const done = yield* status.awaitBlock(head, "30 minutes")
    const seconds = (performance.now() - start) / 1000
    const cpu = cpuSince(cpu0)
    // With `node --cpu-prof`: the backfill's window on the profile's clock (monotonic microseconds).
    if (process.execArgv.some((a) => a.startsWith("--cpu-prof")))
      log(`profile window: ${mark0}..${process.hrtime.bigint() / 1000n} µs`)
    log(
      `backfill (INDEXER_MAX_BLOCK_RANGE ${BLOCK_RANGE}, INDEXER_TARGET_LOGS ${TARGET_LOGS}): ${done.eventsTotal} events (logs) to block ${head} in ${seconds.toFixed(2)} s = ${Math.round(done.eventsTotal / seconds)} events/s (load average ${loadAverage()})`
    )
    log(`backfill ${describeCpu(cpu, done.eventsTotal, seconds)}`)

    // Head latency: one swap per block; from the receipt (block mined) to the batch's change event (rows committed).
    const changes = yield* (yield* IndexerEvents).subscribe
    const latencies: Array<number> = []
    for (let i = 0; i < HEAD_SAMPLES; i++) {
      const receipt = yield* Effect.promise(() =>
        sendTx(d.chain, { from: buyer, to: d.uni.swapRouter02, data: swapCall(i) })
      )
      const mined = performance.now()
      yield* changes.pipe(
        Stream.filter((c) => c.toBlock >= receipt.blockNumber),
        Stream.runHead,
        Effect.timeout("30 seconds")
      )
      latencies.push(performance.now() - mined)
    }
    if (latencies.length > 0)
      log(
        `head latency (poll ${50} ms): p50 ${pct(latencies, 0.5).toFixed(0)} ms, p99 ${pct(latencies, 0.99).toFixed(0)} ms over ${latencies.length} blocks`
      )

    // What Ponder indexes: the pools and tokens our indexer stored Swap/Transfer rows for, up to the same head.
    const sql = yield* SqlClient.SqlClient
    const pools = (yield* sql<{
      a: string
    }>`SELECT DISTINCT pool AS a FROM swaps WHERE block_number <= ${Number(head)}`).map((r) => r.a)
    const tokens = (yield* sql<{
      a: string
    }>`SELECT DISTINCT token AS a FROM token_transfers WHERE block_number <= ${Number(head)}`).map((r) => r.a)
    const [rows] = yield* sql<{
      n: string
    }>`SELECT ((SELECT count(*) FROM swaps WHERE block_number <= ${Number(head)}) + (SELECT count(*) FROM token_transfers WHERE block_number <= ${Number(head)}))::text AS n`
    return {
      events: done.eventsTotal,
      seconds,
      rate: done.eventsTotal / seconds,
      pools,
      tokens,
      swapTransferRows: Number(rows!.n),
      cpuSeconds: cpu.self + (cpu.postgres ?? 0)
    }
  }).pipe(
    Effect.provide(
      indexerLayer(d, {
        pollIntervalMs: 50,
        finalityDepth: 2,
        maxBlockRange: BLOCK_RANGE,
        targetLogsPerRequest: TARGET_LOGS
      }).pipe(Layer.provideMerge(db))
    ),
    Effect.scoped
  )
  log(`load average ${loadAverage()}`)
  if (!PONDER) {
    if (HOSTED)
      yield* hostedRuns(pg.url, { pools: ours.pools, tokens: ours.tokens, port: 0 }, { ours, ponderRate: null, head })
    return
  }
  yield* Effect.sync(() => ensurePonderInstalled(log))

  // Ponder's historical sync stops at its finalized block (latest - 30 on chain 31337) and, with an end block, never
  // indexes past it: empty blocks on top put the bench's head (and the empty range used for its start-up) below it.
  const emptyFrom = (yield* Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))) + 1n
  yield* Effect.promise(() => d.chain.test.mine({ blocks: 45 }))
  // Its own database on the same server: Ponder's sync tables (ponder_sync) and its schemas stay apart from ours.
  const ponderUrl = Redacted.value(pg.url).replace(/\/postgres$/, "/ponder_bench")
  yield* Effect.scoped(
    Effect.gen(function* () {
      const admin = yield* sqlClientOf(Redacted.value(pg.url))
      yield* admin.unsafe("CREATE DATABASE ponder_bench")
    })
  )
  const port = yield* freePort
  const common = { rpcUrl: d.anvil.rpcUrl, databaseUrl: ponderUrl, port, pools: ours.pools, tokens: ours.tokens }
  // Its fixed cost (Node start, building the config/schema/handlers, creating its tables, shutdown) measured alone: the
  // same contracts over 10 blocks with no events.
  const startup = yield* Effect.promise(() =>
    runPonder({ ...common, schema: "startup", startBlock: emptyFrom, endBlock: emptyFrom + 9n })
  )
  log(`Ponder start-up alone (same config, 10 blocks without events): ${startup.seconds.toFixed(2)} s`)
  log(
    `Ponder: ${ours.pools.length} pools (Swap), ${ours.tokens.length} tokens (Transfer), blocks ${d.startBlock}..${head}`
  )
  const ponderCpu0 = cpuSnapshot()
  const ponder = yield* Effect.promise(() =>
    withProgress("bench:indexer ponder", () =>
      runPonder({ ...common, schema: "bench", startBlock: d.startBlock, endBlock: head })
    )
  )
  const ponderCpu = cpuSince(ponderCpu0)
  const [counted] = yield* Effect.scoped(
    Effect.gen(function* () {
      const ponderSql = yield* sqlClientOf(ponderUrl)
      return yield* ponderSql<{
        s: string
        t: string
      }>`SELECT (SELECT count(*) FROM bench.swaps)::text AS s, (SELECT count(*) FROM bench.transfers)::text AS t`
    })
  )
  const ponderEvents = Number(counted!.s) + Number(counted!.t)
  const ponderRate = ponderEvents / ponder.seconds
  const ponderRateNoStartup = ponderEvents / Math.max(ponder.seconds - startup.seconds, 0.001)
  log(
    `Ponder: ${ponderEvents} events (${counted!.s} Swap + ${counted!.t} Transfer rows) to block ${head} in ${ponder.seconds.toFixed(2)} s = ${Math.round(ponderRate)} events/s; without its start-up ${Math.round(ponderRateNoStartup)} events/s (ours stored ${ours.swapTransferRows} Swap + Transfer rows of ${ours.events} events)`
  )
  // Ponder's process is reaped when runPonder returns: its CPU is this process's exited-children time (it includes its
  // start-up and shutdown), plus PostgreSQL's over the same window.
  const ponderCpuSeconds = ponderCpu.exitedChildren + (ponderCpu.postgres ?? 0)
  log(
    `Ponder CPU: its process ${ponderCpu.exitedChildren.toFixed(2)} s, PostgreSQL ${ponderCpu.postgres === null ? "n/a" : `${ponderCpu.postgres.toFixed(2)} s`}, together ${ponderCpuSeconds.toFixed(2)} s = ${Math.round(ponderEvents / Math.max(ponderCpuSeconds, 0.001))} events per CPU-second; fire-api ${Math.round(ours.events / Math.max(ours.cpuSeconds, 0.001))} events per CPU-second = ${(ours.events / ours.cpuSeconds / (ponderEvents / ponderCpuSeconds)).toFixed(1)}× Ponder by CPU`
  )
  const row = (name: string, events: number, s: number, rate: number) =>
    `| ${name} | ${events.toLocaleString("en-US")} | ${s.toFixed(1)} s | ${Math.round(rate).toLocaleString("en-US")} |`
  console.log(
    [
      "| indexer | events | time | events/s |",
      "|---|---|---|---|",
      row(`fire-api (INDEXER_TARGET_LOGS ${TARGET_LOGS})`, ours.events, ours.seconds, ours.rate),
      row("Ponder 1.0.0, spawn → /ready at the head", ponderEvents, ponder.seconds, ponderRate),
      row("Ponder 1.0.0, minus its start-up", ponderEvents, ponder.seconds - startup.seconds, ponderRateNoStartup),
      `| ratio fire-api / Ponder | | | **${(ours.rate / ponderRate).toFixed(1)}×** (${(ours.rate / ponderRateNoStartup).toFixed(1)}× without its start-up) |`
    ].join("\n")
  )
  log(`load average ${loadAverage()}`)
  if (HOSTED) yield* hostedRuns(pg.url, common, { ours, ponderRate, head })
  if (ceilingPerSecond > 0)
    log(
      `fetch ceiling ${ceilingPerSecond} logs/s = ${(ceilingPerSecond / ponderRate).toFixed(1)}× Ponder's rate; fire-api at ${((100 * ours.rate) / ceilingPerSecond).toFixed(0)} % of it`
    )
  // Not asked for (BENCH_EVENT_CEILING_RANGES empty): no events ceiling, no budget.
  if (EVENT_CEILING_RANGES.length > 0) {
    // The same bound for exactly the events both indexers store (the pools' Swap, the tokens' Transfer), with requests in
    // flight at once so that anvil and the parse use both cores: what 10× Ponder would need to beat with nothing stored.
    let eventsCeiling = 0
    let ceilingCpu = 0
    for (const concurrency of [1, 2, 4]) {
      for (const range of EVENT_CEILING_RANGES) {
        const cpu0 = cpuSnapshot()
        const c = yield* Effect.promise(() =>
          fetchCeiling(d.anvil.rpcUrl, d.startBlock, head, range, {
            concurrency,
            filters: [
              { address: ours.pools, topic0: SWAP_TOPIC },
              { address: ours.tokens, topic0: TRANSFER_TOPIC }
            ]
          })
        )
        const cpu = cpuSince(cpu0)
        if (c.perSecond > eventsCeiling) ceilingCpu = cpu.self + (cpu.anvil ?? 0)
        eventsCeiling = Math.max(eventsCeiling, c.perSecond)
        log(
          `events ceiling (Swap + Transfer of the indexed pools and tokens, ${range}-block ranges, ${concurrency} request(s) in flight, JSON.parse only): ${c.logs} events in ${c.seconds.toFixed(2)} s = ${c.perSecond} events/s; CPU: this process ${cpu.self.toFixed(2)} s, anvil ${cpu.anvil?.toFixed(2) ?? "n/a"} s`
        )
      }
    }
    log(
      `events ceiling: ${eventsCeiling} events/s = ${(eventsCeiling / ponderRate).toFixed(1)}× Ponder's rate (10× Ponder = ${Math.round(10 * ponderRate)} events/s); fire-api at ${((100 * ours.rate) / eventsCeiling).toFixed(0)} % of it`
    )
    // The CPU budget of 10× Ponder on this machine: all cores for the target's wall time, minus what fetching and parsing
    // the events cost (the fastest ceiling run: this process and anvil), is what is left to decode, project and store.
    const cores = NodeOs.cpus().length
    const budget = (cores * ours.events) / (10 * ponderRate)
    log(
      `10× Ponder budget: ${ours.events} events at ${Math.round(10 * ponderRate)} events/s = ${(ours.events / (10 * ponderRate)).toFixed(2)} s on ${cores} cores = ${budget.toFixed(2)} CPU-s; fetching and parsing them alone took ${ceilingCpu.toFixed(2)} CPU-s (this process and anvil), leaving ${(budget - ceilingCpu).toFixed(2)} CPU-s to decode, project and store them; fire-api's process and PostgreSQL took ${ours.cpuSeconds.toFixed(2)} CPU-s for the whole backfill`
    )
  }
  log(
    `targets: ≥ 10,000 events/s ${ours.rate >= 10_000 ? "met" : "NOT met"}; ≥ 10× Ponder ${ours.rate / ponderRate >= 10 ? "met" : "NOT met"} (${ours.rate / ponderRateNoStartup >= 10 ? "met" : "NOT met"} without its start-up)`
  )
}).pipe(Effect.scoped)

/**
 * The hosted-plan runs: fire-api into a fresh database, then Ponder into its own (its sync tables must start empty),
 * each through a proxy process of its own whose counts are that indexer's calls.
 */
const hostedRuns = (
  pgUrl: Redacted.Redacted<string>,
  common: { readonly pools: ReadonlyArray<string>; readonly tokens: ReadonlyArray<string>; readonly port: number },
  local: {
    readonly ours: { readonly rate: number }
    /** Null without Ponder (BENCH_PONDER=0): fire-api's hosted run alone. */
    readonly ponderRate: number | null
    readonly head: bigint
  }
) =>
  Effect.gen(function* () {
    const { head } = local
    const startBlock = d.startBlock
    const plan = `${HOSTED_PLAN.latencyMs} ms a call, ${HOSTED_PLAN.requestsPerSecond} requests/s, eth_getLogs capped at ${HOSTED_PLAN.maxBlocks} blocks and ${HOSTED_PLAN.maxLogs} logs`
    log(`hosted plan (proxy): ${plan}`)
    const createDatabase = (name: string) =>
      Effect.scoped(
        Effect.flatMap(sqlClientOf(Redacted.value(pgUrl)), (admin) => admin.unsafe(`CREATE DATABASE ${name}`))
      )
    const urlOf = (name: string) => Redacted.value(pgUrl).replace(/\/postgres$/, `/${name}`)
    const proxyFor = Effect.acquireRelease(
      Effect.promise(() => startProxyProcess(d.anvil.rpcUrl, hostedPlanFaults())),
      (p) => Effect.promise(() => p.close())
    )

    // fire-api: the app's own client (layers/PublicClient.ts) on the proxy, INDEXER_RPC_RPS at the plan's limit.
    yield* createDatabase("hosted_fire")
    const hostedDb = MigrationsLive.pipe(
      Layer.provideMerge(pgClientLayer(Redacted.make(urlOf("hosted_fire")), 8)),
      Layer.provide(NodeServices.layer)
    )
    const ours = yield* Effect.gen(function* () {
      const proxy = yield* proxyFor
      const client = makePublicClient(31337, proxy.url)
      return yield* Effect.gen(function* () {
        const status = yield* IndexerStatus
        const start = performance.now()
        const done = yield* status.awaitBlock(head, "30 minutes")
        const seconds = (performance.now() - start) / 1000
        const counts = yield* Effect.promise(() => proxy.counts())
        return { events: done.eventsTotal, seconds, rate: done.eventsTotal / seconds, counts }
      }).pipe(
        Effect.provide(
          indexerLayer(d, { finalityDepth: 2, rpcRequestsPerSecond: HOSTED_PLAN.requestsPerSecond }, { client }).pipe(
            Layer.provideMerge(hostedDb)
          )
        )
      )
    }).pipe(Effect.scoped)
    log(
      `hosted, fire-api (INDEXER_RPC_RPS ${HOSTED_PLAN.requestsPerSecond}): ${ours.events} events to block ${head} in ${ours.seconds.toFixed(2)} s = ${Math.round(ours.rate)} events/s (load average ${loadAverage()})`
    )
    log(`hosted, fire-api: ${describeCalls(ours.counts, ours.events)}`)
    if (local.ponderRate === null) return

    // Ponder: its documented settings for a rate-limited provider (maxRequestsPerSecond), its own range handling.
    yield* createDatabase("ponder_hosted")
    const ponder = yield* Effect.gen(function* () {
      const proxy = yield* proxyFor
      const run = yield* Effect.promise(() =>
        withProgress("bench:indexer hosted ponder", () =>
          runPonder({
            ...common,
            rpcUrl: proxy.url,
            databaseUrl: urlOf("ponder_hosted"),
            schema: "hosted",
            startBlock,
            endBlock: head,
            maxRequestsPerSecond: HOSTED_PLAN.requestsPerSecond
          })
        )
      )
      return { seconds: run.seconds, counts: yield* Effect.promise(() => proxy.counts()) }
    }).pipe(Effect.scoped)
    const [counted] = yield* Effect.scoped(
      Effect.flatMap(
        sqlClientOf(urlOf("ponder_hosted")),
        (sql) =>
          sql<{
            n: string
          }>`SELECT ((SELECT count(*) FROM hosted.swaps) + (SELECT count(*) FROM hosted.transfers))::text AS n`
      )
    )
    const ponderEvents = Number(counted!.n)
    const ponderRate = ponderEvents / ponder.seconds
    log(
      `hosted, Ponder (maxRequestsPerSecond ${HOSTED_PLAN.requestsPerSecond}): ${ponderEvents} events to block ${head} in ${ponder.seconds.toFixed(2)} s (spawn → /ready at the head) = ${Math.round(ponderRate)} events/s (load average ${loadAverage()})`
    )
    log(`hosted, Ponder: ${describeCalls(ponder.counts, ponderEvents)}`)
    const oursCalls = callsPer10k(ours.counts, ours.events)
    const ponderCalls = callsPer10k(ponder.counts, ponderEvents)
    const fmt = (n: number) => Math.round(n).toLocaleString("en-US")
    console.log(
      [
        "| RPC | fire-api events/s | Ponder events/s | fire-api / Ponder | fire-api calls per 10k events | Ponder calls per 10k events | fire-api / Ponder |",
        "|---|---|---|---|---|---|---|",
        `| local anvil, no proxy | ${fmt(local.ours.rate)} | ${fmt(local.ponderRate)} | ${(local.ours.rate / local.ponderRate).toFixed(1)}× | not counted | not counted | |`,
        `| hosted plan (${plan}) | ${fmt(ours.rate)} | ${fmt(ponderRate)} | **${(ours.rate / ponderRate).toFixed(1)}×** | ${oursCalls.toFixed(1)} | ${ponderCalls.toFixed(1)} | **${(oursCalls / ponderCalls).toFixed(2)}** |`
      ].join("\n")
    )
    log(
      `hosted targets: ≥ 5× Ponder's events/s ${ours.rate >= 5 * ponderRate ? "met" : "NOT met"} (${(ours.rate / ponderRate).toFixed(1)}×); ≤ 1/3 of its calls per 10,000 events ${oursCalls <= ponderCalls / 3 ? "met" : "NOT met"} (${(oursCalls / ponderCalls).toFixed(2)})`
    )
  })

/** A one-connection client for a database URL, closed with the surrounding scope. */
const sqlClientOf = (url: string) =>
  Layer.build(pgClientLayer(Redacted.make(url), 1)).pipe(Effect.map((ctx) => Context.get(ctx, SqlClient.SqlClient)))

await Effect.runPromise(program).finally(async () => {
  await d.anvil.stop()
  NodeFs.rmSync(dir, { recursive: true, force: true })
})
