import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import type { SessionDraft } from "../../src/client-api/accounts/sessions/Sessions.ts"
import { WalletNonces } from "../../src/client-api/accounts/sessions/WalletNonces.ts"
import { WalletSignInRepo } from "../../src/client-api/accounts/sessions/WalletSignInRepo.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { newAccount } from "./support.ts"

const draft = (): SessionDraft => {
  const now = new Date(Math.floor(Date.now() / 1000) * 1000)
  return {
    id: randomUUID(),
    method: "wallet",
    createdAt: now,
    expiresAt: new Date(now.getTime() + 3600_000),
    signedInAt: now
  }
}

/** A fresh address with an issued nonce. */
const issued = Effect.gen(function* () {
  const address = newAccount().address
  const { nonce } = yield* WalletNonces.use((n) => n.issue(address))
  return { address, nonce }
})

const signIn = (input: { address: string; nonce: string; admin?: boolean }) =>
  WalletSignInRepo.use((repo) => repo.signIn({ admin: false, ...input, session: draft() }))

const nonceUsed = (nonce: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ used: boolean }>`SELECT used_at IS NOT NULL AS used FROM wallet_nonces WHERE nonce = ${nonce}`.pipe(
      Effect.map((rows) => rows[0]!.used)
    )
  )
const sessionsOf = (address: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ n: number }>`
      SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.wallet_address = ${address}`.pipe(
      Effect.map((rows) => rows[0]!.n)
    )
  )
const ban = (address: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`UPDATE users SET banned_at = now() WHERE wallet_address = ${address}`
  )

layer(Layer.mergeAll(WalletSignInRepo.layer, WalletNonces.layer).pipe(Layer.provideMerge(TestDatabase)), {
  timeout: "60 seconds"
})("wallet sign-in write: one statement (nonce, user, session)", (it) => {
  it.effect(
    "a usable nonce: consumed, the user created with its wallet DID, the session stored with the draft's times",
    () =>
      Effect.gen(function* () {
        const { address, nonce } = yield* issued
        const session = draft()
        const outcome = yield* WalletSignInRepo.use((repo) => repo.signIn({ address, nonce, admin: false, session }))
        assert.strictEqual(outcome._tag, "SignedIn")
        if (outcome._tag !== "SignedIn") return
        assert.strictEqual(outcome.user.walletAddress, address)
        assert.strictEqual(outcome.user.idpDid, `wallet:${address}`)
        assert.isFalse(outcome.user.isAdmin)
        assert.isTrue(yield* nonceUsed(nonce))
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ userId: string; method: string; expiresAt: Date; signedInAt: Date }>`
        SELECT user_id, method, expires_at, signed_in_at FROM sessions WHERE id = ${session.id}`
        assert.strictEqual(row!.userId, outcome.user.id)
        assert.strictEqual(row!.method, "wallet")
        assert.strictEqual(row!.expiresAt.getTime(), session.expiresAt.getTime())
        assert.strictEqual(row!.signedInAt.getTime(), session.signedInAt.getTime())
      })
  )

  it.effect("a used, unknown or other address's nonce: NonceRejected, nothing written", () =>
    Effect.gen(function* () {
      const { address, nonce } = yield* issued
      assert.strictEqual((yield* signIn({ address, nonce }))._tag, "SignedIn")
      assert.strictEqual((yield* signIn({ address, nonce }))._tag, "NonceRejected")
      assert.strictEqual((yield* signIn({ address, nonce: "0".repeat(32) }))._tag, "NonceRejected")
      const other = yield* issued
      assert.strictEqual((yield* signIn({ address, nonce: other.nonce }))._tag, "NonceRejected")
      assert.isFalse(yield* nonceUsed(other.nonce))
      assert.strictEqual(yield* sessionsOf(address), 1)
      assert.strictEqual(yield* sessionsOf(other.address), 0)
    })
  )

  it.effect("the same user signs in again: found, not duplicated; ADMIN_WALLETS promotes and never demotes", () =>
    Effect.gen(function* () {
      const first = yield* issued
      const a = yield* signIn(first)
      const second = yield* WalletNonces.use((n) => n.issue(first.address))
      const b = yield* signIn({ address: first.address, nonce: second.nonce, admin: true })
      const third = yield* WalletNonces.use((n) => n.issue(first.address))
      const c = yield* signIn({ address: first.address, nonce: third.nonce, admin: false })
      assert.isTrue(a._tag === "SignedIn" && b._tag === "SignedIn" && c._tag === "SignedIn")
      if (a._tag !== "SignedIn" || b._tag !== "SignedIn" || c._tag !== "SignedIn") return
      assert.strictEqual(b.user.id, a.user.id)
      assert.isFalse(a.user.isAdmin)
      assert.isTrue(b.user.isAdmin)
      assert.isTrue(c.user.isAdmin)
      assert.strictEqual(yield* sessionsOf(first.address), 3)
    })
  )

  it.effect("a banned user: Banned, the nonce not consumed and no session (as the rolled-back transaction was)", () =>
    Effect.gen(function* () {
      const first = yield* issued
      yield* signIn(first)
      yield* ban(first.address)
      const { nonce } = yield* WalletNonces.use((n) => n.issue(first.address))
      assert.strictEqual((yield* signIn({ address: first.address, nonce }))._tag, "Banned")
      assert.isFalse(yield* nonceUsed(nonce))
      assert.strictEqual(yield* sessionsOf(first.address), 1)
      // A banned user with an unusable nonce hears about the nonce first, as before.
      assert.strictEqual((yield* signIn({ address: first.address, nonce: first.nonce }))._tag, "NonceRejected")
    })
  )

  it.effect("eight concurrent statements with one nonce: exactly one session", () =>
    Effect.gen(function* () {
      const { address, nonce } = yield* issued
      const outcomes = yield* Effect.all(
        Array.from({ length: 8 }, () => signIn({ address, nonce })),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(outcomes.filter((o) => o._tag === "SignedIn").length, 1)
      assert.strictEqual(outcomes.filter((o) => o._tag === "NonceRejected").length, 7)
      assert.strictEqual(yield* sessionsOf(address), 1)
    })
  )
})
