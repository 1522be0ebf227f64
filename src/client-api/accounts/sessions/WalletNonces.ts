import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { signInLimits } from "./SignInLimits.ts"

/** Why a nonce cannot be used; only for the error message — the consume statement alone decides. */
export type NonceProblem = "unknown" | "other-address" | "used" | "expired" | "exhausted"

/** A nonce is valid this long; the spec's "valid 5 minutes". */
export const NONCE_TTL_SECONDS = 300

/**
 * Sign-in nonces in PostgreSQL (shared by every API process). Validity is measured with the database's clock
 * (`now()`), so processes with skewed clocks agree, and tests expire a nonce by moving its `expires_at` back.
 */
export class WalletNonces extends Context.Service<
  WalletNonces,
  {
    /** A new 32-hex-digit random nonce bound to `address` (checksummed). Also purges long-expired rows. */
    readonly issue: (address: string) => Effect.Effect<{ readonly nonce: string; readonly expiresAt: Date }>
    /** What is wrong with using `nonce` for `address` now, if anything (a read; no lock). */
    readonly check: (nonce: string, address: string) => Effect.Effect<Option.Option<NonceProblem>>
    /**
     * Marks the nonce used if, and only if, it is unused, unexpired and bound to `address`: one statement, so of two
     * concurrent sign-ins with the same nonce exactly one gets `true`. Runs inside the caller's transaction.
     */
    readonly consume: (nonce: string, address: string) => Effect.Effect<boolean>
    /** Counts a failed signature against the nonce; at `maxFailures` it is `exhausted` (check) and cannot be consumed. */
    readonly recordFailure: (nonce: string, address: string) => Effect.Effect<void>
  }
>()("app/sessions/WalletNonces") {
  static readonly layer = Layer.effect(
    WalletNonces,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { nonceMaxFailures } = yield* Effect.orDie(signInLimits)
      return WalletNonces.of({
        issue: (address) => {
          const nonce = randomBytes(16).toString("hex")
          return sql<{ expiresAt: Date }>`
            WITH purged AS (
              DELETE FROM wallet_nonces WHERE nonce IN (
                SELECT nonce FROM wallet_nonces WHERE expires_at < now() - interval '1 hour' LIMIT 100)
            )
            INSERT INTO wallet_nonces (nonce, address, expires_at)
            VALUES (${nonce}, ${address}, now() + make_interval(secs => ${NONCE_TTL_SECONDS}))
            RETURNING expires_at`.pipe(
            Effect.map((rows) => ({ nonce, expiresAt: rows[0]!.expiresAt })),
            Effect.orDie
          )
        },
        check: (nonce, address) =>
          sql<{ address: string; used: boolean; expired: boolean; exhausted: boolean }>`
            SELECT address, used_at IS NOT NULL AS used, expires_at <= now() AS expired,
                   failed_attempts >= ${nonceMaxFailures} AS exhausted
            FROM wallet_nonces WHERE nonce = ${nonce}`.pipe(
            Effect.map((rows) => {
              const row = rows[0]
              if (row === undefined) return Option.some<NonceProblem>("unknown")
              if (row.address !== address) return Option.some<NonceProblem>("other-address")
              if (row.used) return Option.some<NonceProblem>("used")
              if (row.expired) return Option.some<NonceProblem>("expired")
              if (row.exhausted) return Option.some<NonceProblem>("exhausted")
              return Option.none()
            }),
            Effect.orDie
          ),
        consume: (nonce, address) =>
          sql`
            UPDATE wallet_nonces SET used_at = now()
            WHERE nonce = ${nonce} AND address = ${address} AND used_at IS NULL AND expires_at > now()
              AND failed_attempts < ${nonceMaxFailures}
            RETURNING nonce`.pipe(
            Effect.map((rows) => rows.length === 1),
            Effect.orDie
          ),
        recordFailure: (nonce, address) =>
          sql`UPDATE wallet_nonces SET failed_attempts = failed_attempts + 1 WHERE nonce = ${nonce} AND address = ${address}`.pipe(
            Effect.asVoid,
            Effect.orDie
          )
      })
    })
  )
}
