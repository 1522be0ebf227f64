import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { postJson } from "../support/http.ts"
import { newAccount } from "../sessions/support.ts"
import { indexerAtHead, SocialServer } from "../social/support.ts"
import { launchedTokens, type Member, member, notificationsOf, send } from "./support.ts"

const admin = newAccount()

const withUsername = (who: Member, username: string) =>
  Effect.map(send("PATCH", "/v1/users/profile", { username }, who.headers), (res) =>
    assert.strictEqual(res.status, 200, JSON.stringify(res.body))
  )

// A small create limit (COMMENT_RATE_LIMIT), edit limit and mention cap (issue 23 L2), and no session cache, so a
// ban is seen on the next request.
layer(
  SocialServer({
    ADMIN_WALLETS: admin.address,
    COMMENT_RATE_LIMIT: "3",
    COMMENT_EDIT_RATE_LIMIT: "3",
    COMMENT_MENTION_LIFETIME_CAP: "2",
    SESSION_CACHE_MS: "0"
  }),
  {
    timeout: "180 seconds",
    excludeTestServices: true
  }
)("comment limits", (it) => {
  it.effect(
    "creates are limited per user: over COMMENT_RATE_LIMIT → 429 RATE_LIMITED; other users are not affected",
    () =>
      Effect.gen(function* () {
        yield* indexerAtHead
        const [token] = yield* launchedTokens
        const [a, b] = [yield* member(newAccount()), yield* member(newAccount())]
        const results = yield* Effect.forEach(
          Array.from({ length: 5 }, (_, i) => i),
          (i) => postJson("/v1/comments", { token, text: `fast ${i}` }, a.headers),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(results.map((r) => r.status).sort(), [201, 201, 201, 429, 429])
        const refused = results.find((r) => r.status === 429)!
        assert.strictEqual(refused.body.code, "RATE_LIMITED")
        assert.strictEqual(refused.body.details.limit, 3)
        assert.strictEqual((yield* postJson("/v1/comments", { token, text: "other user" }, b.headers)).status, 201)
      })
  )

  it.effect("edits are limited per user (issue 23 L2): over COMMENT_EDIT_RATE_LIMIT → 429 RATE_LIMITED", () =>
    Effect.gen(function* () {
      const [token] = yield* launchedTokens
      const a = yield* member(newAccount())
      const post = yield* postJson("/v1/comments", { token, text: "to be edited" }, a.headers)
      assert.strictEqual(post.status, 201)
      const statuses: Array<number> = []
      for (let i = 0; i < 4; i++)
        statuses.push((yield* send("PUT", `/v1/comments/${post.body.id}`, { text: `edit ${i}` }, a.headers)).status)
      assert.deepStrictEqual(statuses, [200, 200, 200, 429])
    })
  )

  it.effect(
    "a comment notifies at most COMMENT_MENTION_LIFETIME_CAP distinct users over its life, edits included (issue 23 L2)",
    () =>
      Effect.gen(function* () {
        const [token] = yield* launchedTokens
        const a = yield* member(newAccount())
        const suffix = Math.random().toString(36).slice(2, 8)
        const others: Array<Member> = []
        for (let i = 0; i < 3; i++) {
          const m = yield* member(newAccount())
          yield* withUsername(m, `m${i}_${suffix}`)
          others.push(m)
        }
        const post = yield* postJson("/v1/comments", { token, text: `gm @m0_${suffix}` }, a.headers)
        assert.strictEqual(post.status, 201)
        // Each edit swaps the name: the edit loop of the finding.
        for (const i of [1, 2]) {
          assert.strictEqual(
            (yield* send("PUT", `/v1/comments/${post.body.id}`, { text: `gm @m${i}_${suffix}` }, a.headers)).status,
            200
          )
        }
        const mentioned = []
        for (const m of others)
          mentioned.push((yield* notificationsOf(m)).filter((n) => n.kind === "COMMENT_MENTION").length)
        assert.deepStrictEqual(mentioned, [1, 1, 0])
      })
  )

  it.effect("a banned user cannot post, edit or react (403 USER_BANNED); reading stays open", () =>
    Effect.gen(function* () {
      const [token] = yield* launchedTokens
      const [boss, a] = [yield* member(admin), yield* member(newAccount())]
      const before = yield* postJson("/v1/comments", { token, text: "before the ban" }, a.headers)
      assert.strictEqual(before.status, 201)
      const ban = yield* send("PATCH", `/v1/users/admin/${a.id}`, { banned: true }, boss.headers)
      assert.strictEqual(ban.status, 200, JSON.stringify(ban.body))
      const post = yield* postJson("/v1/comments", { token, text: "after the ban" }, a.headers)
      assert.strictEqual(post.status, 403)
      assert.strictEqual(post.body.code, "USER_BANNED")
      assert.strictEqual(
        (yield* send("PUT", `/v1/comments/${before.body.id}`, { text: "edit" }, a.headers)).body.code,
        "USER_BANNED"
      )
      assert.strictEqual(
        (yield* postJson(`/v1/likes/comments/${before.body.id}`, undefined, a.headers)).body.code,
        "USER_BANNED"
      )
      const read = yield* send("GET", `/v1/comments/${before.body.id}`, undefined)
      assert.strictEqual(read.status, 200)
      // The admin can still remove what the banned user wrote.
      assert.strictEqual(
        (yield* send("DELETE", `/v1/comments/${before.body.id}`, undefined, boss.headers)).body.deleted,
        true
      )
    })
  )
})
