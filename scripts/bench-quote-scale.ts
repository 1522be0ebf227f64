/**
 * The quote engine at scale (issue 24): 10k and 100k generated pools (workers/routing/testing/generatePools.ts, the
 * generator of bench:quotes' set B), in memory, no chain. For each size, runs of the same blocks through the real
 * RouteFinder over one real Piscina worker thread (src/exchange-api/quotes/RouteFinder.ts), `--modes`:
 *   - push: each block's changed pools are pushed to the worker as the block is applied (workers/DeltaPush.ts) and
 *     applied in place there before the next task; the first quote is asked right after the push, so it pays for it;
 *   - pull: the previous delta path, the first quote finds the worker behind (`Stale`) and goes again with the deltas
 *     (workers/protocol.ts `Deltas`): a second round trip;
 *   - full: the path before deltas, every catch-up a full snapshot (delta log of 0: structured clone, decode, rebuild).
 * Per block: a delta of ~30 pools (25 swaps, 5 new positions, 1 removed, 2 added:
 * workers/routing/testing/generateDeltas.ts) is applied, then the FIRST quote after it is timed (what a user waits
 * for after a new block), then STEADY quotes at that block. Quotes are random pairs among the tokens with pools,
 * $10 to $100k, exactIn and exactOut, splits on. Memory: the worker thread's V8 heap (used/total) and the process
 * RSS (the threads share it) after the run. GC: the main thread's pauses while each first quote runs (v8.GCProfiler)
 * and the worker thread's (workers/GcPauses.ts, posted on a channel this bench names in QUOTE_WORKER_GC_CHANNEL).
 * The slowest first quotes of each run are printed one by one (`--slowest`): the block's index, its delta's size and
 * the GC pauses of both threads during that quote, so the record shows where a tail comes from.
 *   npm run bench:quote-scale [-- --pools 10000,100000 --blocks 30 --full-blocks 30 --steady 20 --seed 1
 *     --modes push,pull,full --long-blocks 0]
 */
import * as NodeOs from "node:os"
import * as NodeV8 from "node:v8"
import { BroadcastChannel } from "node:worker_threads"
import { Effect, Layer } from "effect"
import { QuoteConfig } from "../src/exchange-api/quotes/QuoteConfig.ts"
import { DELTA_LOG_SIZE, RouteFinder } from "../src/exchange-api/quotes/RouteFinder.ts"
import { RouteFinderPool } from "../src/exchange-api/quotes/RouteFinderPool.ts"
import { makeDeltaSource, randomQuoteRequests } from "../workers/routing/testing/generateDeltas.ts"
import { generatedConfig, generateUniverse, prng } from "../workers/routing/testing/generatePools.ts"
import type { GcPause } from "../workers/GcPauses.ts"
import { makeRouter } from "../workers/routing/index.ts"
import type { Address, PoolSnapshot, PoolState } from "../workers/routing/types.ts"

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1]! : fallback
}
const sizes = arg("pools", "10000,100000").split(",").map(Number)
const blocks = Number(arg("blocks", "30"))
const steady = Number(arg("steady", "20"))
/** The full-snapshot path costs seconds per block at 100k pools: it runs the first `full-blocks` of the same blocks. */
const fullBlocks = Number(arg("full-blocks", String(blocks)))
const seed = Number(arg("seed", "1"))
/** Blocks of the long-running in-engine apply measure (0: skipped). */
const longBlocks = Number(arg("long-blocks", "0"))
const mix = { swapped: 25, minted: 5, removed: 1, added: 2 }

const log = (line: string) => console.log(`[bench:quote-scale] ${line}`)
const load = () =>
  NodeOs.loadavg()
    .map((x) => x.toFixed(2))
    .join(", ")
const pct = (xs: ReadonlyArray<number>, p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))]!
}
const ms = (x: number) => `${x.toFixed(2)} ms`
const mb = (x: number) => `${(x / 2 ** 20).toFixed(0)} MB`
/** Milliseconds of GC pauses in a GCProfiler's report (its costs are in microseconds). */
const gcMs = (report: unknown) =>
  (report as { statistics: ReadonlyArray<{ cost: number }> }).statistics.reduce((n, s) => n + s.cost, 0) / 1000

