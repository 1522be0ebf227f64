import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Queue, Schedule, Stream } from "effect"
import { IndexerEvents } from "./IndexerEvents.ts"
import { IndexerStatus } from "./IndexerStatus.ts"

/** Postgres channel carrying one message per committed indexer batch or rollback (any process may listen). */
export const CHANGES_CHANNEL = "fire_indexer_changes"

/**
 * PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more: the pool list goes along only when the whole message
 * stays under this (about 170 addresses); without it a listener reloads every pool.
 */
export const NOTIFY_PAYLOAD_LIMIT = 7_900

/** This process's id on the channel: a listener tells its own indexer's messages (also on IndexerEvents) from others'. */
export const PROCESS_ORIGIN = randomUUID()

/** What travels on the channel: the change and the indexer's status right after it. */
export interface ChangeMessage {
  readonly kind: "batch" | "reorg"
  /** PROCESS_ORIGIN of the sending process (absent from an indexer of an older version). */
  readonly origin?: string
  readonly chainId: number
  readonly fromBlock: string
  readonly toBlock: string
  readonly pools: number
  readonly tokens: number
  /**
   * The pools the batch (or rollback) touched, lowercase; absent when they did not fit in the payload
   * (NOTIFY_PAYLOAD_LIMIT) or from an indexer of an older version. The quote engine reloads only these pools.
   */
  readonly poolAddresses?: ReadonlyArray<string>
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
            origin: PROCESS_ORIGIN,
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
          yield* pg.notify(CHANGES_CHANNEL, encodeChange(message, change.pools))
        }).pipe(Effect.catchCause((cause) => Effect.logWarning("indexer change notify failed", cause)))
      )
    )
  })
)

/** The message with its pool list when that fits in a NOTIFY payload, else without. */
export const encodeChange = (message: ChangeMessage, pools: ReadonlyArray<string>): string => {
  const listed = JSON.stringify({ ...message, poolAddresses: pools.map((p) => p.toLowerCase()) })
  return listed.length < NOTIFY_PAYLOAD_LIMIT ? listed : JSON.stringify(message)
}

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
