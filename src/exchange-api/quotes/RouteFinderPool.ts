import { Context, Effect, Layer } from "effect"
import { Piscina } from "piscina"
import { quoteSettings } from "./QuoteConfig.ts"

// Dev and tests run the .ts sources (Node strips types, in workers too); the build runs the compiled .js.
const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js"

/**
 * The Piscina pool of route-finder workers (workers/route-finder.ts), sized from QUOTE_WORKERS (min = max, so the
 * threads are warm before the first quote), destroyed with the layer. Idle threads are never reaped: each holds
 * the pool graph, and rebuilding it costs more than the memory.
 */
export class RouteFinderPool extends Context.Service<RouteFinderPool, Piscina>()("app/layers/RouteFinderPool") {
  static readonly layer = Layer.effect(
    RouteFinderPool,
    Effect.gen(function* () {
      const settings = yield* quoteSettings
      const threads = Math.max(1, settings.workers)
      const context = yield* Effect.context<never>()
      const warn = (error: unknown) =>
        void Effect.runForkWith(context)(Effect.logWarning("quotes: route-finder pool error (the pool goes on)", error))
      return yield* Effect.acquireRelease(
        Effect.sync(() => {
          const pool = new Piscina({
            filename: new URL(`../../../workers/route-finder${ext}`, import.meta.url).href,
            minThreads: threads,
            maxThreads: threads,
            idleTimeout: Number.MAX_SAFE_INTEGER,
            // Quotes queue while every thread is busy; the per-quote timeout bounds the wait.
            concurrentTasksPerWorker: 1,
            // An idle thread waits for tasks with Atomics.waitAsync, not Atomics.wait ("sync", the default, blocks
            // its event loop): its loop runs, so the deltas pushed to it (workers/DeltaPush.ts) are applied as they
            // come, off the next quote's path, and do not pile up in the channel of a thread that gets no task.
            atomics: "async"
          })
          // Piscina emits `error` when a worker answers a task it no longer tracks (one aborted as it finished: see
          // RouteFinder's runaway abort); an EventEmitter error without a listener would end the process.
          pool.on("error", warn)
          return pool
        }),
        (pool) => Effect.promise(() => pool.destroy())
      )
    })
  )
}