/**
 * push: each delta pushed to the thread as it is applied (the default); pull: the thread catches up when a quote finds
 * it behind (`Stale`, a second round trip), as before the pushes; full: every catch-up a full snapshot.
 */
type Mode = "push" | "pull" | "full"
const modes = arg("modes", "push,pull,full").split(",") as ReadonlyArray<Mode>
/** How many of the slowest first quotes of each run are printed one by one. */
const slowest = Number(arg("slowest", "3"))

// The worker threads (started later, with a copy of this environment) post their GC pauses here.
const gcChannelName = `bench-quote-scale-gc-${process.pid}`
process.env.QUOTE_WORKER_GC_CHANNEL = gcChannelName
const workerGc: Array<GcPause> = []
const gcChannel = new BroadcastChannel(gcChannelName)
gcChannel.unref()
gcChannel.onmessage = (event) => workerGc.push((event as MessageEvent).data as GcPause)
/** The worker's GC pauses that overlap [from, to] (epoch ms): their total in ms and their kinds. */
const workerGcDuring = (from: number, to: number) => {
  const during = workerGc.filter((p) => p.startedAt < to && p.startedAt + p.ms > from)
  return { ms: during.reduce((n, p) => n + p.ms, 0), kinds: [...new Set(during.map((p) => p.kind))] }
}
/** Epoch ms, comparable with the worker's GcPause.startedAt. */
const epochNow = () => performance.timeOrigin + performance.now()

log(`machine: ${NodeOs.cpus().length} cores, node ${process.version}, load average ${load()}`)
log(
  `sizes ${sizes.join(", ")}; ${blocks} blocks per run; ${steady} steady quotes per block; delta mix ${JSON.stringify(mix)}`
)

/**
 * The blocks' deltas over `start` (adding `pending` pools as they come) and random quote requests among the tokens
 * with pools, $10 to $100k, both trade types: the same in every run (same seeds).
 */
const blocksOf = (start: PoolSnapshot, pending: ReadonlyArray<PoolState>, usd: ReadonlyMap<Address, number>) => {
  const tokens = new Map(start.tokens.map((t) => [t.address, t]))
  const next = makeDeltaSource({
    chainId: start.chainId,
    pools: new Map(start.pools.map((p) => [p.address, p])),
    pending: [...pending],
    tokens,
    rand: prng(seed + 100)
  })
  return { next, request: randomQuoteRequests(start.pools, tokens, usd, prng(seed + 200)) }
}

/** One block's first quote, for the slow-block lines. */
interface BlockRecord {
  readonly index: number
  readonly ms: number
  readonly tag: string
  readonly pools: number
  readonly ticks: number
  readonly removed: number
  /** When the quote was asked and answered, epoch ms. */
  readonly from: number
  readonly to: number
  readonly mainGcMs: number
}

interface RunResult {
  readonly first: Array<number>
  readonly blocks: Array<BlockRecord>
  readonly steady: Array<number>
  readonly apply: Array<number>
  /** GC on this (the main) thread while each first quote ran, in ms. */
  readonly mainGc: Array<number>
  found: number
  readonly heapUsed: number
  readonly heapTotal: number
  readonly rss: number
}

