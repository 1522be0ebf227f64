import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { TestDatabase } from "../support/TestDatabase.ts"
import { signNew, tokenProcess } from "./tokens.ts"

layer(TestDatabase, { timeout: "60 seconds" })("session JWT key without JWT_SECRET", (it) => {
  it.effect("is generated once, stored in app_settings, and shared: a token from one process verifies on another", () =>
    Effect.gen(function* () {
      const [a, b] = yield* Effect.all([tokenProcess(), tokenProcess()], { concurrency: "unbounded" })
      const now = new Date()
      const token = yield* signNew(a, now)
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
    })
  )
})
