import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress } from "viem"
import { bearer, client, postJson } from "../support/http.ts"
import { AccountsServer, getNonce, newAccount, signIn, siweMessage, tokenFor } from "./support.ts"

layer(AccountsServer(), { timeout: "90 seconds", excludeTestServices: true })(
  "wallet sign-in (SIWE) over HTTP, real anvil and PostgreSQL",
  (it) => {
    it.effect("a new wallet signs in with viem: token, expiry, cookie, a new user with idpDid wallet:<address>", () =>
      Effect.gen(function* () {
        const account = newAccount()
        const nonceRes = yield* client(`/v1/session/wallet/nonce?address=${account.address.toLowerCase()}`)
        assert.strictEqual(nonceRes.status, 200)
        assert.match(nonceRes.body.nonce, /^[0-9a-f]{32}$/)
        const validFor = Date.parse(nonceRes.body.expiresAt) - Date.now()
        assert.isTrue(validFor > 290_000 && validFor <= 301_000, `nonce valid for ${validFor} ms`)

        const message = siweMessage(account.address, nonceRes.body.nonce)
        const signature = yield* Effect.promise(() => account.signMessage({ message }))
        const res = yield* postJson("/v1/session/wallet/verify", { message, signature })
        assert.strictEqual(res.status, 200, JSON.stringify(res.body))
        assert.deepStrictEqual(Object.keys(res.body).sort(), ["expiresAt", "token", "user"])
        assert.deepStrictEqual(Object.keys(res.body.user).sort(), ["id", "image", "name", "walletAddress"])
        assert.strictEqual(res.body.user.walletAddress, account.address)
        const lifetime = Date.parse(res.body.expiresAt) - Date.now()
        assert.isTrue(Math.abs(lifetime - 7 * 24 * 3600 * 1000) < 60_000, "JWT_TTL defaults to 7 days")

        const cookie = res.headers.get("set-cookie") ?? ""
        assert.match(cookie, new RegExp(`^__Host-fire_session=${res.body.token.replace(/\./g, "\\.")};`))
        for (const attribute of ["HttpOnly", "Secure", "SameSite=Lax", "Path=/", "Max-Age="])
          assert.include(cookie, attribute)

        const me = yield* client("/v1/users/me", { headers: bearer(res.body.token) })
        assert.strictEqual(me.status, 200)
        assert.strictEqual(me.body.idpDid, `wallet:${account.address}`)
        assert.strictEqual(me.body.id, res.body.user.id)

        // Signing in again finds the same user.
        const again = yield* signIn(account)
        assert.strictEqual(again.body.user.id, res.body.user.id)
      })
    )

    it.effect(
      "a minimal message `<address>\\nNonce: <nonce>` signs in; CRLF with a trailing newline too, verified over the bytes signed",
      () =>
        Effect.gen(function* () {
          const account = newAccount()
          const message = `${account.address}\nNonce: ${yield* getNonce(account.address)}`
          const res = yield* postJson("/v1/session/wallet/verify", {
            message,
            signature: yield* Effect.promise(() => account.signMessage({ message }))
          })
          assert.strictEqual(res.status, 200, JSON.stringify(res.body))
          assert.strictEqual(res.body.user.walletAddress, account.address)

          // A Windows tool's message: CRLF and a final line break. The signature covers those bytes, not the LF reading.
          const crlf = `${account.address}\r\nNonce: ${yield* getNonce(account.address)}\r\n`
          const overLf = yield* Effect.promise(() => account.signMessage({ message: crlf.replaceAll("\r\n", "\n") }))
          const refused = yield* postJson("/v1/session/wallet/verify", { message: crlf, signature: overLf })
          assert.strictEqual(refused.status, 401, JSON.stringify(refused.body))
          assert.strictEqual(refused.body.code, "INVALID_SIGNATURE")
          const signed = yield* postJson("/v1/session/wallet/verify", {
            message: crlf,
            signature: yield* Effect.promise(() => account.signMessage({ message: crlf }))
          })
          assert.strictEqual(signed.status, 200, JSON.stringify(signed.body))
          assert.strictEqual(signed.body.user.id, res.body.user.id)
        })
    )

    it.effect("the session cookie alone authenticates; the Authorization header wins over it", () =>
      Effect.gen(function* () {
        const a = newAccount()
        const b = newAccount()
        const tokenA = yield* tokenFor(a)
        const tokenB = yield* tokenFor(b)
        const byCookie = yield* client("/v1/session/current", { headers: { cookie: `__Host-fire_session=${tokenA}` } })
        assert.strictEqual(byCookie.status, 200)
        assert.strictEqual(byCookie.body.user.walletAddress, a.address)
        assert.strictEqual(byCookie.body.method, "wallet")
        const both = yield* client("/v1/session/current", {
          headers: { cookie: `__Host-fire_session=${tokenA}`, ...bearer(tokenB) }
        })
        assert.strictEqual(both.body.user.walletAddress, b.address)
        const badHeader = yield* client("/v1/session/current", {
          headers: { cookie: `__Host-fire_session=${tokenA}`, ...bearer("x.y.z") }
        })
        assert.strictEqual(badHeader.status, 401)
        assert.strictEqual(badHeader.body.code, "UNAUTHORIZED")
      })
    )

    it.effect("a replayed nonce → 401 INVALID_NONCE", () =>
      Effect.gen(function* () {
        const account = newAccount()
        const nonce = yield* getNonce(account.address)
        const message = siweMessage(account.address, nonce)
        const signature = yield* Effect.promise(() => account.signMessage({ message }))
        assert.strictEqual((yield* postJson("/v1/session/wallet/verify", { message, signature })).status, 200)
        const replay = yield* postJson("/v1/session/wallet/verify", { message, signature })
        assert.strictEqual(replay.status, 401)
        assert.strictEqual(replay.body.code, "INVALID_NONCE")
        assert.strictEqual(replay.body.details.reason, "used")
      })
    )

    it.effect(
      "an expired nonce (its expiry moved into the past, compared with the database clock) → 401 NONCE_EXPIRED",
      () =>
        Effect.gen(function* () {
          const account = newAccount()
          const nonce = yield* getNonce(account.address)
          const sql = yield* SqlClient.SqlClient
          yield* sql`UPDATE wallet_nonces SET expires_at = now() - interval '1 second' WHERE nonce = ${nonce}`
          const message = siweMessage(account.address, nonce)
          const signature = yield* Effect.promise(() => account.signMessage({ message }))
          const res = yield* postJson("/v1/session/wallet/verify", { message, signature })
          assert.strictEqual(res.status, 401)
          assert.strictEqual(res.body.code, "NONCE_EXPIRED")
        })
    )

    it.effect(
      "a nonce issued for another address → INVALID_NONCE; a message signed by another key → INVALID_SIGNATURE",
      () =>
        Effect.gen(function* () {
          const alice = newAccount()
          const mallory = newAccount()
          const aliceNonce = yield* getNonce(alice.address)
          const message = siweMessage(mallory.address, aliceNonce)
          const signature = yield* Effect.promise(() => mallory.signMessage({ message }))
          const stolen = yield* postJson("/v1/session/wallet/verify", { message, signature })
          assert.strictEqual(stolen.status, 401)
          assert.strictEqual(stolen.body.code, "INVALID_NONCE")
          assert.strictEqual(stolen.body.details.reason, "other-address")

          const forged = siweMessage(alice.address, aliceNonce)
          const forgedSignature = yield* Effect.promise(() => mallory.signMessage({ message: forged }))
          const res = yield* postJson("/v1/session/wallet/verify", { message: forged, signature: forgedSignature })
          assert.strictEqual(res.status, 401)
          assert.strictEqual(res.body.code, "INVALID_SIGNATURE")
          // The nonce was not spent by the failed attempt: Alice can still use it.
          const aliceSignature = yield* Effect.promise(() => alice.signMessage({ message: forged }))
          assert.strictEqual(
            (yield* postJson("/v1/session/wallet/verify", { message: forged, signature: aliceSignature })).status,
            200
          )
        })
    )

    it.effect("eight concurrent verifies of one signed message → exactly one session", () =>
      Effect.gen(function* () {
        const account = newAccount()
        const nonce = yield* getNonce(account.address)
        const message = siweMessage(account.address, nonce)
        const signature = yield* Effect.promise(() => account.signMessage({ message }))
        const results = yield* Effect.all(
          Array.from({ length: 8 }, () => postJson("/v1/session/wallet/verify", { message, signature })),
          { concurrency: "unbounded" }
        )
        const statuses = results.map((r) => r.status).sort()
        assert.deepStrictEqual(statuses, [200, 401, 401, 401, 401, 401, 401, 401])
        for (const r of results.filter((r) => r.status === 401)) assert.strictEqual(r.body.code, "INVALID_NONCE")
        const sql = yield* SqlClient.SqlClient
        const sessions = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.wallet_address = ${account.address}`
        assert.strictEqual(sessions[0]!.n, 1)
      })
    )

    it.effect(
      "refresh rotates: the new token works, the old one is refused at once; a second refresh of it fails",
      () =>
        Effect.gen(function* () {
          const old = yield* tokenFor(newAccount())
          const refreshed = yield* client("/v1/session/refresh", { method: "POST", headers: bearer(old) })
          assert.strictEqual(refreshed.status, 200)
          assert.notStrictEqual(refreshed.body.token, old)
          assert.include(refreshed.headers.get("set-cookie") ?? "", `__Host-fire_session=${refreshed.body.token}`)
          assert.strictEqual((yield* client("/v1/users/me", { headers: bearer(refreshed.body.token) })).status, 200)
          const stale = yield* client("/v1/users/me", { headers: bearer(old) })
          assert.strictEqual(stale.status, 401)
          assert.strictEqual(stale.body.code, "UNAUTHORIZED")
          assert.strictEqual(
            (yield* client("/v1/session/refresh", { method: "POST", headers: bearer(old) })).status,
            401
          )
        })
    )

    it.effect("two concurrent refreshes of one token → one new session", () =>
      Effect.gen(function* () {
        const token = yield* tokenFor(newAccount())
        const results = yield* Effect.all(
          [1, 2, 3].map(() => client("/v1/session/refresh", { method: "POST", headers: bearer(token) })),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(results.map((r) => r.status).sort(), [200, 401, 401])
      })
    )

    it.effect("logout revokes the session at once and expires the cookie", () =>
      Effect.gen(function* () {
        const token = yield* tokenFor(newAccount())
        const out = yield* client("/v1/session/logout", { method: "POST", headers: bearer(token) })
        assert.strictEqual(out.status, 204)
        assert.match(out.headers.get("set-cookie") ?? "", /^__Host-fire_session=; .*Expires=Thu, 01 Jan 1970/)
        const after = yield* client("/v1/session/current", { headers: bearer(token) })
        assert.strictEqual(after.status, 401)
        assert.strictEqual(after.body.details.reason, "revoked")
      })
    )

    it.effect("bad inputs → 400 with a code: nonce address, verify body, unparseable message", () =>
      Effect.gen(function* () {
        for (const query of ["", "?address=0x123", "?address=hello", `?address=${"0x" + "g".repeat(40)}`]) {
          const res = yield* client(`/v1/session/wallet/nonce${query}`)
          assert.strictEqual(res.status, 400, query)
          assert.strictEqual(res.body.code, "INVALID_QUERY")
        }
        for (const body of [
          "{",
          "{}",
          JSON.stringify({ message: "x" }),
          JSON.stringify({ message: "x", signature: "0xzz" })
        ]) {
          const res = yield* client("/v1/session/wallet/verify", {
            method: "POST",
            body,
            headers: { "content-type": "application/json" }
          })
          assert.strictEqual(res.status, 400, body)
          assert.strictEqual(res.body.code, "INVALID_BODY")
        }
        const garbled = yield* postJson("/v1/session/wallet/verify", { message: "hello there", signature: "0x1234" })
        assert.strictEqual(garbled.status, 400)
        assert.strictEqual(garbled.body.code, "INVALID_SIWE_MESSAGE")
        const unknownNonce = yield* postJson("/v1/session/wallet/verify", {
          message: siweMessage(newAccount().address, "neverIssued1"),
          signature: `0x${"11".repeat(65)}`
        })
        assert.strictEqual(unknownNonce.status, 401)
        assert.strictEqual(unknownNonce.body.code, "INVALID_NONCE")
      })
    )

    it.effect("an expired or not-yet-valid message → 401 SIWE_MESSAGE_EXPIRED / SIWE_NOT_YET_VALID, nonce kept", () =>
      Effect.gen(function* () {
        const account = newAccount()
        const expired = yield* signIn(account, { expirationTime: new Date(Date.now() - 1000) })
        assert.strictEqual(expired.status, 401)
        assert.strictEqual(expired.body.code, "SIWE_MESSAGE_EXPIRED")
        const early = yield* signIn(account, { notBefore: new Date(Date.now() + 3_600_000) })
        assert.strictEqual(early.body.code, "SIWE_NOT_YET_VALID")
        const plainHttp = yield* signIn(account, { uri: "http://app.example.com" })
        assert.strictEqual(plainHttp.body.code, "SIWE_URI_NOT_ALLOWED")
      })
    )

    it.effect("POST /v1/session/wallet-state: recorded anonymously and linked with a JWT; bad body → 400", () =>
      Effect.gen(function* () {
        const account = newAccount()
        const anonymous = yield* postJson("/v1/session/wallet-state", {
          status: "connected",
          address: account.address,
          chainId: 31337,
          connector: "injected"
        })
        assert.strictEqual(anonymous.status, 200)
        assert.deepStrictEqual(anonymous.body, { recorded: true, userId: null })
        const token = yield* tokenFor(account)
        const linked = yield* postJson("/v1/session/wallet-state", { status: "changed", chainId: 1 }, bearer(token))
        assert.strictEqual(linked.status, 200)
        assert.isString(linked.body.userId)
        // An invalid token on an optional route is served anonymously.
        const stale = yield* postJson("/v1/session/wallet-state", { status: "disconnected" }, bearer("not-a-jwt"))
        assert.deepStrictEqual(stale.body, { recorded: true, userId: null })
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ userId: string | null; status: string }>`
        SELECT user_id, status FROM wallet_states WHERE address = ${account.address} OR user_id = ${linked.body.userId} ORDER BY id`
        assert.deepStrictEqual(
          rows.map((r) => [r.status, r.userId]),
          [
            ["connected", null],
            ["changed", linked.body.userId]
          ]
        )
        for (const body of [
          {},
          { status: "exploded" },
          { status: "connected", chainId: 0 },
          { status: "connected", address: "0x1" }
        ]) {
          const res = yield* postJson("/v1/session/wallet-state", body)
          assert.strictEqual(res.status, 400, JSON.stringify(body))
          assert.strictEqual(res.body.code, "INVALID_BODY")
        }
      })
    )

    it.effect("nonce addresses are normalised: a lower-case request binds the checksummed address", () =>
      Effect.gen(function* () {
        const account = newAccount()
        const nonce = yield* getNonce(account.address.toLowerCase())
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ address: string }>`SELECT address FROM wallet_nonces WHERE nonce = ${nonce}`
        assert.strictEqual(rows[0]!.address, getAddress(account.address))
      })
    )

    it.effect("identity-provider login is off without IDP_* → 503 IDP_NOT_CONFIGURED", () =>
      Effect.gen(function* () {
        const res = yield* postJson("/v1/session/create", { idToken: "eyJhbGciOiJFUzI1NiJ9.e30.sig" })
        assert.strictEqual(res.status, 503)
        assert.strictEqual(res.body.code, "IDP_NOT_CONFIGURED")
      })
    )
  }
)
