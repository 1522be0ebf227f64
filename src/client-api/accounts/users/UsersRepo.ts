import { Context, Data, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { type User, UserRow } from "./User.ts"

export interface ProfilePatch {
  readonly name?: string | null
  readonly bio?: string | null
  readonly image?: string | null
  readonly username?: string | null
}

export type ModerationAction = "ban" | "unban" | "grant_admin" | "revoke_admin" | "hide" | "unhide"

/** A username unique violation (two users racing for one name): the service turns it into 409 USERNAME_TAKEN. */
export class UsernameConflict extends Data.TaggedError("UsernameConflict")<{}> {}

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(UserRow))
const one = (rows: ReadonlyArray<unknown>) => Effect.map(decodeRows(rows), (users) => Option.fromNullishOr(users[0]))

const isUniqueViolation = (error: SqlError, constraint: string) =>
  error.reason._tag === "UniqueViolation" && error.reason.constraint === constraint

/** All SQL of the users and user_admin_actions tables. Database failures are defects (5xx), never API errors. */
export class UsersRepo extends Context.Service<
  UsersRepo,
  {
    readonly findById: (id: string) => Effect.Effect<Option.Option<User>>
    readonly findByWallet: (address: string) => Effect.Effect<Option.Option<User>>
    /** Users of many (checksummed) wallets at once, keyed by wallet address. */
    readonly findByWallets: (addresses: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, User>>
    /** Finds or creates the user of a wallet (`idp_did = wallet:<address>`); `admin` only ever promotes. */
    readonly upsertWalletUser: (address: string, admin: boolean) => Effect.Effect<User>
    readonly upsertIdpUser: (did: string) => Effect.Effect<User>
    readonly usernameExists: (username: string) => Effect.Effect<boolean>
    readonly updateProfile: (id: string, patch: ProfilePatch) => Effect.Effect<Option.Option<User>, UsernameConflict>
    /** Applies flag changes and writes one audit row per action, in one transaction. */
    readonly moderate: (input: {
      readonly adminId: string
      readonly userId: string
      readonly actions: ReadonlyArray<ModerationAction>
      readonly reason: string | null
    }) => Effect.Effect<Option.Option<User>>
  }
>()("app/users/UsersRepo") {
  static readonly layer = Layer.effect(
    UsersRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const flagUpdates: Record<ModerationAction, string> = {
        ban: "banned_at = coalesce(banned_at, now())",
        unban: "banned_at = NULL",
        grant_admin: "is_admin = true",
        revoke_admin: "is_admin = false",
        hide: "hidden_at = coalesce(hidden_at, now())",
        unhide: "hidden_at = NULL"
      }
      return UsersRepo.of({
        findById: (id) => sql`SELECT * FROM users WHERE id = ${id}`.pipe(Effect.flatMap(one), Effect.orDie),
        findByWallet: (address) =>
          sql`SELECT * FROM users WHERE wallet_address = ${address}`.pipe(Effect.flatMap(one), Effect.orDie),
        findByWallets: (addresses) =>
          addresses.length === 0
            ? Effect.succeed(new Map())
            : sql`SELECT * FROM users WHERE wallet_address = ANY(${addresses}::text[])`.pipe(
                Effect.flatMap(decodeRows),
                Effect.map((users) => new Map(users.map((u) => [u.walletAddress!, u]))),
                Effect.orDie
              ),
        upsertWalletUser: (address, admin) =>
          sql`
            INSERT INTO users (idp_did, wallet_address, is_admin) VALUES (${`wallet:${address}`}, ${address}, ${admin})
            ON CONFLICT (wallet_address) DO UPDATE SET is_admin = users.is_admin OR excluded.is_admin
            RETURNING *`.pipe(Effect.flatMap(one), Effect.map(Option.getOrThrow), Effect.orDie),
        upsertIdpUser: (did) =>
          sql`
            INSERT INTO users (idp_did) VALUES (${did})
            ON CONFLICT (idp_did) DO UPDATE SET idp_did = excluded.idp_did
            RETURNING *`.pipe(Effect.flatMap(one), Effect.map(Option.getOrThrow), Effect.orDie),
        usernameExists: (username) =>
          sql`SELECT 1 FROM users WHERE username = ${username}`.pipe(
            Effect.map((rows) => rows.length > 0),
            Effect.orDie
          ),
        updateProfile: (id, patch) => {
          const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
          const query =
            Object.keys(set).length === 0
              ? sql`SELECT * FROM users WHERE id = ${id}`
              : sql`UPDATE users SET ${sql.update({ ...set, updatedAt: new Date() })} WHERE id = ${id} RETURNING *`
          return query.pipe(
            Effect.catchTag("SqlError", (error) =>
              isUniqueViolation(error, "users_username_key") ? Effect.fail(new UsernameConflict()) : Effect.die(error)
            ),
            Effect.flatMap((rows) => Effect.orDie(one(rows)))
          )
        },
        moderate: ({ actions, adminId, reason, userId }) =>
          sql
            .withTransaction(
              Effect.gen(function* () {
                const locked = yield* sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`
                if (locked.length === 0) return Option.none()
                if (actions.length > 0) {
                  const assignments = actions.map((a) => flagUpdates[a]).join(", ")
                  yield* sql`UPDATE users SET ${sql.unsafe(assignments)}, updated_at = now() WHERE id = ${userId}`
                  const [first, ...rest] = actions.map((action) => ({ adminId, userId, action, reason }))
                  yield* sql`INSERT INTO user_admin_actions ${sql.insert([first!, ...rest])}`
                }
                return yield* Effect.flatMap(sql`SELECT * FROM users WHERE id = ${userId}`, one)
              })
            )
            .pipe(Effect.orDie)
      })
    })
  )
}
