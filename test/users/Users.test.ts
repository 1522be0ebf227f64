import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { bearer, client } from "../support/http.ts"
import { AccountsServer, newAccount, signIn, tokenFor } from "../sessions/support.ts"

const admin = newAccount()

const patch = (path: string, token: string, body: unknown) =>
  client(path, {
    method: "PATCH",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", ...bearer(token) }
  })

layer(AccountsServer({ ADMIN_WALLETS: admin.address }), { timeout: "90 seconds", excludeTestServices: true })(
  "users and profiles",
  (it) => {
    it.effect("GET /v1/users/me, PATCH /v1/users/profile, and the public profile by wallet (public fields only)", () =>
      Effect.gen(function* () {
        const account = newAccount()
        const token = yield* tokenFor(account)
        const me = yield* client("/v1/users/me", { headers: bearer(token) })
        assert.strictEqual(me.status, 200)
        assert.deepStrictEqual(Object.keys(me.body).sort(), [
          "bio",
          "createdAt",
          "id",
          "idpDid",
          "image",
          "isAdmin",
          "name",
          "username",
          "walletAddress"
        ])
        assert.deepStrictEqual([me.body.name, me.body.username, me.body.isAdmin], [null, null, false])

        const name = `user_${account.address.slice(2, 10).toLowerCase()}`
        const updated = yield* patch("/v1/users/profile", token, {
          name: "  Satoshi N.  ",
          bio: "line one\nline two",
          username: name.toUpperCase()
        })
        assert.strictEqual(updated.status, 200, JSON.stringify(updated.body))
        assert.strictEqual(updated.body.name, "Satoshi N.")
        assert.strictEqual(updated.body.bio, "line one\nline two")
        assert.strictEqual(updated.body.username, name, "stored lower-case")
        assert.strictEqual((yield* client("/v1/users/me", { headers: bearer(token) })).body.username, name)

        const cleared = yield* patch("/v1/users/profile", token, { bio: null })
        assert.isNull(cleared.body.bio)
        assert.strictEqual(cleared.body.name, "Satoshi N.", "absent fields are kept")

        const open = yield* client(`/v1/users/profile/address/${account.address.toLowerCase()}`)
        assert.strictEqual(open.status, 200)
        assert.deepStrictEqual(Object.keys(open.body).sort(), [
          "bio",
          "createdAt",
          "id",
          "image",
          "name",
          "username",
          "walletAddress"
        ])
        assert.strictEqual(open.body.walletAddress, account.address)
      })
    )

    it.effect(
      "profile edits are validated: lengths, username rules, reserved names, taken names (409), unknown images",
      () =>
        Effect.gen(function* () {
          const token = yield* tokenFor(newAccount())
          const invalid = [
            { name: "" },
            { name: "   " },
            { name: "x".repeat(51) },
            { name: "tab\there" },
            { bio: "x".repeat(281) },
            { username: "ab" },
            { username: "x".repeat(21) },
            { username: "bad-name" },
            { username: "émile" },
            { image: "https://example.com/a.png" },
            { image: "/v1/images/abc.webp" },
            { name: 42 }
          ]
          for (const body of invalid) {
            const res = yield* patch("/v1/users/profile", token, body)
            assert.strictEqual(res.status, 400, JSON.stringify(body))
            assert.strictEqual(res.body.code, "INVALID_BODY", JSON.stringify(body))
          }
          assert.strictEqual(
            (yield* patch("/v1/users/profile", token, { name: "x".repeat(50), bio: "é".repeat(280) })).status,
            200
          )

          const reserved = yield* patch("/v1/users/profile", token, { username: "Admin" })
          assert.strictEqual(reserved.status, 400)
          assert.strictEqual(reserved.body.code, "USERNAME_RESERVED")

          const taken = `taken_${Date.now().toString(36)}`
          assert.strictEqual(
            (yield* patch("/v1/users/profile", yield* tokenFor(newAccount()), { username: taken })).status,
            200
          )
          const clash = yield* patch("/v1/users/profile", token, { username: taken.toUpperCase() })
          assert.strictEqual(clash.status, 409)
          assert.strictEqual(clash.body.code, "USERNAME_TAKEN")

          const missing = yield* patch("/v1/users/profile", token, { image: `/v1/images/${"ab".repeat(32)}.webp` })
          assert.strictEqual(missing.status, 400)
          assert.strictEqual(missing.body.code, "IMAGE_NOT_FOUND")
        })
    )

    it.effect("two users racing for one username: one gets it, the other 409 USERNAME_TAKEN", () =>
      Effect.gen(function* () {
        const tokens = [yield* tokenFor(newAccount()), yield* tokenFor(newAccount())]
        const name = `race_${Date.now().toString(36)}`
        const results = yield* Effect.all(
          tokens.map((t) => patch("/v1/users/profile", t, { username: name })),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(results.map((r) => r.status).sort(), [200, 409])
      })
    )

    it.effect("GET /v1/users/username/check: available, taken (any case), reserved; malformed → 400", () =>
      Effect.gen(function* () {
        const name = `check_${Date.now().toString(36)}`
        const free = yield* client(`/v1/users/username/check?username=${name}`)
        assert.deepStrictEqual(free.body, { username: name, available: true, reason: null })
        yield* patch("/v1/users/profile", yield* tokenFor(newAccount()), { username: name })
        const taken = yield* client(`/v1/users/username/check?username=${name.toUpperCase()}`)
        assert.deepStrictEqual(taken.body, { username: name, available: false, reason: "TAKEN" })
        const reserved = yield* client("/v1/users/username/check?username=Support")
        assert.deepStrictEqual(reserved.body, { username: "support", available: false, reason: "RESERVED" })
        for (const query of ["", "?username=a", "?username=has%20space", `?username=${"x".repeat(21)}`]) {
          const res = yield* client(`/v1/users/username/check${query}`)
          assert.strictEqual(res.status, 400, query)
          assert.strictEqual(res.body.code, "INVALID_QUERY")
        }
      })
    )

    it.effect("public profile: unknown → 404 USER_NOT_FOUND, malformed → 400 INVALID_PATH, hidden → 404", () =>
      Effect.gen(function* () {
        const unknown = yield* client(`/v1/users/profile/address/${newAccount().address}`)
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(unknown.body.code, "USER_NOT_FOUND")
        const bad = yield* client("/v1/users/profile/address/0x1234")
        assert.strictEqual(bad.status, 400)
        assert.strictEqual(bad.body.code, "INVALID_PATH")

        const account = newAccount()
        const session = yield* signIn(account)
        const hide = yield* patch(`/v1/users/admin/${session.body.user.id}`, yield* tokenFor(admin), { hidden: true })
        assert.strictEqual(hide.status, 200)
        assert.strictEqual((yield* client(`/v1/users/profile/address/${account.address}`)).status, 404)
        // Its widgets: hidden from others, visible to the owner.
        const others = yield* client(`/v1/users/stats?address=${account.address}`)
        assert.strictEqual(others.status, 404)
        const own = yield* client("/v1/users/stats", { headers: bearer(session.body.token) })
        assert.strictEqual(own.status, 200)
      })
    )

    it.effect(
      "profile widgets: what exists so far (zero counters, empty pages) for a user or any wallet; bad query → 400",
      () =>
        Effect.gen(function* () {
          const account = newAccount()
          const session = yield* signIn(account)
          const stats = yield* client(`/v1/users/stats?address=${account.address}`)
          assert.deepStrictEqual(stats.body, {
            walletAddress: account.address,
            userId: session.body.user.id,
            joinedAt: stats.body.joinedAt,
            yaps: 0,
            fuelsGiven: 0,
            fuelsReceived: 0,
            trades: 0,
            launches: 0,
            badges: []
          })
          assert.isString(stats.body.joinedAt)
          const stranger = newAccount().address
          assert.isNull((yield* client(`/v1/users/stats?address=${stranger}`)).body.userId)
          for (const widget of ["activity", "yaps", "fuels", "trades"]) {
            const page = yield* client(`/v1/users/${widget}?address=${stranger.toLowerCase()}&limit=5`)
            assert.strictEqual(page.status, 200, widget)
            assert.deepStrictEqual(page.body, { walletAddress: stranger, items: [], nextCursor: null })
            for (const query of ["?address=0x12", "?limit=0", "?limit=101", "?limit=abc"]) {
              const res = yield* client(`/v1/users/${widget}${query}`, { headers: bearer(session.body.token) })
              assert.strictEqual(res.status, 400, `${widget}${query}`)
              assert.strictEqual(res.body.code, "INVALID_QUERY")
            }
          }
        })
    )

    it.effect(
      "moderation: 404 unknown user, 400 malformed id/body, 400 CANNOT_MODERATE_SELF; granting admin works",
      () =>
        Effect.gen(function* () {
          const adminToken = yield* tokenFor(admin)
          const adminId = (yield* client("/v1/users/me", { headers: bearer(adminToken) })).body.id
          const unknown = yield* patch(`/v1/users/admin/${crypto.randomUUID()}`, adminToken, { banned: true })
          assert.strictEqual(unknown.status, 404)
          assert.strictEqual(unknown.body.code, "USER_NOT_FOUND")
          assert.strictEqual((yield* patch("/v1/users/admin/not-a-uuid", adminToken, {})).body.code, "INVALID_PATH")
          for (const body of [{ banned: "yes" }, { reason: "x".repeat(501) }, []]) {
            const res = yield* patch(`/v1/users/admin/${adminId}`, adminToken, body)
            assert.strictEqual(res.status, 400, JSON.stringify(body))
            assert.strictEqual(res.body.code, "INVALID_BODY")
          }
          for (const body of [{ banned: true }, { admin: false }, { hidden: true }]) {
            const res = yield* patch(`/v1/users/admin/${adminId}`, adminToken, body)
            assert.strictEqual(res.status, 400)
            assert.strictEqual(res.body.code, "CANNOT_MODERATE_SELF")
          }
          const other = yield* signIn(newAccount())
          const promoted = yield* patch(`/v1/users/admin/${other.body.user.id}`, adminToken, { admin: true })
          assert.isTrue(promoted.body.isAdmin)
          const asNewAdmin = yield* patch(`/v1/users/admin/${adminId}`, other.body.token, { hidden: false })
          assert.strictEqual(asNewAdmin.status, 200, "the promotion takes effect at once in this process")
        })
    )
  }
)
