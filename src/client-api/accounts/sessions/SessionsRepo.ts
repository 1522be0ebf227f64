import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { UserRow } from "../users/User.ts"
import type { AuthenticatedSession, SignInMethod } from "./Session.ts"

const SessionWithUser = Schema.Struct({
  sessionId: Schema.String,
  sessionMethod: Schema.Literals(["wallet", "idp"]),
  sessionCreatedAt: Schema.Date,
  sessionExpiresAt: Schema.Date,
  sessionSignedInAt: Schema.Date,
  sessionRevokedAt: Schema.NullOr(Schema.Date),
  ...UserRow.fields
})
const decodeSessions = Schema.decodeUnknownEffect(Schema.Array(SessionWithUser))

export interface SessionRow extends AuthenticatedSession {
  readonly revokedAt: Date | null
}

/** All SQL of the sessions and wallet_states tables. Database failures are defects. */
export class SessionsRepo extends Context.Service<
  SessionsRepo,
  {
    readonly insert: (row: {
      readonly id: string
      readonly userId: string
      readonly method: SignInMethod
      readonly createdAt: Date
      readonly expiresAt: Date
      readonly signedInAt: Date
    }) => Effect.Effect<void>
    /** The session and its user, in one round trip. */
    readonly find: (id: string) => Effect.Effect<Option.Option<SessionRow>>
    /** Marks a live session revoked; false if it was already (a concurrent logout or refresh won). */
    readonly revoke: (id: string, replacedBy?: string) => Effect.Effect<boolean>
    readonly recordWalletState: (row: {
      readonly sessionId: string | null
      readonly userId: string | null
      readonly status: string
      readonly address: string | null
      readonly chainId: number | null
      readonly connector: string | null
    }) => Effect.Effect<void>
  }
>()("app/sessions/SessionsRepo") {
  static readonly layer = Layer.effect(
    SessionsRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return SessionsRepo.of({
        insert: (row) => sql`INSERT INTO sessions ${sql.insert({ ...row })}`.pipe(Effect.asVoid, Effect.orDie),
        find: (id) =>
          sql`
            SELECT s.id AS session_id, s.method AS session_method, s.created_at AS session_created_at,
                   s.expires_at AS session_expires_at, s.signed_in_at AS session_signed_in_at, s.revoked_at AS session_revoked_at, u.*
            FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.id = ${id}`.pipe(
            Effect.flatMap(decodeSessions),
            Effect.map((rows) =>
              Option.map(Option.fromNullishOr(rows[0]), (r): SessionRow => {
                const {
                  sessionCreatedAt,
                  sessionExpiresAt,
                  sessionId,
                  sessionMethod,
                  sessionRevokedAt,
                  sessionSignedInAt,
                  ...user
                } = r
                return {
                  sessionId,
                  method: sessionMethod,
                  createdAt: sessionCreatedAt,
                  expiresAt: sessionExpiresAt,
                  signedInAt: sessionSignedInAt,
                  revokedAt: sessionRevokedAt,
                  user
                }
              })
            ),
            Effect.orDie
          ),
        revoke: (id, replacedBy) =>
          sql`
            UPDATE sessions SET revoked_at = now(), replaced_by = ${replacedBy ?? null}
            WHERE id = ${id} AND revoked_at IS NULL
            RETURNING id`.pipe(
            Effect.map((rows) => rows.length === 1),
            Effect.orDie
          ),
        // Anonymous reports (no user) are kept 30 days: each insert purges up to 100 older ones, as nonces are
        // purged when issued (docs/SECURITY.md: an anonymous loop wrote a row per call forever).
        recordWalletState: (row) =>
          sql`
            WITH purged AS (
              DELETE FROM wallet_states WHERE id IN (
                SELECT id FROM wallet_states WHERE user_id IS NULL AND created_at < now() - interval '30 days' LIMIT 100)
            )
            INSERT INTO wallet_states ${sql.insert({ ...row })}`.pipe(Effect.asVoid, Effect.orDie)
      })
    })
  )
}
