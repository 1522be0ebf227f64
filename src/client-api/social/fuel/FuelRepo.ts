import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress } from "viem"
import type { EventPosition } from "../../../platform/EventCursor.ts"
import { FuelTransaction } from "./Fuel.ts"

/** Which side of a FuelGiven event a wallet is on: the giver (`given`), the creator (`received`), or either. */
export type FuelSide = "given" | "received" | "both"

interface TxRow {
  readonly blockNumber: string
  readonly logIndex: number
  readonly txHash: string
  readonly blockTimestamp: Date
  readonly token: string
  readonly sender: string
  readonly creator: string
  readonly amount: string
  readonly symbol: string | null
  readonly name: string | null
}

export interface CreditRow {
  readonly token: string
  readonly symbol: string | null
  readonly graduated: boolean
  readonly received: string
  readonly withdrawn: string
}

export const toFuelTransaction = (row: TxRow, side: "given" | "received") =>
  new FuelTransaction({
    token: getAddress(row.token),
    tokenSymbol: row.symbol,
    tokenName: row.name,
    counterparty: getAddress(side === "given" ? row.creator : row.sender),
    from: getAddress(row.sender),
    to: getAddress(row.creator),
    amount: row.amount,
    txHash: row.txHash,
    blockNumber: row.blockNumber,
    logIndex: row.logIndex,
    blockTime: row.blockTimestamp.toISOString()
  })

/**
 * SQL over the indexed FuelVault events. Nothing is cached or folded here: every answer is one query over
 * `fuel_events` (a reorg deletes the rows of removed blocks in the indexer's transaction, so reads are reorg-safe by
 * construction). Addresses are stored lower-case by the indexer.
 */
export class FuelRepo extends Context.Service<
  FuelRepo,
  {
    /** Tips (FuelGiven) of `wallet` on `side`, newest first, strictly below `before`; `limit + 1` rows to detect a next page. */
    readonly transactions: (input: {
      readonly chainId: number
      readonly wallet: string
      readonly side: FuelSide
      readonly before: Option.Option<EventPosition>
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<TxRow>>
    /** Per token created by `wallet`: fuel received and withdrawn. */
    readonly creditsByToken: (chainId: number, wallet: string) => Effect.Effect<ReadonlyArray<CreditRow>>
    /** Off-chain credits from claimed gifts (wei). */
    readonly giftCredits: (userId: string) => Effect.Effect<string>
    readonly indexedBlock: (chainId: number) => Effect.Effect<Option.Option<string>>
    /** Number of tips `wallet` sent and received (FuelGiven events). */
    readonly counts: (
      chainId: number,
      wallet: string
    ) => Effect.Effect<{ readonly given: number; readonly received: number }>
  }
>()("app/fuel/FuelRepo") {
  static readonly layer = Layer.effect(
    FuelRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return FuelRepo.of({
        transactions: ({ before, chainId, limit, side, wallet }) => {
          const w = wallet.toLowerCase()
          const who =
            side === "given"
              ? sql`f.sender = ${w}`
              : side === "received"
                ? sql`f.creator = ${w}`
                : sql`(f.sender = ${w} OR f.creator = ${w})`
          const below = Option.match(before, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (f.block_number, f.log_index) < (${p.blockNumber}::bigint, ${p.logIndex})`
          })
          return sql<TxRow>`
            SELECT f.block_number::text AS block_number, f.log_index, f.tx_hash, f.block_timestamp, f.token, f.sender,
                   f.creator, f.amount::text AS amount, t.symbol, t.name
            FROM fuel_events f
            LEFT JOIN tokens t ON t.chain_id = f.chain_id AND t.address = f.token
            WHERE f.chain_id = ${chainId} AND f.kind = 'given' AND ${who} ${below}
            ORDER BY f.block_number DESC, f.log_index DESC
            LIMIT ${limit + 1}`.pipe(Effect.orDie)
        },
        creditsByToken: (chainId, wallet) =>
          sql<CreditRow>`
            SELECT f.token, t.symbol, (t.graduated_at IS NOT NULL) AS graduated,
                   coalesce(sum(f.amount) FILTER (WHERE f.kind = 'given'), 0)::text AS received,
                   coalesce(sum(f.amount) FILTER (WHERE f.kind = 'withdrawn'), 0)::text AS withdrawn
            FROM fuel_events f
            LEFT JOIN tokens t ON t.chain_id = f.chain_id AND t.address = f.token
            WHERE f.chain_id = ${chainId} AND f.creator = ${wallet.toLowerCase()}
            GROUP BY f.token, t.symbol, t.graduated_at
            ORDER BY f.token`.pipe(Effect.orDie),
        giftCredits: (userId) =>
          sql<{
            total: string
          }>`SELECT coalesce(sum(amount), 0)::text AS total FROM gift_claims WHERE user_id = ${userId}`.pipe(
            Effect.map((rows) => rows[0]?.total ?? "0"),
            Effect.orDie
          ),
        indexedBlock: (chainId) =>
          sql<{
            blockNumber: string
          }>`SELECT block_number::text AS block_number FROM indexer_checkpoints WHERE chain_id = ${chainId}`.pipe(
            Effect.map((rows) => Option.fromNullishOr(rows[0]?.blockNumber)),
            Effect.orDie
          ),
        counts: (chainId, wallet) =>
          sql<{ given: number; received: number }>`
            SELECT (SELECT count(*)::int FROM fuel_events WHERE chain_id = ${chainId} AND kind = 'given' AND sender = ${wallet.toLowerCase()}) AS given,
                   (SELECT count(*)::int FROM fuel_events WHERE chain_id = ${chainId} AND kind = 'given' AND creator = ${wallet.toLowerCase()}) AS received`.pipe(
            Effect.map((rows) => rows[0]!),
            Effect.orDie
          )
      })
    })
  )
}
