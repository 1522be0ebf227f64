import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { decodeJwt, SignJWT } from "jose"
import { SqlClient } from "effect/sql"
import { bearer, client, postJson } from "../support/http.ts"
import { AccountsServer, newAccount, signIn, TEST_JWT_SECRET, tokenFor } from "../sessions/support.ts"

const admin = newAccount()

/** A JWT signed like ours (HS256, issuer, audience), with the claims a test needs; `key` defaults to the server's. */
const forge = (claims: Record<string, unknown>, key = TEST_JWT_SECRET) =>
  Effect.promise(() =>
    new SignJWT({ iss: "fire-api", aud: "fire-api/session", ...claims })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(key))
  )

/** Every route that requires a JWT, with a body it would accept. */
const jwtRoutes: ReadonlyArray<readonly [string, string, RequestInit?]> = [
  ["GET", "/v1/session/current"],
  ["POST", "/v1/session/refresh"],
  ["POST", "/v1/session/logout"],
  ["GET", "/v1/users/me"],
  ["PATCH", "/v1/users/profile", { body: "{}", headers: { "content-type": "application/json" } }],
  ["POST", "/v1/users/profile/image", { body: new FormData() }],
  ["PATCH", `/v1/users/admin/${crypto.randomUUID()}`, { body: "{}", headers: { "content-type": "application/json" } }]
]

const call = (method: string, path: string, init: RequestInit = {}, headers: Record<string, string> = {}) =>
  client(path, { ...init, method, headers: { ...(init.headers as Record<string, string> | undefined), ...headers } })