const run = (
  mode: Mode,
  start: PoolSnapshot,
  pending: ReadonlyArray<(typeof start.pools)[number]>,
  usd: ReadonlyMap<Address, number>
) => {
  const finderLayer = RouteFinder.layerNoDepsWith(mode === "full" ? 0 : DELTA_LOG_SIZE, { push: mode === "push" }).pipe(
    Layer.provideMerge(RouteFinderPool.layer),
    Layer.provideMerge(QuoteConfig.layerWith({ workers: 1, timeoutMs: 120_000 }))
  )
  return Effect.gen(function* () {
    const finder = yield* RouteFinder
    const pool = yield* RouteFinderPool
    const config = generatedConfig()
    // The same blocks and requests in both runs (same seeds).
    const { next, request } = blocksOf(start, pending, usd)
    yield* finder.load(start, config)
    // The start: the thread loads the whole state once (not timed), then warms its JIT.
    for (let i = 0; i < 50; i++) yield* finder.quote(request())
    const result: RunResult = {
      first: [],
      blocks: [],
      steady: [],
      apply: [],
      mainGc: [],
      found: 0,
      heapUsed: 0,
      heapTotal: 0,
      rss: 0
    }
    const count = mode === "full" ? Math.min(blocks, fullBlocks) : blocks
    for (let block = 2n; block < 2n + BigInt(count); block++) {
      const delta = next(block, mix)
      let t = performance.now()
      yield* finder.apply(delta)
      result.apply.push(performance.now() - t)
      const firstRequest = request()
      const gc = new NodeV8.GCProfiler()
      gc.start()
      const from = epochNow()
      t = performance.now()
      const first = yield* finder.quote(firstRequest)
      const took = performance.now() - t
      const to = epochNow()
      const mainGc = gcMs(gc.stop())
      result.first.push(took)
      result.mainGc.push(mainGc)
      result.blocks.push({
        index: Number(block - 2n),
        ms: took,
        tag: first._tag,
        pools: delta.pools.length,
        ticks: delta.pools.reduce((n, p) => n + p.ticks.length, 0),
        removed: delta.removed.length,
        from,
        to,
        mainGcMs: mainGc
      })
      if (first._tag === "Found") result.found++
      for (let i = 0; i < steady; i++) {
        t = performance.now()
        yield* finder.quote(request())
        result.steady.push(performance.now() - t)
      }
    }
    const heap = yield* Effect.promise(() => pool.threads[0]!.getHeapStatistics())
    // The worker posts a pause once its observer runs (after the task that paused); the heap read above was a round
    // trip to that thread, and one turn of this loop lets the channel deliver what it posted before.
    yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
    return { ...result, heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size, rss: process.memoryUsage().rss }
  }).pipe(Effect.scoped, Effect.provide(finderLayer))
}

/**
 * The delta path's own cost, without the thread hop and the time spent descheduled on a shared machine: the routing
 * core on this thread (makeRouter), per block `apply(delta)` then the first quote, over `passes` passes of the same
 * blocks on fresh routers, each block keeping its fastest pass (as bench:routing does).
 */
const inEngine = (
  start: PoolSnapshot,
  pending: ReadonlyArray<(typeof start.pools)[number]>,
  usd: ReadonlyMap<Address, number>,
  passes: number
) => {
  const best = new Array<number>(blocks).fill(Infinity)
  for (let pass = 0; pass < passes; pass++) {
    const { next, request } = blocksOf(start, pending, usd)
    const router = makeRouter(start, generatedConfig())
    for (let i = 0; i < 50; i++) router.quote(request())
    for (let b = 0; b < blocks; b++) {
      const delta = next(BigInt(b + 2), mix)
      const r = request()
      const t = performance.now()
      router.apply(delta)
      router.quote(r)
      best[b] = Math.min(best[b]!, performance.now() - t)
      for (let i = 0; i < steady; i++) router.quote(request())
    }
  }
  return best
}

/**
 * A long-running worker's apply: one router (makeRouter) over `longBlocks` blocks with `steady` + 1 quotes each, the
 * apply of each block timed. Its caches outlive blocks (workers/routing/Graph.ts keeps the depth rankings of tokens a
 * delta did not touch), so an apply that scanned them would grow block after block: the first 50 blocks against the
 * last 50 show whether it does.
 */
