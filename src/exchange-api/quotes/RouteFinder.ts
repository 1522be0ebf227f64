import { Context, Deferred, Effect, Layer } from "effect"
import type { Piscina } from "piscina"
import { RouteFinderPool } from "./RouteFinderPool.ts"
import { recordPoolStateUpdate, recordWorkerSync, setQuoteWorkerQueue } from "../../platform/metrics/Metrics.ts"
import { PoolStateLog } from "./PoolStateLog.ts"
import { registerCollector } from "../../platform/metrics/MetricsText.ts"
import {
  type CalldataOutcome,
  type CalldataSpec,
  replyOf,
  type WorkerReply,
  type WorkerTask
} from "../../../workers/protocol.ts"
import { makeEngine } from "../../../workers/route-finder.ts"
import type {
  PoolDelta,
  PoolSnapshot,
  QuoteRequest,
  QuoteResult,
  RoutingConfig,
  RoutingFailure,
  TokenInfo
} from "../../../workers/routing/types.ts"
import { type DeltaBroadcast, makeDeltaBroadcast } from "./DeltaBroadcast.ts"
import { quoteSettings } from "./QuoteConfig.ts"
import { fail, type QuoteFailure } from "./QuoteError.ts"

/**
 * The Effect-side face of the routing core (workers/README.md: plain functions over plain data in worker threads). It owns the current pool state (./PoolStateLog.ts: the pools
 * by address, a version bumped by every delta and a bounded log of the recent deltas) and runs quotes through `run`:
 * a Piscina worker (`layer`) or the core on this thread (`layerInline`). Each delta is pushed to the threads as it is
 * applied (./DeltaBroadcast.ts, workers/DeltaPush.ts), so the first quote after a block finds its thread at the new
 * version. A thread that is behind anyway (it missed a push, holds no state yet, or the state was reloaded) catches
 * up lazily (workers/protocol.ts, `Stale`): with the deltas it missed when the log still holds them, else with the
 * whole state.
 *
 * Each quote has QUOTE_TIMEOUT ms → 500 QUOTE_TIMEOUT. Its task is cancelled in two steps: it carries `expiresAt`,
 * so if it is still queued when its time is up, the worker that takes it answers `Expired` at once; a task still
 * running RUNAWAY_GRACE_MS after its timeout is aborted (Piscina stops that thread and starts another). Stopping a
 * thread at the timeout itself, as before, did harm under a burst: most timeouts are time spent queued, the task that
 * is running then finishes in a millisecond, and a replacement thread must reload the SDKs and the pool graph
 * (about a second) while more quotes queue and time out: with calldata encoded in the workers, a cascade measured
 * at 94 quotes/s with 750 of 750 failing (before, with calldata on the main thread: 12 failures and p99 481 ms at
 * 829 quotes/s in bench:quotes).
 *
 * The worker queue (tasks waiting for a thread) and the threads' busy share are gauges on /metrics, read at scrape
 * time.
 */
/** The routing outcome, with the calldata of a found route when it was asked for (null otherwise). */
export type FinderOutcome =
  | { readonly _tag: "Found"; readonly quote: QuoteResult; readonly calldata: CalldataOutcome | null }
  | RoutingFailure

export class RouteFinder extends Context.Service<
  RouteFinder,
  {
    /** With `calldata`, the worker that found the route also encodes its calldata (workers/Calldata.ts). */
    readonly quote: (request: QuoteRequest, calldata?: CalldataSpec) => Effect.Effect<FinderOutcome, QuoteFailure>
    readonly load: (snapshot: PoolSnapshot, config: RoutingConfig) => Effect.Effect<void>
    readonly apply: (delta: PoolDelta) => Effect.Effect<void>
    /** The whole state as one snapshot (built on demand, O(pools): not for a quote's path). */
    readonly current: () => PoolSnapshot | undefined
    readonly blockNumber: () => bigint | undefined
    readonly token: (address: string) => TokenInfo | undefined
  }