layer(AccountsServer({ ADMIN_WALLETS: admin.address }), { timeout: "90 seconds", excludeTestServices: true })(
  "auth middleware: required, optional, admin",
  (it) => {
    it.effect("every JWT route without a token → 401 UNAUTHORIZED (missing)", () =>
      Effect.gen(function* () {
        for (const [method, path, init] of jwtRoutes) {
          const res = yield* call(method, path, init)
          assert.strictEqual(res.status, 401, `${method} ${path}`)
          assert.strictEqual(res.body.code, "UNAUTHORIZED")
          assert.strictEqual(res.body.details.reason, "missing")
        }
      })
    )

    it.effect("garbage, another key, an expired token, an unknown session, a swapped subject → 401 UNAUTHORIZED", () =>
      Effect.gen(function* () {
        const token = yield* tokenFor(newAccount())
        const { jti, sub } = decodeJwt(token)
        const now = Math.floor(Date.now() / 1000)
        const cases: Record<string, readonly [string, string]> = {
          garbage: ["not.a.jwt", "invalid"],
          "another key": [
            yield* forge({ sub, jti, exp: now + 600 }, "another-secret-0123456789abcdef0123456789"),
            "invalid"
          ],
          expired: [yield* forge({ sub, jti, exp: now - 10 }), "expired"],
          "unknown session": [yield* forge({ sub, jti: crypto.randomUUID(), exp: now + 600 }), "revoked"],
          "another user's id": [yield* forge({ sub: crypto.randomUUID(), jti, exp: now + 600 }), "revoked"],
          "no jti": [yield* forge({ sub, exp: now + 600 }), "invalid"],
          "alg none": [`${Buffer.from('{"alg":"none"}').toString("base64url")}.${token.split(".")[1]}.`, "invalid"]
        }
        for (const [name, [forged, reason]] of Object.entries(cases)) {
          const res = yield* client("/v1/users/me", { headers: bearer(forged) })
          assert.strictEqual(res.status, 401, name)
          assert.strictEqual(res.body.code, "UNAUTHORIZED", name)
          assert.strictEqual(res.body.details.reason, reason, name)
        }
        assert.strictEqual(
          (yield* client("/v1/users/me", { headers: bearer(token) })).status,
          200,
          "the real one still works"
        )
      })
    )

    it.effect("admin route: a non-admin → 403 FORBIDDEN; an ADMIN_WALLETS wallet is admin", () =>
      Effect.gen(function* () {
        const user = yield* signIn(newAccount())
        const asUser = yield* call(
          "PATCH",
          `/v1/users/admin/${user.body.user.id}`,
          {
            body: JSON.stringify({ hidden: true }),
            headers: { "content-type": "application/json" }
          },
          bearer(user.body.token)
        )
        assert.strictEqual(asUser.status, 403)
        assert.strictEqual(asUser.body.code, "FORBIDDEN")
        const adminToken = yield* tokenFor(admin)
        assert.isTrue((yield* client("/v1/users/me", { headers: bearer(adminToken) })).body.isAdmin)
        const asAdmin = yield* call(
          "PATCH",
          `/v1/users/admin/${user.body.user.id}`,
          {
            body: JSON.stringify({ hidden: true }),
            headers: { "content-type": "application/json" }
          },
          bearer(adminToken)
        )
        assert.strictEqual(asAdmin.status, 200)
        assert.isTrue(asAdmin.body.hidden)
      })
    )

    it.effect(
      "a banned user: 403 USER_BANNED on every JWT route, served anonymously on optional ones, and cannot sign in again",
      () =>
        Effect.gen(function* () {
          const account = newAccount()
          const session = yield* signIn(account)
          const adminToken = yield* tokenFor(admin)
          const ban = yield* call(
            "PATCH",
            `/v1/users/admin/${session.body.user.id}`,
            {
              body: JSON.stringify({ banned: true, reason: "spam" }),
              headers: { "content-type": "application/json" }
            },
            bearer(adminToken)
          )
          assert.strictEqual(ban.status, 200)
          assert.isTrue(ban.body.banned)
          for (const [method, path, init] of jwtRoutes) {
            const res = yield* call(method, path, init, bearer(session.body.token))
            assert.strictEqual(res.status, 403, `${method} ${path}`)
            assert.strictEqual(res.body.code, "USER_BANNED")
          }
          // Optional-JWT routes work without credentials (spec), so a banned user's token reads them as anonymous.
          const stats = `/v1/users/stats?address=${session.body.user.walletAddress}`
          const optional = yield* client(stats, { headers: bearer(session.body.token) })
          const anonymous = yield* client(stats)
          assert.strictEqual(optional.status, 200, JSON.stringify(optional.body))
          assert.deepStrictEqual(optional.body, anonymous.body)
          const again = yield* signIn(account)
          assert.strictEqual(again.status, 403)
          assert.strictEqual(again.body.code, "USER_BANNED")
          // Unban: the same session works again.
          yield* call(
            "PATCH",
            `/v1/users/admin/${session.body.user.id}`,
            {
              body: JSON.stringify({ banned: false }),
              headers: { "content-type": "application/json" }
            },
            bearer(adminToken)
          )
          assert.strictEqual((yield* client("/v1/users/me", { headers: bearer(session.body.token) })).status, 200)
          const sql = yield* SqlClient.SqlClient
          const audit = yield* sql<{ action: string; reason: string | null }>`
          SELECT action, reason FROM user_admin_actions WHERE user_id = ${session.body.user.id} ORDER BY id`
          assert.deepStrictEqual(
            audit.map((a) => [a.action, a.reason]),
            [
              ["ban", "spam"],
              ["unban", null]
            ]
          )
        })
    )

    it.effect("optional routes: anonymous without a token or with a stale one, personalised with a valid one", () =>
      Effect.gen(function* () {
        const account = newAccount()
        const token = yield* tokenFor(account)
        const anonymous = yield* client("/v1/users/stats")
        assert.strictEqual(anonymous.status, 400)
        assert.strictEqual(anonymous.body.code, "ADDRESS_REQUIRED")
        const stale = yield* client("/v1/users/stats", { headers: bearer("stale.token.here") })
        assert.strictEqual(stale.body.code, "ADDRESS_REQUIRED")
        const mine = yield* client("/v1/users/stats", { headers: bearer(token) })
        assert.strictEqual(mine.status, 200)
        assert.strictEqual(mine.body.walletAddress, account.address)
        const byCookie = yield* client("/v1/users/stats", { headers: { cookie: `__Host-fire_session=${token}` } })
        assert.strictEqual(byCookie.body.walletAddress, account.address)
      })
    )

    it.effect("a logout seen by the optional middleware: the next request is anonymous", () =>
      Effect.gen(function* () {
        const token = yield* tokenFor(newAccount())
        yield* client("/v1/session/logout", { method: "POST", headers: bearer(token) })
        const res = yield* postJson("/v1/session/wallet-state", { status: "disconnected" }, bearer(token))
        assert.deepStrictEqual(res.body, { recorded: true, userId: null })
      })
    )

    it.effect("OpenAPI documents every account route with a summary, its auth and its error statuses", () =>
      Effect.gen(function* () {
        const doc = (yield* client("/docs/openapi.json")).body
        const jwt = ["401", "403"]
        const routes: ReadonlyArray<readonly [string, string, ReadonlyArray<string>, boolean]> = [
          ["get", "/v1/session/wallet/nonce", ["400"], false],
          ["post", "/v1/session/wallet/verify", ["400", "401", "403", "503"], false],
          ["post", "/v1/session/create", ["400", "401", "403", "503"], false],
          ["get", "/v1/session/current", jwt, true],
          ["post", "/v1/session/refresh", jwt, true],
          ["post", "/v1/session/logout", jwt, true],
          ["post", "/v1/session/wallet-state", ["400"], false],
          ["get", "/v1/users/me", jwt, true],
          ["get", "/v1/users/profile/address/{wallet}", ["400", "404"], false],
          ["get", "/v1/users/username/check", ["400"], false],
          ["patch", "/v1/users/profile", ["400", "401", "403", "409"], true],
          ["post", "/v1/users/profile/image", ["400", "401", "403", "413"], true],
          ["get", "/v1/users/stats", ["400", "404"], false],
          ["get", "/v1/users/activity", ["400", "404"], false],
          ["get", "/v1/users/yaps", ["400", "404"], false],
          ["get", "/v1/users/fuels", ["400", "404"], false],
          ["get", "/v1/users/trades", ["400", "404"], false],
          ["patch", "/v1/users/admin/{userId}", ["400", "401", "403", "404"], true],
          ["get", "/v1/images/{file}", ["400", "404"], false]
        ]
        for (const [method, path, statuses, secured] of routes) {
          const operation = doc.paths[path]?.[method]
          assert.isDefined(operation, `${method} ${path}`)
          assert.isString(operation.summary, `${method} ${path}`)
          assert.isAbove(operation.description?.length ?? 0, 20, `${method} ${path}`)
          for (const status of statuses) assert.property(operation.responses, status, `${method} ${path} ${status}`)
          assert.strictEqual((operation.security ?? []).length > 0, secured, `${method} ${path} security`)
        }
        assert.property(doc.components.securitySchemes, "bearer")
        assert.deepStrictEqual(doc.components.securitySchemes.cookie, {
          type: "apiKey",
          name: "__Host-fire_session",
          in: "cookie",
          description: doc.components.securitySchemes.cookie.description
        })
      })
    )
  }
)
