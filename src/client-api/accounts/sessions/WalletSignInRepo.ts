import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type User, UserRow } from "../users/User.ts"
import type { SessionDraft } from "./Sessions.ts"
import { signInLimits } from "./SignInLimits.ts"

/** What the sign-in statement did. */
export type WalletSignInOutcome =
  /** The nonce was consumed, the user found or created, the session stored. */
  | { readonly _tag: "SignedIn"; readonly user: User }
  /** The user is banned: nothing written (the nonce stays usable), unless a ban raced the statement (then it is spent). */
  | { readonly _tag: "Banned" }
  /** The nonce is not usable (used, expired, exhausted, unknown, another address's): nothing written. */
  | { readonly _tag: "NonceRejected" }

const Flags = Schema.Struct({
  consumed: Schema.Boolean,
  usableButBanned: Schema.Boolean,
  sessionStored: Schema.Boolean
})
const decodeFlags = Schema.decodeUnknownEffect(Flags)
const decodeUser = Schema.decodeUnknownEffect(UserRow)

/**
 * The write of a wallet sign-in as one SQL statement, so one round trip: consume the nonce, find or create the user
 * (`admin` only ever promotes), store the session. It writes what the former transaction of three statements wrote
 * (WalletNonces.consume, UsersRepo.upsertWalletUser, SessionsRepo.insert) under the same conditions: the nonce is
 * consumed only if unused, unexpired, not exhausted, bound to the address — and the user not banned, which the
 * transaction expressed by rolling back. Of two concurrent statements with one nonce exactly one consumes it (the
 * UPDATE re-checks `used_at IS NULL` on the locked row). The user row is the upsert's RETURNING, so a ban committed
 * meanwhile is seen and no session is stored.
 */
export class WalletSignInRepo extends Context.Service<
  WalletSignInRepo,
  {
    readonly signIn: (input: {
      readonly nonce: string
      readonly address: string
      readonly admin: boolean
      readonly session: SessionDraft
    }) => Effect.Effect<WalletSignInOutcome>
  }
>()("app/sessions/WalletSignInRepo") {
  static readonly layer = Layer.effect(
    WalletSignInRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { nonceMaxFailures } = yield* Effect.orDie(signInLimits)
      return WalletSignInRepo.of({
        signIn: ({ address, admin, nonce, session }) =>
          sql`
            WITH usable AS (
              SELECT nonce FROM wallet_nonces
              WHERE nonce = ${nonce} AND address = ${address} AND used_at IS NULL AND expires_at > now()
                AND failed_attempts < ${nonceMaxFailures}
            ), banned AS (
              SELECT 1 FROM users WHERE wallet_address = ${address} AND banned_at IS NOT NULL
            ), consumed AS (
              UPDATE wallet_nonces SET used_at = now()
              WHERE nonce = ${nonce} AND address = ${address} AND used_at IS NULL AND expires_at > now()
                AND failed_attempts < ${nonceMaxFailures} AND NOT EXISTS (SELECT 1 FROM banned)
              RETURNING nonce
            ), account AS (
              INSERT INTO users (idp_did, wallet_address, is_admin)
              SELECT ${`wallet:${address}`}, ${address}, ${admin} FROM consumed
              ON CONFLICT (wallet_address) DO UPDATE SET is_admin = users.is_admin OR excluded.is_admin
              RETURNING *
            ), stored AS (
              INSERT INTO sessions (id, user_id, method, created_at, expires_at, signed_in_at)
              SELECT ${session.id}, account.id, ${session.method}, ${session.createdAt}, ${session.expiresAt},
                     ${session.signedInAt}
              FROM account WHERE account.banned_at IS NULL
              RETURNING id
            )
            SELECT EXISTS (SELECT 1 FROM consumed) AS consumed,
                   EXISTS (SELECT 1 FROM usable) AND EXISTS (SELECT 1 FROM banned) AS usable_but_banned,
                   EXISTS (SELECT 1 FROM stored) AS session_stored, account.*
            FROM (SELECT 1) AS one LEFT JOIN account ON true`.pipe(
            Effect.flatMap((rows) =>
              Effect.flatMap(decodeFlags(rows[0]), (flags): Effect.Effect<WalletSignInOutcome, Schema.SchemaError> => {
                if (flags.sessionStored) {
                  return Effect.map(decodeUser(rows[0]), (user) => ({ _tag: "SignedIn", user }) as const)
                }
                return Effect.succeed(
                  flags.consumed || flags.usableButBanned ? { _tag: "Banned" } : { _tag: "NonceRejected" }
                )
              })
            ),
            Effect.orDie
          )
      })
    })
  )
}
