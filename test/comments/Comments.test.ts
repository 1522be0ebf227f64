import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import sharp from "sharp"
import { getAddress } from "viem"
import { client, postJson } from "../support/http.ts"
import { newAccount } from "../sessions/support.ts"
import { indexerAtHead, SocialServer } from "../social/support.ts"
import { comment, launchedTokens, member, postFresh, send } from "./support.ts"

const admin = newAccount()

/** Every page of a cursor route; `between` runs after each page (new comments arriving while paging). */
const allPages = <R = never>(
  path: string,
  limit: number,
  between: (page: number) => Effect.Effect<void, never, R> = () => Effect.void
) =>
  Effect.gen(function* () {
    const items: Array<any> = []
    let cursor: string | null = null
    let n = 0
    const sep = path.includes("?") ? "&" : "?"
    do {
      const res: { status: number; body: any } = yield* client(
        `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`
      )
      assert.strictEqual(res.status, 200, JSON.stringify(res.body))
      items.push(...(res.body.items ?? res.body.replies))
      cursor = res.body.nextCursor
      yield* between(n++)
    } while (cursor !== null)
    return items
  })

layer(SocialServer({ ADMIN_WALLETS: admin.address, COMMENT_RATE_LIMIT: "100000" }), {
  timeout: "180 seconds",
  excludeTestServices: true
})("comments", (it) => {
  it.effect(
    "1,000 concurrent creates on one token take post numbers exactly 1..1000",
    () =>
      Effect.gen(function* () {
        yield* indexerAtHead
        const [token] = yield* launchedTokens
        const [a, b] = [yield* member(newAccount()), yield* member(newAccount())]
        const created = yield* Effect.forEach(
          Array.from({ length: 1000 }, (_, i) => i),
          (i) => postFresh("/v1/comments", { token: token!, text: `yap ${i}` }, (i % 2 === 0 ? a : b).headers),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual([...new Set(created.map((r) => r.status))], [201])
        const numbers = created.map((r) => r.body.postNumber as number).sort((x, y) => x - y)
        assert.deepStrictEqual(
          numbers,
          Array.from({ length: 1000 }, (_, i) => i + 1)
        )
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ n: number; max: number; counted: number }>`
          SELECT count(*)::int AS n, max(post_number) AS max, (SELECT comment_count FROM comment_threads WHERE token = ${token!.toLowerCase()}) AS counted
          FROM comments WHERE token = ${token!.toLowerCase()}`
        assert.deepStrictEqual(rows[0], { n: 1000, max: 1000, counted: 1000 })
        const page = yield* client(`/v1/comments/tokens/${token}?limit=1`)
        assert.strictEqual(page.body.commentCount, 1000)
        assert.strictEqual(page.body.items[0].postNumber, 1000)
      }),
    120_000
  )

  it.effect("pagination is stable while comments arrive: newest and oldest, no repeat, no skip", () =>
    Effect.gen(function* () {
      const token = (yield* launchedTokens)[1]!
      const a = yield* member(newAccount())
      for (let i = 0; i < 23; i++) yield* comment(a, token, `before ${i}`)
      const arrive = (tag: string) => (page: number) =>
        Effect.asVoid(Effect.forEach([1, 2], (k) => comment(a, token, `${tag} ${page}.${k}`), { concurrency: 2 }))

      const newest = yield* allPages(`/v1/comments/tokens/${token}`, 5, arrive("during-newest"))
      const nums = newest.map((c) => c.postNumber)
      assert.strictEqual(new Set(nums).size, nums.length, "no repeats")
      assert.isTrue(
        nums.every((n, i) => i === 0 || nums[i - 1] > n),
        "strictly newest first"
      )
      assert.deepStrictEqual(
        nums,
        Array.from({ length: 23 }, (_, i) => 23 - i),
        "exactly the comments of the first page's time"
      )

      const oldest = yield* allPages(`/v1/comments/tokens/${token}?order=oldest`, 6, arrive("during-oldest"))
      const olds = oldest.map((c) => c.postNumber)
      assert.strictEqual(new Set(olds).size, olds.length)
      assert.deepStrictEqual(
        olds,
        Array.from({ length: olds.length }, (_, i) => i + 1),
        "no gap: arrivals join at the end"
      )
      assert.isAtLeast(olds.length, 23 + 10)
      const fresh = yield* client(`/v1/comments/tokens/${token}?limit=100`)
      assert.strictEqual(fresh.body.items.length, fresh.body.commentCount, "a new first page shows every comment")
    })
  )

  it.effect(
    "threads: replies with counts and their own post numbers, pages of replies, replies stay in their token",
    () =>
      Effect.gen(function* () {
        const [t1, t2] = (yield* launchedTokens).slice(2, 4)
        const [a, b] = [yield* member(newAccount()), yield* member(newAccount())]
        const root = yield* comment(a, t1!, "root")
        assert.strictEqual(root.mintAddress, getAddress(t1!))
        assert.strictEqual(root.replyTo, null)
        assert.deepStrictEqual(root.viewer, { liked: false, disliked: false, favorited: false })
        const replies = []
        for (let i = 0; i < 5; i++) replies.push(yield* comment(b, t1!, `reply ${i}`, { replyTo: root.id }))
        assert.deepStrictEqual(
          replies.map((r) => r.postNumber),
          [2, 3, 4, 5, 6]
        )
        const nested = yield* comment(a, t1!, "nested", { replyTo: replies[0].id })

        const thread = yield* client(`/v1/comments/${root.id}?limit=2`)
        assert.strictEqual(thread.status, 200)
        assert.strictEqual(thread.body.comment.replyCount, 5)
        assert.strictEqual(thread.body.comment.viewer, null, "anonymous: no viewer state")
        assert.deepStrictEqual(
          yield* allPages(`/v1/comments/${root.id}`, 2).pipe(Effect.map((r) => r.map((x) => x.id))),
          replies.map((r) => r.id)
        )
        const top = yield* client(`/v1/comments/tokens/${t1}`)
        assert.deepStrictEqual(
          top.body.items.map((c: any) => c.id),
          [root.id],
          "replies are not top-level"
        )
        assert.strictEqual(top.body.commentCount, 7)
        const byNumber = yield* client(`/v1/comments/tokens/${t1}/post/7`)
        assert.strictEqual(byNumber.body.id, nested.id)
        assert.strictEqual(byNumber.body.replyTo, replies[0].id)

        const cross = yield* postJson("/v1/comments", { token: t2, text: "x", replyTo: root.id }, b.headers)
        assert.strictEqual(cross.status, 400)
        assert.strictEqual(cross.body.code, "REPLY_TO_OTHER_TOKEN")
        const missing = yield* postJson("/v1/comments", { token: t1, text: "x", replyTo: 999_999_999 }, b.headers)
        assert.strictEqual(missing.body.code, "COMMENT_NOT_FOUND")
      })
  )

  it.effect("edit and delete: someone else's → 403; own edit marks editedAt; admin delete leaves a tombstone", () =>
    Effect.gen(function* () {
      const token = (yield* launchedTokens)[3]!
      const [a, b, boss] = [yield* member(newAccount()), yield* member(newAccount()), yield* member(admin)]
      const mine = yield* comment(a, token, "original <b>text</b> & more")
      assert.strictEqual(mine.text, "original <b>text</b> & more", "stored and returned as given")
      const reply = yield* comment(b, token, "a reply", { replyTo: mine.id })

      const foreignEdit = yield* send("PUT", `/v1/comments/${mine.id}`, { text: "hacked" }, b.headers)
      assert.strictEqual(foreignEdit.status, 403)
      assert.strictEqual(foreignEdit.body.code, "NOT_COMMENT_AUTHOR")
      assert.strictEqual(
        (yield* send("PUT", `/v1/comments/${mine.id}`, { text: "by admin" }, boss.headers)).status,
        403,
        "admins cannot edit"
      )
      const foreignDelete = yield* send("DELETE", `/v1/comments/${mine.id}`, undefined, b.headers)
      assert.strictEqual(foreignDelete.status, 403)
      assert.strictEqual(foreignDelete.body.code, "NOT_COMMENT_AUTHOR")

      const edited = yield* send("PUT", `/v1/comments/${mine.id}`, { text: "edited" }, a.headers)
      assert.strictEqual(edited.status, 200)
      assert.strictEqual(edited.body.text, "edited")
      assert.isString(edited.body.editedAt)
      assert.strictEqual(edited.body.postNumber, mine.postNumber)

      const removed = yield* send("DELETE", `/v1/comments/${mine.id}`, undefined, boss.headers)
      assert.strictEqual(removed.status, 200)
      assert.include(removed.body, { deleted: true, text: null, author: null, postNumber: mine.postNumber })
      const again = yield* send("DELETE", `/v1/comments/${mine.id}`, undefined, a.headers)
      assert.strictEqual(again.status, 200, "idempotent")
      const thread = yield* client(`/v1/comments/${mine.id}`)
      assert.strictEqual(thread.body.comment.deleted, true)
      assert.deepStrictEqual(
        thread.body.replies.map((r: any) => r.id),
        [reply.id],
        "the thread keeps its shape"
      )
      assert.strictEqual((yield* client(`/v1/comments/tokens/${token}/post/${mine.postNumber}`)).body.deleted, true)
      assert.strictEqual((yield* client(`/v1/comments/tokens/${token}`)).body.commentCount, 1)
      assert.strictEqual(
        (yield* send("PUT", `/v1/comments/${mine.id}`, { text: "back" }, a.headers)).body.code,
        "COMMENT_DELETED"
      )
      const next = yield* comment(a, token, "after the delete")
      assert.strictEqual(next.postNumber, reply.postNumber + 1, "a deleted comment's number stays taken")

      const own = yield* send("DELETE", `/v1/comments/${reply.id}`, undefined, b.headers)
      assert.strictEqual(own.body.deleted, true)
      const report = yield* postJson(`/v1/comments/${next.id}/report`, { reason: "spam" }, b.headers)
      assert.strictEqual(report.status, 201)
      assert.strictEqual(
        (yield* postJson(`/v1/comments/${next.id}/report`, { reason: "spam" }, b.headers)).body.code,
        "REPORT_ALREADY_OPEN"
      )
    })
  )

  it.effect("batch: the latest N comments of many tokens in one request", () =>
    Effect.gen(function* () {
      const tokens = yield* launchedTokens
      const a = yield* member(newAccount())
      const target = tokens[3]!
      // The second token gets comments of its own first, so the test does not depend on what earlier tests posted.
      for (let i = 0; i < 3; i++) yield* comment(a, tokens[2]!, `other ${i}`)
      for (let i = 0; i < 4; i++) yield* comment(a, target, `batch ${i}`)
      const none = "0x000000000000000000000000000000000000dEaD"
      const res = yield* postJson("/v1/comments/batch", { mintAddresses: [target, tokens[2], none], limit: 3 })
      assert.strictEqual(res.status, 200, JSON.stringify(res.body))
      assert.deepStrictEqual(
        res.body.tokens[target.toLowerCase()].map((c: any) => c.text),
        ["batch 3", "batch 2", "batch 1"]
      )
      assert.strictEqual(res.body.tokens[tokens[2]!.toLowerCase()].length, 3)
      assert.isTrue(res.body.tokens[tokens[2]!.toLowerCase()].every((c: any) => !c.deleted))
      assert.deepStrictEqual(res.body.tokens[none.toLowerCase()], [])
      // The feeds read the same table: the newest yaps head the YAPS feed.
      const feed = yield* client("/v1/feed?type=YAPS&limit=3")
      assert.deepStrictEqual(
        feed.body.items.map((x: any) => [x.type, x.text]),
        [
          ["YAP", "batch 3"],
          ["YAP", "batch 2"],
          ["YAP", "batch 1"]
        ]
      )
      const tooMany = yield* postJson("/v1/comments/batch", { mintAddresses: Array.from({ length: 51 }, () => none) })
      assert.strictEqual(tooMany.body.code, "INVALID_BODY")
    })
  )

  it.effect("an image goes through the image pipeline (POST /v1/comments/image) and onto the comment", () =>
    Effect.gen(function* () {
      const token = (yield* launchedTokens)[0]!
      const a = yield* member(newAccount())
      const png = yield* Effect.promise(() =>
        sharp(Buffer.alloc(8 * 8 * 3, 90), { raw: { width: 8, height: 8, channels: 3 } })
          .png()
          .toBuffer()
      )
      const form = new FormData()
      form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "pic.png")
      const upload = yield* client("/v1/comments/image", { method: "POST", body: form, headers: a.headers })
      assert.strictEqual(upload.status, 201, JSON.stringify(upload.body))
      assert.match(upload.body.image, /^\/v1\/images\/[0-9a-f]{64}\.webp$/)
      const posted = yield* comment(a, token, "look", { image: upload.body.image })
      assert.strictEqual(posted.image, upload.body.image)
      assert.strictEqual((yield* client(upload.body.image)).status, 200)
      const notImage = new FormData()
      notImage.append("file", new Blob(["hello"], { type: "image/png" }), "x.png")
      assert.strictEqual(
        (yield* client("/v1/comments/image", { method: "POST", body: notImage, headers: a.headers })).body.code,
        "NOT_AN_IMAGE"
      )
    })
  )

  it.effect("profile widgets: the user's yaps, newest first, paged; the stats count live comments", () =>
    Effect.gen(function* () {
      const token = (yield* launchedTokens)[2]!
      const account = newAccount()
      const a = yield* member(account)
      const written = []
      for (let i = 0; i < 5; i++) written.push(yield* comment(a, token, `mine ${i}`))
      yield* send("DELETE", `/v1/comments/${written[1].id}`, undefined, a.headers)
      const first = yield* client(`/v1/users/yaps?address=${account.address}&limit=3`)
      assert.strictEqual(first.status, 200, JSON.stringify(first.body))
      assert.deepStrictEqual(
        first.body.items.map((c: any) => c.text),
        ["mine 4", "mine 3", "mine 2"]
      )
      const rest = yield* client(`/v1/users/yaps?address=${account.address}&limit=3&cursor=${first.body.nextCursor}`)
      assert.deepStrictEqual(
        rest.body.items.map((c: any) => c.text),
        ["mine 0"]
      )
      assert.strictEqual(rest.body.nextCursor, null)
      assert.strictEqual((yield* client("/v1/users/stats", { headers: a.headers })).body.yaps, 4)
      assert.strictEqual((yield* client(`/v1/users/stats?address=${newAccount().address}`)).body.yaps, 0)
    })
  )

  it.effect("bad input → 400 with a code; unknown token → 404; no session → 401", () =>
    Effect.gen(function* () {
      const token = (yield* launchedTokens)[0]!
      const a = yield* member(newAccount())
      const cases: Array<[unknown, string]> = [
        [{ token, text: "" }, "INVALID_BODY"],
        [{ token, text: "   \n " }, "INVALID_BODY"],
        [{ token, text: "x".repeat(1001) }, "INVALID_BODY"],
        [{ token, text: "bell\u0007" }, "INVALID_BODY"],
        [{ token: "0x1234", text: "hi" }, "INVALID_BODY"],
        [{ token, text: "hi", replyTo: -1 }, "INVALID_BODY"],
        [{ token, text: "hi", image: "http://evil.example/x.png" }, "INVALID_BODY"],
        [{ token, text: "hi", image: `/v1/images/${"ab".repeat(32)}.webp` }, "IMAGE_NOT_FOUND"]
      ]
      for (const [body, code] of cases) {
        const res = yield* postJson("/v1/comments", body, a.headers)
        assert.strictEqual(res.status, 400, JSON.stringify(body))
        assert.strictEqual(res.body.code, code, JSON.stringify(body))
      }
      assert.strictEqual(
        (yield* postJson("/v1/comments", { token, text: "x".repeat(1000) }, a.headers)).status,
        201,
        "the limit itself is fine"
      )
      assert.strictEqual(
        (yield* postJson("/v1/comments", { token, text: "🔥".repeat(1000) }, a.headers)).status,
        201,
        "characters, not UTF-16 units"
      )
      const unknown = yield* postJson(
        "/v1/comments",
        { token: "0x000000000000000000000000000000000000dEaD", text: "hi" },
        a.headers
      )
      assert.strictEqual(unknown.status, 404)
      assert.strictEqual(unknown.body.code, "TOKEN_NOT_FOUND")
      assert.strictEqual((yield* postJson("/v1/comments", { token, text: "hi" })).body.code, "UNAUTHORIZED")
      assert.strictEqual((yield* client(`/v1/comments/tokens/${token}?cursor=abc`)).body.code, "INVALID_QUERY")
      assert.strictEqual((yield* client(`/v1/comments/tokens/${token}?cursor=99999999999`)).body.code, "INVALID_QUERY")
      assert.strictEqual((yield* client(`/v1/comments/tokens/${token}?limit=101`)).body.code, "INVALID_QUERY")
      assert.strictEqual((yield* client("/v1/comments/abc")).body.code, "INVALID_PATH")
      assert.strictEqual((yield* client("/v1/comments/999999999")).body.code, "COMMENT_NOT_FOUND")
      assert.strictEqual((yield* client(`/v1/comments/tokens/${token}/post/999999`)).body.code, "COMMENT_NOT_FOUND")
    })
  )
})
