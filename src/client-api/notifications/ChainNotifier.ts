import { Config, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { indexerSettingsConfig } from "../../indexer/IndexerConfig.ts"
import { Notifications } from "./Notifications.ts"

export interface ChainNotifierSettings {
  readonly chainId: number
  /** Events are notified once their block is this deep below the indexer's checkpoint (FINALITY_DEPTH). */
  readonly finalityDepth: number
  readonly pollMs: number
}

/** Blocks scanned per transaction, so a long backlog is worked in bounded steps. */
const RANGE = 5_000

interface FuelRow {
  readonly userId: string
  readonly blockNumber: string
  readonly logIndex: number
  readonly txHash: string
  readonly token: string
  readonly sender: string
  readonly amount: string
}

interface GraduationRow {
  readonly userId: string
  readonly blockNumber: string
  readonly txHash: string
  readonly token: string
}

/**
 * Turns indexed chain events into notifications: FuelVault FuelGiven → FUEL_RECEIVED to the token's creator,
 * FireGraduator Graduated → TOKEN_GRADUATED to the launch's creator (the user whose wallet it is; wallets without a
 * user are skipped). Only blocks at least `finalityDepth` below the indexer checkpoint are read, so a reorg the
 * indexer can handle never reaches a notification; the cursor (notification_cursors) advances in the same transaction
 * as the notifications it covers, under a row lock (one notifier at a time per chain, any number of processes), and
 * every notification carries a dedupe key of its log, so a restart, a second process or a rebuilt index (a reorg
 * deeper than the kept hashes) never notifies an event twice.
 */
export class ChainNotifier extends Context.Service<
  ChainNotifier,
  {
    /** Notifies every final event not notified yet; returns the block the cursor reached (-1 before anything is indexed). */
    readonly runOnce: Effect.Effect<number>
  }
>()("app/notifications/ChainNotifier") {
  static readonly layerWith = (settings: ChainNotifierSettings) =>
    Layer.effect(
      ChainNotifier,
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const notifications = yield* Notifications
        const { chainId, finalityDepth } = settings
        const cursorName = `chain:${chainId}`

        const step = sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO notification_cursors (name, block_number) VALUES (${cursorName}, -1) ON CONFLICT (name) DO NOTHING`
              const [cursorRow] = yield* sql<{ blockNumber: string }>`
            SELECT block_number FROM notification_cursors WHERE name = ${cursorName} FOR UPDATE`
              const cursor = Number(cursorRow!.blockNumber)
              const [checkpoint] = yield* sql<{ blockNumber: string }>`
            SELECT block_number FROM indexer_checkpoints WHERE chain_id = ${chainId}`
              if (checkpoint === undefined) return { reached: cursor, done: true }
              const final = Number(checkpoint.blockNumber) - finalityDepth
              if (final <= cursor) return { reached: cursor, done: true }
              const to = Math.min(final, cursor + RANGE)

              const fuel = yield* sql<FuelRow>`
            SELECT u.id AS user_id, f.block_number, f.log_index, f.tx_hash, f.token, f.sender, f.amount::text AS amount
            FROM fuel_events f JOIN users u ON lower(u.wallet_address) = f.creator
            WHERE f.chain_id = ${chainId} AND f.kind = 'given' AND f.block_number > ${cursor} AND f.block_number <= ${to}
            ORDER BY f.block_number, f.log_index`
              for (const f of fuel) {
                yield* notifications.notify(
                  f.userId,
                  "FUEL_RECEIVED",
                  {
                    chainId,
                    token: f.token,
                    sender: f.sender,
                    amount: f.amount,
                    txHash: f.txHash,
                    logIndex: f.logIndex,
                    blockNumber: Number(f.blockNumber)
                  },
                  { dedupeKey: `fuel:${chainId}:${f.txHash}:${f.logIndex}` }
                )
              }
              const graduated = yield* sql<GraduationRow>`
            SELECT u.id AS user_id, g.block_number, g.tx_hash, g.token
            FROM graduation_events g
            JOIN launches l ON l.chain_id = g.chain_id AND l.token = g.token
            JOIN users u ON lower(u.wallet_address) = l.creator
            WHERE g.chain_id = ${chainId} AND g.step = 'graduated' AND g.block_number > ${cursor} AND g.block_number <= ${to}
            ORDER BY g.block_number, g.log_index`
              for (const g of graduated) {
                yield* notifications.notify(
                  g.userId,
                  "TOKEN_GRADUATED",
                  {
                    chainId,
                    token: g.token,
                    txHash: g.txHash,
                    blockNumber: Number(g.blockNumber)
                  },
                  { dedupeKey: `graduated:${chainId}:${g.token}` }
                )
              }
              yield* sql`UPDATE notification_cursors SET block_number = ${to} WHERE name = ${cursorName}`
              return { reached: to, done: to === final }
            })
          )
          .pipe(Effect.orDie)

        const runOnce: Effect.Effect<number> = Effect.gen(function* () {
          for (;;) {
            const { done, reached } = yield* step
            if (done) return reached
          }
        }).pipe(Effect.withSpan("ChainNotifier.runOnce"))
        return ChainNotifier.of({ runOnce })
      })
    )

  /** The notifier fiber: a round every `pollMs` for the life of the layer. */
  static readonly fiber = (pollMs: number) =>
    Layer.effectDiscard(
      Effect.gen(function* () {
        const notifier = yield* ChainNotifier
        yield* Effect.forkScoped(
          notifier.runOnce.pipe(
            Effect.catchCause((cause) => Effect.logError("notifications: chain notifier round failed", cause)),
            Effect.andThen(Effect.sleep(pollMs)),
            Effect.forever
          )
        )
      })
    )

  /** Service and fiber, with FINALITY_DEPTH as the indexer reads it (same default per chain) and NOTIFY_CHAIN_POLL_MS. */
  static readonly layer = (chainId: number) =>
    Layer.unwrap(
      Effect.gen(function* () {
        const { finalityDepth } = yield* indexerSettingsConfig(chainId)
        const pollMs = yield* Config.Int("NOTIFY_CHAIN_POLL_MS").pipe(Config.withDefault(1000))
        return ChainNotifier.fiber(pollMs).pipe(
          Layer.provideMerge(ChainNotifier.layerWith({ chainId, finalityDepth, pollMs }))
        )
      })
    )
}
