import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { entities, tableOf } from "./Entities.ts"
import { GraphqlConfig } from "./GraphqlConfig.ts"

/**
 * GraphQL's own connections: a pool of GRAPHQL_POOL_SIZE over the process's database (same URL and settings as the
 * shared pool), every statement cancelled by PostgreSQL after GRAPHQL_STATEMENT_TIMEOUT_MS. However many queries a
 * caller sends, they wait for these few connections; the shared pool (sign-in, the exchange, the indexer writer)
 * never sees them.
 */
export const GraphqlPoolLive = Layer.unwrap(
  Effect.gen(function* () {
    const shared = yield* PgClient.PgClient
    const settings = yield* GraphqlConfig
    return PgClient.layer({
      ...shared.config,
      applicationName: "fire-api-graphql",
      maxConnections: settings.poolSize,
      minConnections: 0,
      startupParameters: { ...shared.config.startupParameters, statement_timeout: String(settings.statementTimeoutMs) }
    })
  })
)

/** Estimated rows of the indexed tables (PostgreSQL's statistics), refreshed at most every GRAPHQL_TABLE_SIZES_TTL_MS. */
export class TableSizes extends Context.Service<
  TableSizes,
  {
    /** Refreshes the estimates when they are older than the TTL (one read at a time). */
    readonly refresh: Effect.Effect<void>
    readonly rows: (table: string) => number
  }
>()("app/graphql/TableSizes") {
  static readonly layer = Layer.effect(
    TableSizes,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { tableSizesTtlMs } = yield* GraphqlConfig
      const tables = [...new Set(entities.map(tableOf))]
      let sizes = new Map<string, number>()
      let readAt = Number.NEGATIVE_INFINITY
      // reltuples is the planner's estimate (-1 before the first ANALYZE); n_live_tup follows inserts as they commit.
      const read = sql<{
        relname: string
        rows: number
      }>`SELECT c.relname, greatest(c.reltuples, coalesce(s.n_live_tup, 0), 0)::float8 AS rows
      FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
      WHERE c.relname IN ${sql.in(tables)} AND pg_table_is_visible(c.oid)`.pipe(
        Effect.tap((rows) =>
          Effect.sync(() => {
            sizes = new Map(rows.map((r) => [r.relname, Number(r.rows)]))
          })
        ),
        Effect.catch((error) => Effect.logWarning("graphql: reading table sizes failed; keeping the last ones", error))
      )
      // Requests arriving while a read is under way use the sizes they find (readAt is set before the read starts).
      const refresh = Effect.suspend(() => {
        const now = Date.now()
        if (now - readAt < tableSizesTtlMs) return Effect.void
        readAt = now
        return read
      })
      return TableSizes.of({ refresh, rows: (table) => sizes.get(table) ?? 0 })
    })
  )
}
