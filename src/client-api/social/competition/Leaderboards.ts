import { Clock, Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Chain } from "../../../platform/Chain.ts"
import { deploymentAddresses } from "../../../platform/Deployments.ts"
import { type PeriodName, PERIODS, windowOf } from "./Period.ts"
import { SocialRefreshConfig } from "./SocialRefreshConfig.ts"

export const BOARDS = ["volume", "fuelGiven", "yaps"] as const
export type BoardName = (typeof BOARDS)[number]

export interface EntryRow {
  readonly board: BoardName
  readonly rank: number
  readonly wallet: string
  readonly value: string
  readonly userId: string | null
  readonly username: string | null
  readonly name: string | null
}

export interface RefreshRow {
  readonly period: PeriodName
  readonly startsAt: Date | null
  readonly endsAt: Date | null
  readonly computedAt: Date
  readonly indexedBlock: string | null
}

/** Advisory lock key of the refresh: API nodes sharing a database take turns. */
const REFRESH_LOCK = 0x6c6272 // "lbr"

/**
 * Precomputed leaderboards: `refresh` recomputes every board of every period from the indexed tables and replaces
 * `leaderboard_entries` in one transaction; reads only read that table.
 */
export class Leaderboards extends Context.Service<
  Leaderboards,
  {
    readonly refresh: Effect.Effect<void>
    readonly read: (
      period: PeriodName,
      limit: number
    ) => Effect.Effect<{
      readonly refreshed: Option.Option<RefreshRow>
      readonly entries: ReadonlyArray<EntryRow>
    }>
  }
>()("app/competition/Leaderboards") {
  static readonly layer = Layer.effect(
    Leaderboards,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const chain = yield* Chain
      const config = yield* SocialRefreshConfig
      // Our own contracts (routers, position manager, vault...) are never traders.
      const contracts = deploymentAddresses(chain.deployments).map((a) => a.toLowerCase())
      const hasComments = sql<{ t: string | null }>`SELECT to_regclass('comments')::text AS t`.pipe(
        Effect.map((rows) => rows[0]?.t != null)
      )

      const within = (column: string, startsAt: Date | null, endsAt: Date | null) =>
        startsAt === null || endsAt === null
          ? sql`true`
          : sql`${sql(column)} >= ${startsAt} AND ${sql(column)} < ${endsAt}`

      const boardQuery = (board: BoardName, startsAt: Date | null, endsAt: Date | null, comments: boolean) => {
        switch (board) {
          case "volume":
            return sql`
              SELECT recipient AS wallet, sum(amount_usd)::numeric AS value FROM swaps
              WHERE chain_id = ${chain.chainId} AND amount_usd IS NOT NULL AND amount_usd > 0
                AND recipient NOT IN ${sql.in(contracts)} AND ${within("block_timestamp", startsAt, endsAt)}
              GROUP BY recipient`
          case "fuelGiven":
            return sql`
              SELECT sender AS wallet, sum(amount) AS value FROM fuel_events
              WHERE chain_id = ${chain.chainId} AND kind = 'given' AND ${within("block_timestamp", startsAt, endsAt)}
              GROUP BY sender`
          case "yaps":
            // Comments land with the comments feature; until its table exists the board is empty.
            return comments
              ? sql`
                SELECT lower(u.wallet_address) AS wallet, count(*)::numeric AS value FROM comments c
                JOIN users u ON u.id = c.author_id
                WHERE u.wallet_address IS NOT NULL AND c.deleted_at IS NULL AND ${within("c.created_at", startsAt, endsAt)}
                GROUP BY u.wallet_address`
              : sql`SELECT NULL::text AS wallet, 0::numeric AS value WHERE false`
        }
      }

      const refresh = Effect.gen(function* () {
        const now = new Date(yield* Clock.currentTimeMillis)
        const comments = yield* hasComments
        yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`SELECT pg_advisory_xact_lock(${REFRESH_LOCK})`
            const block = yield* sql<{
              n: string
            }>`SELECT block_number::text AS n FROM indexer_checkpoints WHERE chain_id = ${chain.chainId}`
            for (const period of PERIODS) {
              const { endsAt, startsAt } = windowOf(period, now)
              yield* sql`DELETE FROM leaderboard_entries WHERE period = ${period}`
              for (const board of BOARDS) {
                yield* sql`
                INSERT INTO leaderboard_entries (period, board, rank, wallet, value)
                SELECT ${period}, ${board}, row_number() OVER (ORDER BY value DESC, wallet ASC), wallet, value
                FROM (${boardQuery(board, startsAt, endsAt, comments)}) b
                WHERE value > 0
                ORDER BY value DESC, wallet ASC
                LIMIT ${config.top}`
              }
              yield* sql`
              INSERT INTO leaderboard_refreshes (period, starts_at, ends_at, computed_at, indexed_block)
              VALUES (${period}, ${startsAt}, ${endsAt}, ${now}, ${block[0]?.n ?? null})
              ON CONFLICT (period) DO UPDATE SET starts_at = excluded.starts_at, ends_at = excluded.ends_at,
                computed_at = excluded.computed_at, indexed_block = excluded.indexed_block`
            }
          })
        )
      }).pipe(Effect.orDie, Effect.withSpan("Leaderboards.refresh"))

      return Leaderboards.of({
        refresh,
        read: (period, limit) =>
          Effect.all(
            {
              refreshed: sql<RefreshRow>`
              SELECT period, starts_at, ends_at, computed_at, indexed_block::text AS indexed_block
              FROM leaderboard_refreshes WHERE period = ${period}`.pipe(
                Effect.map((rows) => Option.fromNullishOr(rows[0]))
              ),
              entries: sql<EntryRow>`
              SELECT e.board, e.rank, e.wallet, e.value::text AS value, u.id AS user_id, u.username, u.name
              FROM leaderboard_entries e
              LEFT JOIN users u ON lower(u.wallet_address) = e.wallet AND u.hidden_at IS NULL
              WHERE e.period = ${period} AND e.rank <= ${limit}
              ORDER BY e.board, e.rank`
            },
            { concurrency: "unbounded" }
          ).pipe(Effect.orDie)
      })
    })
  )
}
