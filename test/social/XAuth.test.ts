import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { XAuthCipher } from "../../src/client-api/social/xauth/XAuthCipher.ts"
import { bearer, client, postJson } from "../support/http.ts"
import { newAccount, tokenFor } from "../sessions/support.ts"
import { SocialServer } from "./support.ts"

const key = randomBytes(32)

describe("AES-256-GCM cipher (pure)", () => {
  it("round-trips; a fresh IV per value; another AAD, key or a flipped bit does not decrypt", () => {
    const cipher = XAuthCipher.make(key)
    const a = cipher.encrypt("secret-token", "u1|x|access")
    const b = cipher.encrypt("secret-token", "u1|x|access")
    assert.notDeepEqual(a, b, "random IV")
    assert.deepStrictEqual(cipher.decrypt(a, "u1|x|access"), Option.some("secret-token"))
    assert.isTrue(Option.isNone(cipher.decrypt(a, "u2|x|access")), "bound to its row")
    assert.isTrue(Option.isNone(XAuthCipher.make(randomBytes(32)).decrypt(a, "u1|x|access")))
    const flipped = Buffer.from(a)
    flipped[flipped.length - 1]! ^= 1
    assert.isTrue(Option.isNone(cipher.decrypt(flipped, "u1|x|access")))
  })
})

layer(SocialServer({ X_AUTH_ENCRYPTION_KEY: key.toString("base64") }, ["client"]), {
  timeout: "90 seconds",
  excludeTestServices: true
})("POST /v1/x-auth/store-tokens", (it) => {
  it.effect(
    "stores tokens encrypted: the database holds no plaintext, the answer holds no token, the key decrypts",
    () =>
      Effect.gen(function* () {
        const token = yield* tokenFor(newAccount())
        const access = `xat-${randomBytes(24).toString("hex")}`
        const refresh = `xrt-${randomBytes(24).toString("hex")}`
        const res = yield* postJson(
          "/v1/x-auth/store-tokens",
          {
            accessToken: access,
            refreshToken: refresh,
            expiresAt: "2030-01-01T00:00:00Z",
            accountId: "12345",
            username: "fire_fan"
          },
          bearer(token)
        )
        assert.strictEqual(res.status, 200, JSON.stringify(res.body))
        assert.deepStrictEqual(
          { ...res.body, updatedAt: "" },
          {
            provider: "x",
            accountId: "12345",
            username: "fire_fan",
            scope: null,
            hasRefreshToken: true,
            expiresAt: "2030-01-01T00:00:00.000Z",
            updatedAt: ""
          }
        )
        assert.notInclude(JSON.stringify(res.body), access)

        const sql = yield* SqlClient.SqlClient
        // Every column of every row, as text (bytea as hex), plus the settings table: no plaintext, in any encoding.
        const dump = (yield* sql<{ j: string }>`
          SELECT coalesce(json_agg(t)::text, '') || coalesce((SELECT json_agg(s)::text FROM app_settings s), '') AS j
          FROM linked_social_accounts t`)[0]!.j
        for (const secret of [access, refresh]) {
          for (const form of [secret, Buffer.from(secret).toString("hex"), Buffer.from(secret).toString("base64")]) {
            assert.notInclude(dump, form)
          }
        }
        assert.notInclude(dump, key.toString("base64"), "the key is not in the database")
        const me = (yield* client("/v1/users/me", { headers: bearer(token) })).body.id
        const row = (yield* sql<{ accessTokenEnc: Uint8Array; refreshTokenEnc: Uint8Array }>`
          SELECT access_token_enc, refresh_token_enc FROM linked_social_accounts WHERE user_id = ${me}`)[0]!
        const cipher = XAuthCipher.make(key)
        assert.deepStrictEqual(cipher.decrypt(Buffer.from(row.accessTokenEnc), `${me}|x|access`), Option.some(access))
        assert.deepStrictEqual(
          cipher.decrypt(Buffer.from(row.refreshTokenEnc), `${me}|x|refresh`),
          Option.some(refresh)
        )

        // Storing again replaces (one row per user and provider).
        const again = yield* postJson("/v1/x-auth/store-tokens", { accessToken: "other" }, bearer(token))
        assert.strictEqual(again.body.hasRefreshToken, false)
        assert.strictEqual((yield* sql`SELECT 1 FROM linked_social_accounts WHERE user_id = ${me}`).length, 1)
      })
  )

  it.effect("401 without a session; 400 for a bad body", () =>
    Effect.gen(function* () {
      assert.strictEqual((yield* postJson("/v1/x-auth/store-tokens", { accessToken: "a" })).status, 401)
      const token = yield* tokenFor(newAccount())
      for (const body of [
        {},
        { accessToken: "" },
        { accessToken: "a", provider: "facebook" },
        { accessToken: "a", expiresAt: "tomorrow" },
        { accessToken: "a", expiresAt: "2030-02-31T00:00:00Z" }
      ]) {
        const res = yield* postJson("/v1/x-auth/store-tokens", body, bearer(token))
        assert.deepStrictEqual([res.status, res.body.code], [400, "INVALID_BODY"], JSON.stringify(body))
      }
    })
  )
})
