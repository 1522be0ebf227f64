import { Cause, Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import { bootstrapPools } from "./bootstrap/Bootstrap.ts"
import { ChainReader } from "./fetch/ChainReader.ts"
import { IndexerConfig } from "./IndexerConfig.ts"
import { IndexerEvents } from "./IndexerEvents.ts"
import { baseTokensOf, IndexerSource } from "./IndexerSource.ts"
import { IndexerStatus } from "./IndexerStatus.ts"
import { makeLoop } from "./loop/Loop.ts"
import { makeProgress } from "./loop/Progress.ts"
import { Store } from "./store/Store.ts"

export { ReorgTooDeep } from "./loop/Rollback.ts"

/** The innermost message of a failure (SqlError and RpcError wrap the driver's error). */
const describe = (cause: Cause.Cause<unknown>): string => {
  const parts: Array<string> = []
  let e: unknown = Cause.squash(cause)
  for (let i = 0; i < 4 && e !== undefined && e !== null; i++) {
    const m = (e as { message?: unknown }).message
    if (typeof m === "string" && m !== "" && !parts.includes(m)) parts.push(m)
    e = (e as { cause?: unknown }).cause
  }
  return (parts.join(": ") || Cause.pretty(cause)).slice(0, 1000)
}

/** The failure that ends a run of the loop (retrying the step cannot help), if the cause holds one. */
const fatalOf = <E extends { readonly _tag: string }>(cause: Cause.Cause<E>) =>
  Option.filter(Cause.findErrorOption(cause), (e) => e._tag === "ReorgTooDeep" || e._tag === "WriterLockLost")

/**
 * The wait before retrying a step that failed `failures` times in a row: 1 s doubling up to 60 s, so a failure no
 * retry cures (a fatal eth_getLogs of one block, a provider that refuses the request) is not repeated every second.
 */
export const failedStepDelayMs = (failures: number) => Math.min(60_000, 1000 * 2 ** Math.max(0, failures - 1))

/**
 * The chain follower: takes the writer lock, then loops forever: poll the head, check that the chain still extends
 * the checkpoint (else roll back to the common ancestor), index the next range (up to INDEXER_MAX_BLOCK_RANGE blocks)
 * in one transaction, publish what changed (see loop/). At the head it polls every INDEXER_POLL_MS. A failed step is
 * retried after 1 s, longer while it keeps failing (`failedStepDelayMs`); a reorg too deep and a lost writer lock end
 * the run.
 */
export const runIndexer = Effect.gen(function* () {
  const source = yield* IndexerSource
  const settings = yield* IndexerConfig
  const reader = yield* ChainReader
  const store = yield* Store
  const progress = yield* makeProgress

  yield* progress.waitingForLock
  yield* store.lock(settings.lockKey, Effect.logInfo("indexer: another process holds the writer lock; waiting"))
  yield* progress.starting

  const head0 = yield* reader.head
  const base = baseTokensOf(source)
  const metadata = new Map(
    yield* Effect.forEach(base, (t) => Effect.map(reader.tokenMetadata(t, head0), (m) => [t, m] as const))
  )
  yield* store.ensureTokens(metadata)
  // Tracked pools that predate the start block (or the checkpoint): read from the chain before the loop loads its state.
  yield* bootstrapPools
  const loop = yield* makeLoop(progress)

  let failures = 0
  for (;;) {
    const more = yield* loop.step.pipe(
      Effect.tap(() =>
        Effect.sync(() => {
          failures = 0
        })
      ),
      Effect.catchCause((cause) => {
        const message = describe(cause)
        const fatal = fatalOf(cause)
        if (Option.isSome(fatal) && fatal.value._tag === "ReorgTooDeep")
          return Effect.logError(`indexer: ${message}`).pipe(
            Effect.andThen(loop.stop),
            Effect.andThen(progress.stopped(message)),
            Effect.andThen(Effect.failCause(cause))
          )
        if (Option.isSome(fatal)) {
          // Another process may be the writer now: stop here (the supervisor restarts, which waits for the lock).
          return loop.stop.pipe(Effect.andThen(progress.failed(message)), Effect.andThen(Effect.failCause(cause)))
        }
        return Effect.logError(`indexer: batch failed, retrying: ${message}`).pipe(
          Effect.andThen(progress.failed(message)),
          Effect.andThen(loop.recover),
          Effect.andThen(Effect.suspend(() => Effect.sleep(Duration.millis(failedStepDelayMs(++failures))))),
          Effect.as(true)
        )
      })
    )
    if (!more) yield* reader.awaitNewHead(loop.lastHead(), settings.pollIntervalMs)
  }
})

/**
 * The loop already retries a failed step; this restarts the whole indexer (state reloaded from the database) when it
 * dies of something unexpected or loses the writer lock, every 5 s. A reorg deeper than the kept block hashes is not
 * retried: the index and the chain disagree below finality, which needs an operator (or a fresh index), so it stops
 * and says so.
 */
const supervised = runIndexer.pipe(
  // Each run holds the writer lock's connection for its own lifetime: released (unlocked) before a restart.
  Effect.scoped,
  // Every cause but an interruption (the layer closing) becomes the error that `retry` sees.
  Effect.catchCause((cause) =>
    Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause as Cause.Cause<never>) : Effect.fail(cause)
  ),
  Effect.tapError((cause) => Effect.logError(`indexer stopped: ${Cause.pretty(cause)}`)),
  Effect.retry({
    while: (cause) => !Option.exists(fatalOf(cause), (e) => e._tag === "ReorgTooDeep"),
    schedule: Schedule.spaced("5 seconds")
  }),
  Effect.ignore
)

/** The pipeline's services over an `IndexerSource` (and SqlClient); `runIndexer` needs exactly these. */
export const IndexerServicesLive = (chainId: number) =>
  Layer.mergeAll(ChainReader.layer, Store.layer(chainId)).pipe(
    Layer.provideMerge(Layer.mergeAll(IndexerStatus.layer(chainId), IndexerEvents.layer))
  )

/** Runs the indexer as a background fiber for the lifetime of the layer (interrupted when the layer's scope closes). */
export class Indexer extends Context.Service<Indexer, { readonly started: true }>()("app/indexer/Indexer") {
  static readonly layer = Layer.effect(
    Indexer,
    Effect.gen(function* () {
      yield* Effect.forkScoped(supervised)
      return Indexer.of({ started: true })
    })
  )
}
