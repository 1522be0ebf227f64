import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Queue, Schedule, Stream } from "effect"
import { IndexerEvents } from "./IndexerEvents.ts"
import { IndexerStatus } from "./IndexerStatus.ts"

/** Postgres channel carrying one message per committed indexer batch or rollback (any process may listen). */
export const CHANGES_CHANNEL = "fire_indexer_changes"

/** What travels on the channel: the change and the indexer's status right after it. */
export interface ChangeMessage {
  readonly kind: "batch" | "reorg"
  readonly chainId: number
  readonly fromBlock: string
  readonly toBlock: string
  readonly pools: number
  readonly tokens: number
  readonly status: {
    readonly phase: string
    readonly eventsPerSecond: number
    readonly reorgs: number
    readonly lastError: string | null
    readonly head: string | null
  }
  readonly at: number
}

/**
 * Runs in the indexer's process: forwards each committed change of the in-process `IndexerEvents` feed to
 * NOTIFY `fire_indexer_changes`, so that API processes (the exchange cache) learn about commits wherever the indexer runs.
 */
export const IndexerChangeNotifierLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const events = yield* IndexerEvents
    const status = yield* IndexerStatus
    const pg = yield* PgClient.PgClient
    const changes = yield* events.subscribe
    yield* Effect.forkScoped(
      Stream.runForEach(changes, (change) =>
        Effect.gen(function* () {
          const s = yield* status.get
          const message: ChangeMessage = {
            kind: change.kind,
            chainId: change.chainId,
            fromBlock: change.fromBlock.toString(),
            toBlock: change.toBlock.toString(),
            pools: change.pools.length,
            tokens: change.tokens.length,
            status: {
              phase: s.phase,
              eventsPerSecond: s.eventsPerSecond,
              reorgs: s.reorgs,
              lastError: s.lastError,
              head: s.head?.toString() ?? null
            },
            at: Date.now()
          }
          yield* pg.notify(CHANGES_CHANNEL, JSON.stringify(message))
        }).pipe(Effect.catchCause((cause) => Effect.logWarning("indexer change notify failed", cause)))
      )
    )
  })
)

/**
 * The exchange side: LISTENs on the channel (its own connection) and calls the registered handlers on each message;
 * `connected` handlers run on every (re)connect, since messages sent while disconnected are lost (the cache clears then).
 */
export class IndexerChangeFeed extends Context.Service<
  IndexerChangeFeed,
  {
    readonly onChange: (f: (message: ChangeMessage) => void) => void
    readonly onConnect: (f: () => void) => void
    readonly last: () => ChangeMessage | undefined
  }
>()("app/exchange/IndexerChangeFeed") {
  static readonly layer = Layer.effect(
    IndexerChangeFeed,
    Effect.gen(function* () {
      const pg = yield* PgClient.PgClient
      const changeHandlers: Array<(m: ChangeMessage) => void> = []
      const connectHandlers: Array<() => void> = []
      let last: ChangeMessage | undefined
      const listen = Effect.scoped(
        Effect.gen(function* () {
          const queue = yield* pg.listen(CHANGES_CHANNEL)
          for (const f of connectHandlers) f()
          for (;;) {
            const n = yield* Queue.take(queue)
            try {
              last = JSON.parse(n.payload) as ChangeMessage
            } catch {
              continue
            }
            for (const f of changeHandlers) f(last)
          }
        })
      )
      yield* Effect.forkScoped(
        listen.pipe(
          Effect.tapCause((cause) =>
            Effect.logWarning("exchange: LISTEN on indexer changes lost; reconnecting", cause)
          ),
          Effect.retry(Schedule.spaced("1 second"))
        )
      )
      return IndexerChangeFeed.of({
        onChange: (f) => void changeHandlers.push(f),
        onConnect: (f) => void connectHandlers.push(f),
        last: () => last
      })
    })
  )
}
