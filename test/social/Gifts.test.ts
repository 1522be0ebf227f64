import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { bearer, client, postJson } from "../support/http.ts"
import { newAccount, tokenFor } from "../sessions/support.ts"
import { SocialServer } from "./support.ts"

const admin = newAccount()
const get = (path: string, token: string) => client(path, { headers: bearer(token) })
const claim = (token: string, ticket: string) => postJson("/v1/gifts", { ticket }, bearer(token))
const reset = (token: string) => client("/v1/gifts/reset-cycle", { method: "POST", headers: bearer(token) })

layer(SocialServer({ ADMIN_WALLETS: admin.address, GIFT_AMOUNT_WEI: "1000", GIFT_MAX_STREAK: "3" }, ["client"]), {
  timeout: "90 seconds",
  excludeTestServices: true
})("gifts: one claim per user per cycle", (it) => {
  it.effect("status → prepare → claim: UNCLAIMED → CLAIMED, credits count in the fuel balance", () =>
    Effect.gen(function* () {
      const token = yield* tokenFor(newAccount())
      const before = yield* get("/v1/gifts/status", token)
      assert.strictEqual(before.status, 200, JSON.stringify(before.body))
      assert.strictEqual(before.body.state, "UNCLAIMED")
      assert.deepStrictEqual(
        [before.body.claimed, before.body.amount, before.body.streak, before.body.totalCredits],
        [false, "1000", 1, "0"]
      )
      assert.strictEqual(before.body.nextResetAt, before.body.cycle.endsAt)
      // The default cycle is a UTC day: it starts at midnight.
      assert.match(before.body.cycle.startedAt, /T00:00:00\.000Z$/)

      const prepared = yield* get("/v1/gifts/prepare", token)
      assert.strictEqual(prepared.status, 200)
      assert.strictEqual(prepared.body.amount, "1000")
      assert.strictEqual((yield* get("/v1/gifts/status", token)).body.state, "UNCLAIMED", "prepare changes nothing")

      const claimed = yield* claim(token, prepared.body.ticket)
      assert.strictEqual(claimed.status, 201, JSON.stringify(claimed.body))
      assert.deepStrictEqual([claimed.body.amount, claimed.body.streak, claimed.body.totalCredits], ["1000", 1, "1000"])
      const after = yield* get("/v1/gifts/status", token)
      assert.deepStrictEqual([after.body.state, after.body.claimed, after.body.amount], ["CLAIMED", true, "1000"])
      assert.isString(after.body.claimedAt)

      const again = yield* get("/v1/gifts/prepare", token)
      assert.deepStrictEqual([again.status, again.body.code], [409, "GIFT_ALREADY_CLAIMED"])
      const replay = yield* claim(token, prepared.body.ticket)
      assert.deepStrictEqual([replay.status, replay.body.code], [409, "GIFT_ALREADY_CLAIMED"])

      const credits = yield* get("/v1/fuel/credits", token)
      assert.deepStrictEqual([credits.body.giftCredits, credits.body.balance], ["1000", "1000"])
    })
  )

  it.effect("exactly once under 20 concurrent claims (one 201, nineteen 409, one row)", () =>
    Effect.gen(function* () {
      const token = yield* tokenFor(newAccount())
      const ticket = (yield* get("/v1/gifts/prepare", token)).body.ticket as string
      const results = yield* Effect.all(
        Array.from({ length: 20 }, () => claim(token, ticket)),
        { concurrency: "unbounded" }
      )
      const statuses = results.map((r) => r.status).sort()
      assert.deepStrictEqual(statuses, [201, ...Array(19).fill(409)])
      assert.isTrue(results.filter((r) => r.status === 409).every((r) => r.body.code === "GIFT_ALREADY_CLAIMED"))
      const me = (yield* get("/v1/users/me", token)).body.id
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql`SELECT * FROM gift_claims WHERE user_id = ${me}`
      assert.strictEqual(rows.length, 1)
      assert.strictEqual((yield* get("/v1/gifts/status", token)).body.totalCredits, "1000")
    })
  )

  it.effect("tickets: another user's or a tampered ticket → 400 INVALID_GIFT_TICKET; JWT required", () =>
    Effect.gen(function* () {
      const [a, b] = [yield* tokenFor(newAccount()), yield* tokenFor(newAccount())]
      const ticket = (yield* get("/v1/gifts/prepare", a)).body.ticket as string
      for (const t of [ticket, ticket.slice(0, -2) + "xx", ticket.replace(/\.1000\./, ".9000."), "garbage"]) {
        const res = yield* claim(b, t)
        assert.deepStrictEqual([res.status, res.body.code], [400, "INVALID_GIFT_TICKET"], t)
      }
      const noBody = yield* postJson("/v1/gifts", {}, bearer(a))
      assert.deepStrictEqual([noBody.status, noBody.body.code], [400, "INVALID_BODY"])
      for (const [method, path] of [
        ["GET", "/v1/gifts/status"],
        ["GET", "/v1/gifts/prepare"],
        ["POST", "/v1/gifts"],
        ["POST", "/v1/gifts/reset-cycle"]
      ]) {
        assert.strictEqual((yield* client(path!, { method: method! })).status, 401, path)
      }
    })
  )

  it.effect(
    "admin reset: 403 for users; ends the cycle, everyone UNCLAIMED again, streak grows to the cap; old tickets → 409 GIFT_CYCLE_CHANGED",
    () =>
      Effect.gen(function* () {
        const adminToken = yield* tokenFor(admin)
        const token = yield* tokenFor(newAccount())
        const forbidden = yield* reset(token)
        assert.deepStrictEqual([forbidden.status, forbidden.body.code], [403, "FORBIDDEN"])

        const streaks: Array<[number, string]> = []
        for (let i = 0; i < 4; i++) {
          const p = yield* get("/v1/gifts/prepare", token)
          const c = yield* claim(token, p.body.ticket)
          assert.strictEqual(c.status, 201, JSON.stringify(c.body))
          streaks.push([c.body.streak, c.body.amount])
          const r = yield* reset(adminToken)
          assert.strictEqual(r.status, 200, JSON.stringify(r.body))
          assert.strictEqual(r.body.opened.number, r.body.closed.number + 1)
          assert.strictEqual(r.body.opened.openedBy, "admin_reset")
          assert.strictEqual(r.body.opened.startedAt, r.body.closed.endsAt)
        }
        assert.deepStrictEqual(
          streaks,
          [
            [1, "1000"],
            [2, "2000"],
            [3, "3000"],
            [4, "3000"]
          ],
          "capped at GIFT_MAX_STREAK × amount"
        )
        const status = yield* get("/v1/gifts/status", token)
        assert.deepStrictEqual(
          [status.body.state, status.body.totalCredits, status.body.cycle.openedBy],
          ["UNCLAIMED", "9000", "admin_reset"]
        )

        const stale = (yield* get("/v1/gifts/prepare", token)).body.ticket as string
        yield* reset(adminToken)
        const late = yield* claim(token, stale)
        assert.deepStrictEqual([late.status, late.body.code], [409, "GIFT_CYCLE_CHANGED"])
        // A skipped cycle breaks the streak.
        const fresh = yield* get("/v1/gifts/prepare", token)
        assert.strictEqual(fresh.body.streak, 1)
      })
  )
})
