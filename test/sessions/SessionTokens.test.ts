import { assert, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { SessionConfig, type SessionSettings } from "../../src/sessions/SessionConfig.ts"
import { SessionTokens } from "../../src/sessions/SessionTokens.ts"
import { TestDatabase } from "../layers/TestDatabase.ts"

const withoutSecret: SessionSettings = {
  jwtSecret: Option.none(),
  jwtTtl: Duration.days(7),
  cookieSecure: true,
  siweDomains: [],
  siweChainIds: [],
  idp: Option.none(),
  sessionCacheMs: 1000,
  adminWallets: []
}

/** A process's token service; each provide builds a new one, as a new process would. */
const process = SessionTokens.useSync((tokens) => tokens).pipe(
  Effect.provide(SessionTokens.layer.pipe(Layer.provide(SessionConfig.layerWith(withoutSecret))))
)

layer(TestDatabase, { timeout: "60 seconds" })("session JWT key without JWT_SECRET", (it) => {
  it.effect("is generated once, stored in app_settings, and shared: a token from one process verifies on another", () =>
    Effect.gen(function*() {
      const [a, b] = yield* Effect.all([process, process], { concurrency: "unbounded" })
      const now = new Date()
      const token = yield* a.sign({
        userId: crypto.randomUUID(),
        sessionId: crypto.randomUUID(),
        issuedAt: now,
        expiresAt: new Date(now.getTime() + 60_000)
      })
      const claims = yield* b.verify(token, now)
      assert.isString(claims.sessionId)
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ value: unknown }>`SELECT value FROM app_settings WHERE name = 'jwt_secret'`
      assert.strictEqual(rows.length, 1)
      assert.isAtLeast(String(rows[0]!.value).length, 32)
      const expired = yield* Effect.flip(b.verify(token, new Date(now.getTime() + 61_000)))
      assert.strictEqual(expired.reason, "expired")
      const tampered = yield* Effect.flip(b.verify(`${token.slice(0, -2)}xx`, now))
      assert.strictEqual(tampered.reason, "invalid")
    }))
})
