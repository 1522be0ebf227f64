import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { baseUrl } from "../support/TestServer.ts"
import { scrape, valueOf } from "../observability/prometheus.ts"
import { bearer, postJson } from "../support/http.ts"
import { AccountsServer, newAccount, tokenFor } from "../sessions/support.ts"
import { eventually, notify, userIdOf } from "./support.ts"
import { browserSubscription, CA_FILE, TestPushService } from "./TestPushService.ts"

/**
 * Web push endpoints as SSRF (docs/SECURITY.md threat 6), with PUSH_ALLOW_PRIVATE_HOSTS at its default (off), on
 * the real client service, its push worker and PostgreSQL. The app still trusts the test push service's CA
 * (PUSH_CA_FILE), so without the checks the deliveries below would reach it: that it receives nothing is the test.
 */
const Server = AccountsServer({ PUSH_CA_FILE: CA_FILE, PUSH_RETRY_BASE_MS: "50", PUSH_POLL_MS: "50" })

layer(Layer.mergeAll(Server, TestPushService.layer), { timeout: "90 seconds", excludeTestServices: true })(
  "push SSRF",
  (it) => {
    it.effect(
      "subscribe refuses localhost and private, loopback and link-local IP literals with 400 PUSH_ENDPOINT_NOT_ALLOWED",
      () =>
        Effect.gen(function* () {
          const token = yield* tokenFor(newAccount())
          const refused = [
            ["https://127.0.0.1/push/1", "127.0.0.1", "a loopback address"],
            ["https://[::1]/push/2", "::1", "a loopback address"],
            ["https://169.254.169.254/latest/meta-data/", "169.254.169.254", "a link-local address"],
            ["https://10.0.0.1/push/3", "10.0.0.1", "a private address"],
            ["https://localhost/push/4", "localhost", "a name of this machine (localhost)"]
          ] as const
          for (const [endpoint, host, reason] of refused) {
            const res = yield* postJson("/v1/push/subscribe", browserSubscription(endpoint).json, bearer(token))
            assert.strictEqual(res.status, 400, endpoint)
            // The client API's error body, as for INVALID_BODY: { code, message, details }.
            const { code, message, details } = res.body
            assert.deepStrictEqual(
              { code, message, details },
              {
                code: "PUSH_ENDPOINT_NOT_ALLOWED",
                message: `The push endpoint's host ${host} is ${reason}: endpoints must be public push services`,
                details: { host, reason }
              }
            )
          }
          const sql = yield* SqlClient.SqlClient
          const userId = yield* userIdOf(token)
          assert.strictEqual(
            (yield* sql`SELECT 1 FROM push_subscriptions WHERE user_id = ${userId}`).length,
            0,
            "nothing stored"
          )

          const fcm = browserSubscription("https://fcm.googleapis.com/fcm/send/x").json
          assert.strictEqual((yield* postJson("/v1/push/subscribe", fcm, bearer(token))).status, 204)
        })
    )

    it.effect(
      "delivery to a stored name resolving to loopback, or an IP literal: nothing sent, subscription removed",
      () =>
        Effect.gen(function* () {
          const push = yield* TestPushService
          const sql = yield* SqlClient.SqlClient
          const refusedCount = Effect.map(scrape(yield* baseUrl("client")), (m) =>
            valueOf(m.samples, "push_deliveries_total", { outcome: "refused" })
          )
          const before = yield* refusedCount
          const userId = yield* userIdOf(yield* tokenFor(newAccount()))
          const port = new URL(push.origin).port
          // Rows written as an older release (or a DNS change after subscribe) would leave them: the route is bypassed.
          const endpoints = [`https://localhost:${port}/ssrf/name`, `https://127.0.0.1:${port}/ssrf/literal`]
          for (const endpoint of endpoints) {
            push.route(new URL(endpoint).pathname, [201])
            const { keys } = browserSubscription(endpoint).json
            yield* sql`INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth)
                   VALUES (${userId}, ${endpoint}, ${keys.p256dh}, ${keys.auth})`
          }

          yield* notify(userId, 1)
          yield* eventually(
            sql`SELECT 1 FROM push_subscriptions WHERE user_id = ${userId}`,
            (rows) => rows.length === 0
          )
          const jobs = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM push_jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.user_id = ${userId}`
          assert.strictEqual(jobs[0]!.n, 0, "no job is left to retry")
          assert.deepStrictEqual(
            endpoints.map((e) => push.received(new URL(e).pathname).length),
            [0, 0],
            "the push service saw nothing"
          )
          const after = yield* refusedCount.pipe(
            Effect.repeat({ until: (n) => n - before >= 2, schedule: Schedule.spaced("20 millis") }),
            Effect.timeout("10 seconds")
          )
          assert.strictEqual(after - before, 2, "both counted as refused (not retried, not delivered)")
        })
    )
  }
)
