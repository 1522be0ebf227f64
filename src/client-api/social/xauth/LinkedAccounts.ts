import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { BadRequest } from "../../../platform/ApiError.ts"
import { XAuthCipher } from "./XAuthCipher.ts"
import { LinkedAccount, type StoreTokensRequest } from "./LinkedAccount.ts"

/** `YYYY-MM-DD` names a real day (Date would roll 02-31 over into March). */
const isCalendarDate = (ymd: string) => new Date(`${ymd}T00:00:00Z`).toISOString().slice(0, 10) === ymd

const aad = (userId: string, provider: string, field: "access" | "refresh") => `${userId}|${provider}|${field}`

/** Linked social accounts: tokens encrypted (XAuthCipher) before they reach SQL; one row per user and provider. */
export class LinkedAccounts extends Context.Service<
  LinkedAccounts,
  {
    readonly store: (
      userId: string,
      request: typeof StoreTokensRequest.Type
    ) => Effect.Effect<LinkedAccount, BadRequest>
    /** For server-side use by a future integration (posting shares); no route returns it. */
    readonly accessToken: (userId: string, provider: "x") => Effect.Effect<string | null>
  }
>()("app/xauth/LinkedAccounts") {
  static readonly layer = Layer.effect(
    LinkedAccounts,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const cipher = yield* XAuthCipher
      return LinkedAccounts.of({
        store: Effect.fn("LinkedAccounts.store")(function* (userId, r) {
          const provider = r.provider ?? "x"
          const now = new Date(yield* Clock.currentTimeMillis)
          const expiresAt = r.expiresAt === undefined ? null : new Date(r.expiresAt)
          if (expiresAt !== null && (Number.isNaN(expiresAt.getTime()) || !isCalendarDate(r.expiresAt!.slice(0, 10)))) {
            return yield* new BadRequest({ code: "INVALID_BODY", message: "expiresAt: not a valid ISO 8601 time" })
          }
          const row = {
            userId,
            provider,
            accountId: r.accountId ?? null,
            username: r.username ?? null,
            scope: r.scope ?? null,
            accessTokenEnc: cipher.encrypt(r.accessToken, aad(userId, provider, "access")),
            refreshTokenEnc:
              r.refreshToken === undefined ? null : cipher.encrypt(r.refreshToken, aad(userId, provider, "refresh")),
            keyId: cipher.keyId,
            expiresAt,
            updatedAt: now
          }
          yield* sql`
            INSERT INTO linked_social_accounts ${sql.insert(row)}
            ON CONFLICT (user_id, provider) DO UPDATE SET
              account_id = excluded.account_id, username = excluded.username, scope = excluded.scope,
              access_token_enc = excluded.access_token_enc, refresh_token_enc = excluded.refresh_token_enc,
              key_id = excluded.key_id, expires_at = excluded.expires_at, updated_at = excluded.updated_at`.pipe(
            Effect.orDie
          )
          return new LinkedAccount({
            provider,
            accountId: row.accountId,
            username: row.username,
            scope: row.scope,
            hasRefreshToken: row.refreshTokenEnc !== null,
            expiresAt: expiresAt === null ? null : expiresAt.toISOString(),
            updatedAt: now.toISOString()
          })
        }),
        accessToken: (userId, provider) =>
          sql<{ accessTokenEnc: Uint8Array }>`SELECT access_token_enc FROM linked_social_accounts
            WHERE user_id = ${userId} AND provider = ${provider}`.pipe(
            Effect.orDie,
            Effect.map((rows) => {
              const sealed = rows[0]?.accessTokenEnc
              if (sealed === undefined) return null
              const plain = cipher.decrypt(Buffer.from(sealed), aad(userId, provider, "access"))
              return plain._tag === "Some" ? plain.value : null
            })
          )
      })
    })
  )
}
