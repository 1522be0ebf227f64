import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { createPublicKey } from "node:crypto"
import { jwtVerify } from "jose"
import { bearer, client, postJson } from "../support/http.ts"
import { AccountsServer, newAccount, tokenFor } from "../sessions/support.ts"
import { baseUrl } from "../support/TestServer.ts"
import { scrape, valueOf } from "../observability/prometheus.ts"
import { eventually, notify, userIdOf } from "./support.ts"
import { browserSubscription, CA_FILE, TestPushService } from "./TestPushService.ts"

/**
 * Real delivery: the app's push worker sends with web-push over HTTPS to a push service on localhost, and the test
 * decrypts the body with the private key of a subscription it generated the way a browser does. The push service
 * is on this machine, so PUSH_ALLOW_PRIVATE_HOSTS turns the SSRF checks off here (they are tested in PushSsrf.test.ts).
 */
const Server = AccountsServer({
  PUSH_CA_FILE: CA_FILE,
  PUSH_ALLOW_PRIVATE_HOSTS: "true",
  // Well above PUSH_POLL_MS, so that the backoff (200 ms, then 400 ms) dominates the spacing of retries.
  PUSH_RETRY_BASE_MS: "200",
  PUSH_POLL_MS: "50"
})

layer(Layer.mergeAll(Server, TestPushService.layer), { timeout: "90 seconds", excludeTestServices: true })(
  "web push",
  (it) => {
    it.effect("GET /v1/push/vapid-key: generated once, kept in app_settings, the same on every call", () =>
      Effect.gen(function* () {
        const first = yield* client("/v1/push/vapid-key")
        assert.strictEqual(first.status, 200)
        assert.strictEqual(Buffer.from(first.body.publicKey, "base64url").length, 65)
        assert.deepStrictEqual((yield* client("/v1/push/vapid-key")).body, first.body)
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{
          value: { publicKey: string }
        }>`SELECT value FROM app_settings WHERE name = 'vapid_keys'`
        assert.strictEqual(rows[0]!.value.publicKey, first.body.publicKey)
      })
    )

    it.effect(
      "a notification is pushed, encrypted per RFC 8291, with VAPID, TTL and urgency; the test decrypts it",
      () =>
        Effect.gen(function* () {
          const push = yield* TestPushService
          const token = yield* tokenFor(newAccount())
          const userId = yield* userIdOf(token)
          const waitFor = push.route("/ok/1", [201])
          const browser = browserSubscription(`${push.origin}/ok/1`)
          const subscribed = yield* postJson("/v1/push/subscribe", browser.json, bearer(token))
          assert.strictEqual(subscribed.status, 204, JSON.stringify(subscribed.body))

          yield* notify(userId, 42)
          const received = yield* waitFor(1)
          assert.strictEqual(received.headers["content-encoding"], "aes128gcm")
          assert.strictEqual(received.headers["ttl"], "86400")
          assert.strictEqual(received.headers["urgency"], "normal")
          const message = JSON.parse(browser.decrypt(received.body))
          assert.strictEqual(message.kind, "COMMENT_REPLY")
          assert.strictEqual(message.payload.commentId, 42)
          assert.strictEqual(message.payload.excerpt, "gm")
          assert.isNull(message.readAt)
          const listed = yield* client("/v1/notifications", { headers: bearer(token) })
          assert.deepStrictEqual(listed.body.items[0], message, "the push body is the notification as the API lists it")

          // Authorization: vapid t=<JWT signed with the VAPID private key>, k=<the public key the API hands out>
          const vapid = /^vapid t=([^,]+), k=(.+)$/.exec(String(received.headers["authorization"]))
          assert.isNotNull(vapid)
          const publicKey = (yield* client("/v1/push/vapid-key")).body.publicKey as string
          assert.strictEqual(vapid![2], publicKey)
          const point = Buffer.from(publicKey, "base64url")
          const key = createPublicKey({
            key: {
              kty: "EC",
              crv: "P-256",
              x: point.subarray(1, 33).toString("base64url"),
              y: point.subarray(33).toString("base64url")
            },
            format: "jwk"
          })
          const { payload } = yield* Effect.promise(() => jwtVerify(vapid![1]!, key))
          assert.strictEqual(payload.aud, push.origin)

          const sql = yield* SqlClient.SqlClient
          yield* eventually(sql`SELECT count(*)::int AS n FROM push_jobs`, (rows) => (rows[0] as { n: number }).n === 0)
        })
    )

    it.effect("410 from the push service removes the subscription; other subscriptions of the user still get it", () =>
      Effect.gen(function* () {
        const push = yield* TestPushService
        const base = yield* baseUrl("client")
        const deliveries = Effect.map(scrape(base), (m) => ({
          gone: valueOf(m.samples, "push_deliveries_total", { outcome: "gone" }),
          delivered: valueOf(m.samples, "push_deliveries_total", { outcome: "delivered" })
        }))
        const before = yield* deliveries
        const token = yield* tokenFor(newAccount())
        const userId = yield* userIdOf(token)
        const gone = push.route("/gone/1", [410])
        const ok = push.route("/ok/2", [201])
        const dead = browserSubscription(`${push.origin}/gone/1`)
        const alive = browserSubscription(`${push.origin}/ok/2`)
        for (const b of [dead, alive])
          assert.strictEqual((yield* postJson("/v1/push/subscribe", b.json, bearer(token))).status, 204)

        yield* notify(userId, 7)
        yield* gone(1)
        assert.strictEqual(JSON.parse(alive.decrypt((yield* ok(1)).body)).payload.commentId, 7)
        const sql = yield* SqlClient.SqlClient
        const endpoints = sql<{ endpoint: string }>`SELECT endpoint FROM push_subscriptions WHERE user_id = ${userId}`
        const left = yield* eventually(endpoints, (rows) => rows.length === 1)
        assert.deepStrictEqual(
          left.map((r) => r.endpoint),
          [`${push.origin}/ok/2`]
        )

        // The next notification is not sent to the removed endpoint.
        yield* notify(userId, 8)
        assert.strictEqual(JSON.parse(alive.decrypt((yield* ok(2)).body)).payload.commentId, 8)
        assert.strictEqual(push.received("/gone/1").length, 1)
        // push_deliveries_total on /metrics: one gone, two delivered (counted as each job settles).
        const after = yield* deliveries.pipe(
          Effect.repeat({ until: (d) => d.delivered - before.delivered >= 2, schedule: Schedule.spaced("20 millis") }),
          Effect.timeout("10 seconds")
        )
        assert.deepStrictEqual(
          { gone: after.gone - before.gone, delivered: after.delivered - before.delivered },
          { gone: 1, delivered: 2 }
        )
      })
    )

    it.effect("5xx is retried with backoff until the push service accepts it; the subscription stays", () =>
      Effect.gen(function* () {
        const push = yield* TestPushService
        const token = yield* tokenFor(newAccount())
        const userId = yield* userIdOf(token)
        const flaky = push.route("/flaky/1", [503, 500, 201])
        const browser = browserSubscription(`${push.origin}/flaky/1`)
        assert.strictEqual((yield* postJson("/v1/push/subscribe", browser.json, bearer(token))).status, 204)
        yield* notify(userId, 99)
        const third = yield* flaky(3)
        assert.strictEqual(JSON.parse(browser.decrypt(third.body)).payload.commentId, 99)
        const sql = yield* SqlClient.SqlClient
        yield* eventually(sql`SELECT count(*)::int AS n FROM push_jobs`, (rows) => (rows[0] as { n: number }).n === 0)
        const attempts = push.received("/flaky/1").map((p) => p.at)
        assert.strictEqual(attempts.length, 3)
        // Exponential: the n-th retry waits at least PUSH_RETRY_BASE_MS × 2^(n-1) after the failure before it.
        const gaps = [attempts[1]! - attempts[0]!, attempts[2]! - attempts[1]!]
        assert.isAtLeast(gaps[0]!, 200, `gaps ${gaps}`)
        assert.isAtLeast(gaps[1]!, 400, `gaps ${gaps}`)
        const subs = yield* sql`SELECT 1 FROM push_subscriptions WHERE user_id = ${userId}`
        assert.strictEqual(subs.length, 1, "a 5xx does not remove the subscription")
      })
    )

    it.effect("subscribe validates the PushSubscription JSON; unsubscribe removes it; both need a session", () =>
      Effect.gen(function* () {
        const token = yield* tokenFor(newAccount())
        const good = browserSubscription("https://push.example/abc").json
        const invalid = [
          { ...good, endpoint: "http://push.example/abc" },
          { ...good, endpoint: "not a url" },
          { ...good, keys: { ...good.keys, p256dh: Buffer.alloc(65, 1).toString("base64url") } },
          { ...good, keys: { ...good.keys, auth: Buffer.alloc(8).toString("base64url") } },
          { endpoint: good.endpoint }
        ]
        for (const body of invalid) {
          const res = yield* postJson("/v1/push/subscribe", body, bearer(token))
          assert.strictEqual(res.status, 400, JSON.stringify(body))
          assert.strictEqual(res.body.code, "INVALID_BODY")
        }
        assert.strictEqual((yield* postJson("/v1/push/subscribe", good, {})).status, 401)
        assert.strictEqual((yield* postJson("/v1/push/subscribe", good, bearer(token))).status, 204)
        const removed = yield* postJson("/v1/push/unsubscribe", { endpoint: good.endpoint }, bearer(token))
        assert.deepStrictEqual([removed.status, removed.body], [200, { removed: true }])
        assert.deepStrictEqual(
          (yield* postJson("/v1/push/unsubscribe", { endpoint: good.endpoint }, bearer(token))).body,
          { removed: false }
        )
      })
    )
  }
)
