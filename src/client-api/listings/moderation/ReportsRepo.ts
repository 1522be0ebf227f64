import { Context, Data, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ReportRow } from "./Report.ts"

/** The partial unique index token_reports_one_open said no: this user has an open report of this token. */
export class OpenReportExists extends Data.TaggedError("OpenReportExists")<{}> {}

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(ReportRow))
const first = (rows: ReadonlyArray<unknown>) => Effect.map(decodeRows(rows), (r) => Option.fromNullishOr(r[0]))

/** All SQL of token_reports (sql/0022_create_token_reports.sql). */
export class ReportsRepo extends Context.Service<
  ReportsRepo,
  {
    readonly insert: (input: {
      readonly chainId: number
      readonly tokenAddress: string
      readonly reporterId: string
      readonly reason: string
      readonly details: string | null
    }) => Effect.Effect<ReportRow, OpenReportExists>
    readonly findOpen: (chainId: number, token: string, reporterId: string) => Effect.Effect<Option.Option<ReportRow>>
    readonly find: (id: string) => Effect.Effect<Option.Option<ReportRow>>
    /** Oldest first, keyset after the report `after` (by (created_at, id), read in SQL: no timestamp rounding). */
    readonly list: (input: {
      readonly status: "open" | "resolved" | "all"
      readonly after: string | undefined
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<ReportRow>>
    /** Resolves open reports: one by id, or (`allOfToken`) every open report of its token. Runs in the caller's transaction. */
    readonly resolve: (input: {
      readonly id: string
      readonly adminId: string
      readonly resolution: "dismissed" | "hidden"
      readonly note: string | null
      readonly allOfToken: boolean
    }) => Effect.Effect<Option.Option<ReportRow>>
  }
>()("app/moderation/ReportsRepo") {
  static readonly layer = Layer.effect(
    ReportsRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return ReportsRepo.of({
        insert: (input) =>
          sql`INSERT INTO token_reports ${sql.insert({ ...input })} RETURNING *`.pipe(
            Effect.flatMap(first),
            Effect.map(Option.getOrThrow),
            Effect.catchTag("SqlError", (error) =>
              error.reason._tag === "UniqueViolation" && error.reason.constraint === "token_reports_one_open"
                ? Effect.fail(new OpenReportExists())
                : Effect.die(error)
            ),
            Effect.catchTag("SchemaError", Effect.die)
          ),
        findOpen: (chainId, token, reporterId) =>
          sql`
            SELECT * FROM token_reports
            WHERE chain_id = ${chainId} AND token_address = ${token} AND reporter_id = ${reporterId} AND resolved_at IS NULL`.pipe(
            Effect.flatMap(first),
            Effect.orDie
          ),
        find: (id) => sql`SELECT * FROM token_reports WHERE id = ${id}`.pipe(Effect.flatMap(first), Effect.orDie),
        list: ({ after, limit, status }) =>
          sql`
            SELECT * FROM token_reports
            WHERE ${status === "open" ? sql`resolved_at IS NULL` : status === "resolved" ? sql`resolved_at IS NOT NULL` : sql`true`}
              ${after === undefined ? sql`` : sql`AND (created_at, id) > (SELECT created_at, id FROM token_reports WHERE id = ${after})`}
            ORDER BY created_at, id
            LIMIT ${limit}`.pipe(Effect.flatMap(decodeRows), Effect.orDie),
        resolve: ({ adminId, allOfToken, id, note, resolution }) =>
          sql`
            UPDATE token_reports r SET resolution = ${resolution}, resolution_note = ${note}, resolved_by = ${adminId},
              resolved_at = now()
            FROM token_reports target
            WHERE target.id = ${id} AND r.resolved_at IS NULL
              AND ${allOfToken ? sql`r.chain_id = target.chain_id AND r.token_address = target.token_address` : sql`r.id = target.id`}
            RETURNING r.*`.pipe(
            Effect.flatMap(decodeRows),
            Effect.map((rows) => Option.fromNullishOr(rows.find((r) => r.id === id))),
            Effect.orDie
          )
      })
    })
  )
}
