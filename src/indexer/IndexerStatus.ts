import { Context, type Duration, Effect, Layer, Option, Stream, SubscriptionRef } from "effect"

/** `stopped`: a confirmed reorg deeper than FINALITY_DEPTH (`lastError` says what to do); an operator decides. */
export type IndexerPhase = "starting" | "waiting-for-lock" | "backfilling" | "following" | "retrying" | "stopped"

export interface IndexerStatusSnapshot {
  readonly chainId: number
  readonly phase: IndexerPhase
  /** Last block whose rows are committed (the checkpoint); null before the first batch. */
  readonly lastIndexedBlock: bigint | null
  readonly lastIndexedTimestamp: bigint | null
  /** Chain head seen at the last poll. */
  readonly head: bigint | null
  readonly lagBlocks: bigint | null
  /** Seconds between now and the timestamp of the last indexed block. */
  readonly lagSeconds: number | null
  /** Events (logs) committed per second over the last batches. */
  readonly eventsPerSecond: number
  readonly eventsTotal: number
  /** True once the indexer reached the head it saw (and stays true while it follows it). */
  readonly ready: boolean
  readonly reorgs: number
  readonly lastError: string | null
  readonly updatedAt: number
}

/**
 * The indexer's progress as a service: read by `_meta` in GraphQL and the exchange route `/api/v1/indexer/status`
 * (its issue), and awaited by tests ("wait until block N is committed") instead of sleeping.
 */
export class IndexerStatus extends Context.Service<
  IndexerStatus,
  {
    readonly get: Effect.Effect<IndexerStatusSnapshot>
    readonly update: (f: (s: IndexerStatusSnapshot) => IndexerStatusSnapshot) => Effect.Effect<void>
    readonly changes: Stream.Stream<IndexerStatusSnapshot>
    /** Waits until the checkpoint is at or past `block`; fails with a timeout after `timeout`. */
    readonly awaitBlock: (block: bigint, timeout?: Duration.Input) => Effect.Effect<IndexerStatusSnapshot, Error>
  }
>()("app/indexer/IndexerStatus") {
  static readonly layer = (chainId: number) =>
    Layer.effect(
      IndexerStatus,
      Effect.gen(function* () {
        const ref = yield* SubscriptionRef.make<IndexerStatusSnapshot>({
          chainId,
          phase: "starting",
          lastIndexedBlock: null,
          lastIndexedTimestamp: null,
          head: null,
          lagBlocks: null,
          lagSeconds: null,
          eventsPerSecond: 0,
          eventsTotal: 0,
          ready: false,
          reorgs: 0,
          lastError: null,
          updatedAt: Date.now()
        })
        const changes = SubscriptionRef.changes(ref)
        return IndexerStatus.of({
          get: SubscriptionRef.get(ref).pipe(
            Effect.map((s) => ({
              ...s,
              lagSeconds:
                s.lastIndexedTimestamp === null
                  ? null
                  : Math.max(0, Math.round(Date.now() / 1000 - Number(s.lastIndexedTimestamp)))
            }))
          ),
          update: (f) => SubscriptionRef.update(ref, (s) => ({ ...f(s), updatedAt: Date.now() })),
          changes,
          awaitBlock: (block, timeout = "30 seconds") =>
            changes.pipe(
              Stream.filter((s) => s.lastIndexedBlock !== null && s.lastIndexedBlock >= block),
              Stream.runHead,
              Effect.flatMap(
                Option.match({
                  onNone: () => Effect.fail(new Error("status stream ended")),
                  onSome: Effect.succeed
                })
              ),
              Effect.timeoutOrElse({
                duration: timeout,
                orElse: () =>
                  Effect.flatMap(SubscriptionRef.get(ref), (s) =>
                    Effect.fail(
                      new Error(
                        `indexer did not reach block ${block} (at ${s.lastIndexedBlock}, ${s.phase}, ${s.lastError})`
                      )
                    )
                  )
              })
            )
        })
      })
    )
}
