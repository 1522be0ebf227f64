import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress } from "viem"
import { client, postJson } from "../support/http.ts"
import { newAccount } from "../sessions/support.ts"
import { indexerAtHead, SocialServer } from "../social/support.ts"
import { comment, launchedTokens, member, type Member, notificationsOf, send } from "./support.ts"

const toggle = (who: Member, path: string) => postJson(path, undefined, who.headers)

/** n concurrent toggles by one user (double-clicks); every answer must be 200. */
const burst = (who: Member, path: string, n: number) =>
  Effect.map(
    Effect.forEach(Array.from({ length: n }), () => toggle(who, path), { concurrency: "unbounded" }),
    (all) => {
      assert.deepStrictEqual(
        [...new Set(all.map((r) => r.status))],
        [200],
        JSON.stringify(all.find((r) => r.status !== 200)?.body)
      )
      return all
    }
  )

const withUsername = (who: Member, username: string) =>
  Effect.map(send("PATCH", "/v1/users/profile", { username }, who.headers), (res) =>
    assert.strictEqual(res.status, 200, JSON.stringify(res.body))
  )

layer(SocialServer({ COMMENT_RATE_LIMIT: "100000" }), { timeout: "180 seconds", excludeTestServices: true })(
  "engagement",
  (it) => {
    it.effect("51 concurrent like toggles → liked with 1 like; 50 → not liked, 0; counts never negative", () =>
      Effect.gen(function* () {
        yield* indexerAtHead
        const [token] = yield* launchedTokens
        const [a, b] = [yield* member(newAccount()), yield* member(newAccount())]
        const c = yield* comment(a, token!, "like me")
        const path = `/v1/likes/comments/${c.id}`
        yield* burst(b, path, 51)
        const after51 = (yield* client(`/v1/comments/${c.id}`, { headers: b.headers })).body.comment
        assert.strictEqual(after51.likes, 1)
        assert.deepStrictEqual(after51.viewer, { liked: true, disliked: false, favorited: false })
        yield* burst(b, path, 50)
        const after101 = (yield* client(`/v1/comments/${c.id}`, { headers: b.headers })).body.comment
        assert.strictEqual(after101.likes, 1, "an even number of toggles changes nothing")
        assert.isTrue(after101.viewer.liked)
        yield* burst(b, path, 1)
        const unliked = (yield* client(`/v1/comments/${c.id}`, { headers: b.headers })).body.comment
        assert.strictEqual(unliked.likes, 0)
        assert.isFalse(unliked.viewer.liked)

        // Many users at once, each an odd number of times, mixed with dislikes: counts equal the rows.
        const users = yield* Effect.forEach(Array.from({ length: 6 }), () => member(newAccount()), { concurrency: 3 })
        yield* Effect.forEach(users, (u, i) => burst(u, i % 2 === 0 ? path : `/v1/dislike/comments/${c.id}`, 3), {
          concurrency: "unbounded"
        })
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ kind: string; n: number }>`
        SELECT kind, count(*)::int AS n FROM reactions WHERE target_type = 'comment' AND target_id = ${String(c.id)} GROUP BY kind ORDER BY kind`
        const counted = (yield* client(`/v1/comments/${c.id}`)).body.comment
        assert.deepStrictEqual(rows, [
          { kind: "dislike", n: 3 },
          { kind: "like", n: 3 }
        ])
        assert.deepStrictEqual([counted.likes, counted.dislikes], [3, 3])
      })
    )

    it.effect("like and dislike exclude each other; token toggles; favorites list", () =>
      Effect.gen(function* () {
        const tokens = yield* launchedTokens
        const a = yield* member(newAccount())
        const c = yield* comment(a, tokens[1]!, "mixed feelings")
        const liked = yield* toggle(a, `/v1/likes/comments/${c.id}`)
        assert.include(liked.body, {
          liked: true,
          disliked: false,
          likes: 1,
          dislikes: 0,
          targetType: "comment",
          targetId: String(c.id)
        })
        const disliked = yield* toggle(a, `/v1/dislike/comments/${c.id}`)
        assert.include(disliked.body, { liked: false, disliked: true, likes: 0, dislikes: 1 })
        const undisliked = yield* toggle(a, `/v1/dislike/comments/${c.id}`)
        assert.include(undisliked.body, { liked: false, disliked: false, likes: 0, dislikes: 0 })

        const tokenLike = yield* toggle(a, `/v1/likes/tokens/${tokens[2]!.toLowerCase()}`)
        assert.strictEqual(tokenLike.status, 200)
        assert.include(tokenLike.body, { targetType: "token", targetId: getAddress(tokens[2]!), liked: true, likes: 1 })
        assert.include((yield* toggle(a, `/v1/dislike/tokens/${tokens[2]}`)).body, {
          liked: false,
          disliked: true,
          likes: 0,
          dislikes: 1
        })

        yield* burst(a, `/v1/favorites/tokens/${tokens[0]}`, 3)
        const favToken2 = yield* toggle(a, `/v1/favorites/tokens/${tokens[2]}`)
        assert.include(favToken2.body, { favorited: true, favorites: 1 })
        assert.include((yield* toggle(a, `/v1/favorites/comments/${c.id}`)).body, { favorited: true, favorites: 1 })
        const favorites = yield* client("/v1/favorites?limit=2", { headers: a.headers })
        assert.strictEqual(favorites.status, 200)
        assert.deepStrictEqual(
          favorites.body.items.map((f: any) => [f.targetType, f.targetId]),
          [
            ["comment", String(c.id)],
            ["token", getAddress(tokens[2]!)]
          ]
        )
        assert.strictEqual(favorites.body.items[0].comment.text, "mixed feelings")
        assert.isString(favorites.body.items[1].token.symbol)
        const rest = yield* client(`/v1/favorites?limit=2&cursor=${favorites.body.nextCursor}`, { headers: a.headers })
        assert.deepStrictEqual(
          rest.body.items.map((f: any) => f.targetId),
          [getAddress(tokens[0]!)]
        )
        assert.strictEqual(rest.body.nextCursor, null)
        const onlyComments = yield* client("/v1/favorites?type=comment", { headers: a.headers })
        assert.deepStrictEqual(
          onlyComments.body.items.map((f: any) => f.targetType),
          ["comment"]
        )
        // The personalised feed puts the favorited token's items first.
        const feed = yield* client("/v1/feed?limit=100", { headers: a.headers })
        assert.isTrue(
          feed.body.items.some((x: any) => x.relevance === "FAVORITE" && x.token.address === getAddress(tokens[0]!))
        )

        assert.strictEqual((yield* toggle(a, "/v1/likes/comments/999999999")).body.code, "COMMENT_NOT_FOUND")
        assert.strictEqual(
          (yield* toggle(a, "/v1/likes/tokens/0x000000000000000000000000000000000000dEaD")).body.code,
          "TOKEN_NOT_FOUND"
        )
        assert.strictEqual((yield* postJson(`/v1/likes/comments/${c.id}`, undefined)).status, 401)
        yield* send("DELETE", `/v1/comments/${c.id}`, undefined, a.headers)
        assert.strictEqual((yield* toggle(a, `/v1/likes/comments/${c.id}`)).body.code, "COMMENT_DELETED")
      })
    )

    it.effect("mentions are resolved and notified; replies and likes notify the author once", () =>
      Effect.gen(function* () {
        const [token] = yield* launchedTokens
        const [a, b, c] = [yield* member(newAccount()), yield* member(newAccount()), yield* member(newAccount())]
        const suffix = Math.random().toString(36).slice(2, 8)
        yield* withUsername(a, `alice_${suffix}`)
        yield* withUsername(b, `bob_${suffix}`)
        const text = `gm @Bob_${suffix} and @alice_${suffix}, not @nobody_${suffix} nor mail@bob_${suffix}`
        const post = yield* comment(a, token!, text)
        assert.strictEqual(post.text, text)
        assert.deepStrictEqual(post.mentions, [
          { username: `bob_${suffix}`, userId: b.id },
          { username: `alice_${suffix}`, userId: a.id }
        ])
        const mention = (yield* notificationsOf(b)).filter((n) => n.kind === "COMMENT_MENTION")
        assert.strictEqual(mention.length, 1)
        assert.include(mention[0]!.payload, {
          commentId: post.id,
          postNumber: post.postNumber,
          token: token!.toLowerCase()
        })
        assert.deepStrictEqual(mention[0]!.payload.author, { userId: a.id, username: `alice_${suffix}` })
        assert.deepStrictEqual(yield* notificationsOf(a), [], "no notification for mentioning yourself")

        // An edit that mentions b again does not notify twice; a newly mentioned user is notified.
        yield* withUsername(c, `carol_${suffix}`)
        const edited = yield* send("PUT", `/v1/comments/${post.id}`, { text: `${text} cc @carol_${suffix}` }, a.headers)
        assert.strictEqual(edited.body.mentions.length, 3)
        assert.strictEqual((yield* notificationsOf(b)).length, 1)
        assert.deepStrictEqual(
          (yield* notificationsOf(c)).map((n) => n.kind),
          ["COMMENT_MENTION"]
        )

        const reply = yield* comment(b, token!, "replying", { replyTo: post.id })
        yield* burst(c, `/v1/likes/comments/${post.id}`, 3)
        yield* burst(a, `/v1/likes/comments/${post.id}`, 1)
        const got = yield* notificationsOf(a)
        assert.deepStrictEqual(
          got.map((n) => n.kind).sort(),
          ["COMMENT_LIKE", "COMMENT_REPLY"],
          "one like notification; none for a self-like"
        )
        const replied = got.find((n) => n.kind === "COMMENT_REPLY")!.payload
        assert.include(replied, { commentId: reply.id, parentId: post.id, excerpt: "replying" })
        assert.deepStrictEqual(got.find((n) => n.kind === "COMMENT_LIKE")!.payload.liker, {
          userId: c.id,
          username: `carol_${suffix}`
        })
        const unread = yield* client("/v1/notifications/unread-count", { headers: a.headers })
        assert.strictEqual(unread.body.unread, 2)
      })
    )
  }
)