>()("app/quotes/RouteFinder") {
  /** Over a RouteFinderPool the caller provides (tests read its threads). */
  static readonly layerNoDeps = Layer.suspend(() => RouteFinder.layerNoDepsWith(DELTA_LOG_SIZE))

  /**
   * With a delta log of `deltaLogSize` entries; 0 makes every catch-up a full snapshot, as before the deltas (the
   * baseline of `npm run bench:quote-scale`). `push: false` leaves the threads to catch up only through `Stale`, as
   * before the pushes (the bench's other baseline; tests of the round trip).
   */
  static readonly layerNoDepsWith = (deltaLogSize: number, options: { readonly push?: boolean } = {}) =>
    Layer.effect(
      RouteFinder,
      Effect.gen(function* () {
        const pool = yield* RouteFinderPool
        const broadcast = deltaLogSize > 0 && options.push !== false ? yield* makeDeltaBroadcast : undefined
        // Load the worker module in every thread before the first quote (the import costs far more than QUOTE_TIMEOUT):
        // one task per thread at once, each answered `Stale` without routing. In the background, so the service's
        // readiness does not wait for it; a quote arriving meanwhile waits for it before its QUOTE_TIMEOUT starts.
        const warmup: WorkerTask = {
          version: -1,
          sync: null,
          request: { tokenIn: "0x", tokenOut: "0x", amount: 0n, type: "exactIn", gasPriceWei: 0n },
          deltaChannel: broadcast?.channel
        }
        // /metrics (quote_worker_queue_depth, quote_worker_utilization): read from the pool at each scrape.
        yield* registerCollector(Effect.suspend(() => setQuoteWorkerQueue(pool.queueSize, pool.utilization)))
        const warm = yield* Deferred.make<void>()
        yield* Effect.forkScoped(
          Effect.promise(() => Promise.all(Array.from({ length: pool.maxThreads }, () => pool.run(warmup)))).pipe(
            Effect.catchCause((cause) => Effect.logWarning("quotes: route-finder warm-up failed", cause)),
            Effect.ensuring(Deferred.succeed(warm, undefined))
          )
        )
        return yield* make(deltaLogSize, Deferred.await(warm), broadcast, (task, timedOut) =>
          runOnPool(pool, task, timedOut)
        )
      })
    )

  static readonly layerWorkers = RouteFinder.layerNoDeps.pipe(Layer.provide(RouteFinderPool.layer))

  static readonly layerInline = Layer.effect(
    RouteFinder,
    Effect.gen(function* () {
      const engine = makeEngine()
      // Quotes run synchronously on this thread: nothing ever waits for a worker.
      yield* registerCollector(setQuoteWorkerQueue(0))
      // Synchronous: the engine itself answers `Expired` to a task taken after its `expiresAt`.
      return yield* make(DELTA_LOG_SIZE, Effect.void, undefined, (task) => Effect.sync(() => engine(task)))
    })
  )

  /** Piscina threads when QUOTE_WORKERS > 0, else inline. */
  static readonly layer = Layer.unwrap(
    Effect.map(quoteSettings, (s) => (s.workers > 0 ? RouteFinder.layerWorkers : RouteFinder.layerInline))
  )
}

/** How long past its QUOTE_TIMEOUT a task may still run before its thread is stopped (a runaway route search). */
const RUNAWAY_GRACE_MS = 2_000

/**
 * Deltas kept for workers that fell behind (one per indexer batch). A worker further behind (a thread that sat idle
 * for more batches than this, or one started after them) gets the whole state instead.
 */
export const DELTA_LOG_SIZE = 256

/**
 * One task on a worker thread, waited for until the task's `expiresAt` at most (then `timedOut`). A task nobody waits
 * for any more (timed out, or its quote interrupted) and still running RUNAWAY_GRACE_MS later is aborted. One timer
 * per task and no fiber: the main thread serves HTTP, and racing the task against a sleep forked two fibers a quote
 * there (docs/BENCHMARKS.md, "Main thread per quote over HTTP").
 */
const runOnPool = (pool: Piscina, task: WorkerTask, timedOut: () => QuoteFailure) =>
  Effect.callback<unknown, QuoteFailure>((resume) => {
    const runaway = new AbortController()
    const running = pool.run(task, { signal: runaway.signal }) as Promise<unknown>
    let waiting = true
    const abandon = () => {
      const grace = setTimeout(() => runaway.abort(), RUNAWAY_GRACE_MS)
      grace.unref()
      running.finally(() => clearTimeout(grace)).catch(() => {})
    }
    const stop = () => {
      waiting = false
      clearTimeout(timer)
    }
    const timer = setTimeout(
      () => {
        if (!waiting) return
        stop()
        abandon()
        resume(Effect.fail(timedOut()))
      },
      Math.max(0, (task.expiresAt ?? Date.now()) - Date.now())
    )
    running.then(
      (raw) => {
        if (!waiting) return
        stop()
        resume(Effect.succeed(raw))
      },
      (cause) => {
        if (!waiting) return
        stop()
        resume(Effect.fail(fail("ROUTE_BUILD_FAILED", `route finder worker failed: ${String(cause)}`)))
      }
    )
    return Effect.sync(() => {
      if (!waiting) return
      stop()
      abandon()
    })
  })