const longRun = (
  start: PoolSnapshot,
  pending: ReadonlyArray<(typeof start.pools)[number]>,
  usd: ReadonlyMap<Address, number>
) => {
  const { next, request } = blocksOf(start, pending, usd)
  const router = makeRouter(start, generatedConfig())
  const applies: Array<number> = []
  for (let b = 0; b < longBlocks; b++) {
    const delta = next(BigInt(b + 2), mix)
    const t = performance.now()
    router.apply(delta)
    applies.push(performance.now() - t)
    for (let i = 0; i <= steady; i++) router.quote(request())
  }
  return { early: applies.slice(0, 50), late: applies.slice(-50) }
}

// Piscina's threads do not hold the event loop open: without this the process would exit while a task runs.
const keepAlive = setInterval(() => {}, 1 << 30)
for (const size of sizes) {
  let t = performance.now()
  const { snapshot, usd } = generateUniverse(seed, size + 200)
  const start = { ...snapshot, pools: snapshot.pools.slice(0, size) }
  const pending = snapshot.pools.slice(size)
  const ticks = start.pools.reduce((n, p) => n + p.ticks.length, 0)
  log(
    `${size} pools, ${ticks} initialized ticks, ${start.tokens.length} tokens (generated in ${ms(performance.now() - t)}); load ${load()}`
  )
  t = performance.now()
  const engine = inEngine(start, pending, usd, 3)
  log(
    `${size} pools, delta in engine (this thread, best of 3 passes per block): apply + first quote p50 ${ms(pct(engine, 50))}, p99 ${ms(pct(engine, 99))}, max ${ms(Math.max(...engine))}; run ${((performance.now() - t) / 1000).toFixed(1)} s; load ${load()}`
  )
  if (longBlocks > 0) {
    t = performance.now()
    const { early, late } = longRun(start, pending, usd)
    log(
      `${size} pools, apply in engine over ${longBlocks} blocks on one router (${steady + 1} quotes a block): blocks 1-50 p50 ${ms(pct(early, 50))}, max ${ms(Math.max(...early))}; last 50 p50 ${ms(pct(late, 50))}, max ${ms(Math.max(...late))}; run ${((performance.now() - t) / 1000).toFixed(1)} s; load ${load()}`
    )
  }
  for (const mode of modes) {
    t = performance.now()
    const r = await Effect.runPromise(run(mode, start, pending, usd))
    log(
      `${size} pools, ${mode.padEnd(5)}: first quote after a block p50 ${ms(pct(r.first, 50))}, p99 ${ms(pct(r.first, 99))}, max ${ms(Math.max(...r.first))}` +
        ` (${r.first.length} blocks, ${r.found} found); steady p50 ${ms(pct(r.steady, 50))}, p99 ${ms(pct(r.steady, 99))} (${r.steady.length});` +
        ` apply on the main thread p50 ${ms(pct(r.apply, 50))}; main-thread GC during first quotes max ${ms(Math.max(...r.mainGc))}; worker heap used ${mb(r.heapUsed)} of ${mb(r.heapTotal)}, process RSS ${mb(r.rss)};` +
        ` run ${(performance.now() - t) / 1000 < 1 ? ms(performance.now() - t) : `${((performance.now() - t) / 1000).toFixed(1)} s`}; load ${load()}`
    )
    const slow = [...r.blocks].sort((a, b) => b.ms - a.ms).slice(0, slowest)
    const notFound = r.blocks.filter((b) => b.tag !== "Found")
    log(
      `${size} pools, ${mode.padEnd(5)}: slowest first quotes: ${slow
        .map((b) => {
          const g = workerGcDuring(b.from, b.to)
          return `block ${b.index} ${ms(b.ms)} (delta ${b.pools} pools, ${b.ticks} ticks, ${b.removed} removed; worker GC ${ms(g.ms)}${g.kinds.length > 0 ? ` ${g.kinds.join("+")}` : ""}, main GC ${ms(b.mainGcMs)})`
        })
        .join("; ")}; not found: ${notFound.map((b) => `block ${b.index} ${b.tag}`).join(", ") || "none"}`
    )
    workerGc.length = 0
  }
}
clearInterval(keepAlive)
gcChannel.close()
