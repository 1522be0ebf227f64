import { Context, Data, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { type Launch, LaunchRow, type LaunchStatus } from "./Launch.ts"

/** The in-flight unique index said no: the user already has a pending launch of this (chainId, symbol). */
export class InFlightConflict extends Data.TaggedError("InFlightConflict")<{}> {}
/** launch_flows.token_address is unique: another launch already completed with this token. */
export class TokenTaken extends Data.TaggedError("TokenTaken")<{}> {}

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(LaunchRow))
const first = (rows: ReadonlyArray<unknown>) => Effect.map(decodeRows(rows), (r) => Option.fromNullishOr(r[0]))
const isUnique = (error: SqlError, constraint: string) =>
  error.reason._tag === "UniqueViolation" && error.reason.constraint === constraint

/**
 * All SQL of launch_flows (sql/0021_create_launch_flows.sql). Every transition is one conditional statement
 * (`WHERE status = ANY(from)`), so of two concurrent transitions of one launch at most one applies; none means
 * "not found, not yours, or not in a state it may leave that way", which the service sorts out with `find`.
 */
export class LaunchesRepo extends Context.Service<
  LaunchesRepo,
  {
    readonly insert: (input: {
      readonly userId: string
      readonly chainId: number
      readonly name: string
      readonly symbol: string
      readonly description: string | null
      readonly category: string
    }) => Effect.Effect<Launch, InFlightConflict>
    readonly find: (id: string, userId: string) => Effect.Effect<Option.Option<Launch>>
    readonly findInFlight: (userId: string, chainId: number, symbol: string) => Effect.Effect<Option.Option<Launch>>
    readonly pending: (userId: string) => Effect.Effect<ReadonlyArray<Launch>>
    readonly setImage: (id: string, userId: string, image: string) => Effect.Effect<Option.Option<Launch>>
    readonly complete: (id: string, userId: string, token: string) => Effect.Effect<Option.Option<Launch>, TokenTaken>
    readonly fail: (id: string, userId: string) => Effect.Effect<Option.Option<Launch>>
    readonly deleteDraft: (id: string, userId: string) => Effect.Effect<boolean>
  }
>()("app/launches/LaunchesRepo") {
  static readonly layer = Layer.effect(
    LaunchesRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const one = <E>(query: Effect.Effect<ReadonlyArray<unknown>, E | SqlError>) =>
        query.pipe(Effect.flatMap((rows) => Effect.orDie(first(rows))))
      const move = (id: string, userId: string, from: ReadonlyArray<LaunchStatus>, set: Statement.Fragment) =>
        sql`
          UPDATE launch_flows SET ${set}, updated_at = now()
          WHERE id = ${id} AND user_id = ${userId} AND status IN ${sql.in(from)}
          RETURNING *`

      return LaunchesRepo.of({
        insert: (input) =>
          one(sql`INSERT INTO launch_flows ${sql.insert({ ...input })} RETURNING *`).pipe(
            Effect.map(Option.getOrThrow),
            Effect.catchTag("SqlError", (error) =>
              isUnique(error, "launch_flows_one_in_flight") ? Effect.fail(new InFlightConflict()) : Effect.die(error)
            )
          ),
        find: (id, userId) =>
          one(sql`SELECT * FROM launch_flows WHERE id = ${id} AND user_id = ${userId}`).pipe(Effect.orDie),
        findInFlight: (userId, chainId, symbol) =>
          one(sql`
            SELECT * FROM launch_flows
            WHERE user_id = ${userId} AND chain_id = ${chainId} AND lower(symbol) = lower(${symbol})
              AND status IN ('DRAFT', 'IMAGE_UPLOADED')`).pipe(Effect.orDie),
        pending: (userId) =>
          sql`
            SELECT * FROM launch_flows WHERE user_id = ${userId} AND status IN ('DRAFT', 'IMAGE_UPLOADED')
            ORDER BY created_at DESC, id`.pipe(Effect.flatMap(decodeRows), Effect.orDie),
        setImage: (id, userId, image) =>
          one(move(id, userId, ["DRAFT"], sql`status = 'IMAGE_UPLOADED', image = ${image}`)).pipe(Effect.orDie),
        complete: (id, userId, token) =>
          one(
            move(
              id,
              userId,
              ["IMAGE_UPLOADED"],
              sql`status = 'COMPLETED', token_address = ${token}, completed_at = now()`
            )
          ).pipe(
            Effect.catchTag("SqlError", (error) =>
              isUnique(error, "launch_flows_token_address_key") ? Effect.fail(new TokenTaken()) : Effect.die(error)
            )
          ),
        fail: (id, userId) =>
          one(move(id, userId, ["DRAFT", "IMAGE_UPLOADED"], sql`status = 'FAILED', failed_at = now()`)).pipe(
            Effect.orDie
          ),
        deleteDraft: (id, userId) =>
          sql`DELETE FROM launch_flows WHERE id = ${id} AND user_id = ${userId} AND status = 'DRAFT' RETURNING id`.pipe(
            Effect.map((rows) => rows.length > 0),
            Effect.orDie
          )
      })
    })
  )
}