/**
 * `ready`: completes once the threads are warm; quotes wait for it before their QUOTE_TIMEOUT starts. `broadcast`:
 * where applied deltas are pushed to the threads (none inline: the engine there is synced by the tasks themselves).
 * `run` answers a task's reply, or fails with `timedOut()` once the task's `expiresAt` has passed without one (every
 * task of a quote carries the quote's `expiresAt`, so the QUOTE_TIMEOUT bounds the whole quote, catch-up included).
 */
const make = (
  deltaLogSize: number,
  ready: Effect.Effect<void>,
  broadcast: DeltaBroadcast | undefined,
  run: (task: WorkerTask, timedOut: () => QuoteFailure) => Effect.Effect<unknown, QuoteFailure>
) =>
  Effect.gen(function* () {
    const settings = yield* quoteSettings
    const timedOut = () =>
      fail("QUOTE_TIMEOUT", `no quote within QUOTE_TIMEOUT (${settings.timeoutMs} ms)`, {
        timeoutMs: settings.timeoutMs
      })
    const state = new PoolStateLog(deltaLogSize)

    const decoded = (raw: unknown) =>
      Effect.try({
        try: () => replyOf(raw),
        catch: (e) => fail("ROUTE_BUILD_FAILED", `bad worker reply: ${String(e)}`)
      })

    const toOutcome = (reply: WorkerReply): Effect.Effect<FinderOutcome, QuoteFailure> => {
      switch (reply._tag) {
        case "Found":
          return Effect.succeed({ _tag: "Found", quote: reply.quote, calldata: reply.calldata })
        case "NoPoolsAvailable":
        case "NoRoute":
        case "InsufficientLiquidity":
          return Effect.succeed({ _tag: reply._tag })
        case "Stale":
          return Effect.fail(fail("ROUTE_BUILD_FAILED", "route finder stayed stale after a sync"))
        case "Expired":
          return Effect.fail(timedOut())
        case "Failed":
          return Effect.fail(fail("ROUTE_BUILD_FAILED", `route build failed: ${reply.message}`))
      }
    }

    type Ask = (version: number, sync: WorkerTask["sync"]) => Effect.Effect<WorkerReply, QuoteFailure>

    /** A worker that answered `Stale` gets what it missed, at the version of this moment (a delta may have come meanwhile). */
    const catchUp = (have: number, ask: Ask) =>
      Effect.gen(function* () {
        const sync = state.syncFrom(have)
        yield* recordWorkerSync(sync._tag)
        let reply = yield* ask(state.version(), sync)
        if (reply._tag === "Stale" && sync._tag === "Deltas") {
          yield* recordWorkerSync("Full")
          reply = yield* ask(state.version(), state.full())
        }
        return yield* toOutcome(reply)
      })

    const quote = (request: QuoteRequest, calldata?: CalldataSpec) =>
      Effect.andThen(
        ready,
        Effect.suspend(() => {
          if (!state.loaded()) return Effect.fail(fail("NO_POOLS_AVAILABLE", "the pool state is not loaded yet"))
          const task = {
            request,
            calldata: calldata ?? null,
            expiresAt: Date.now() + settings.timeoutMs,
            deltaChannel: broadcast?.channel
          }
          const ask: Ask = (version, sync) => Effect.flatMap(run({ ...task, version, sync }, timedOut), decoded)
          return Effect.flatMap(ask(state.version(), null), (reply) =>
            reply._tag === "Stale" ? catchUp(reply.have, ask) : toOutcome(reply)
          )
        })
      )

    return RouteFinder.of({
      quote,
      load: (next, nextConfig) =>
        Effect.andThen(
          Effect.sync(() => state.load(next, nextConfig)),
          recordPoolStateUpdate("full")
        ),
      apply: (delta) =>
        Effect.suspend(() => {
          if (!state.apply(delta)) return Effect.void
          broadcast?.post({ version: state.version(), delta })
          return recordPoolStateUpdate("delta")
        }),
      current: () => state.snapshot(),
      blockNumber: () => state.blockNumber(),
      token: (address) => state.token(address)
    })
  })
