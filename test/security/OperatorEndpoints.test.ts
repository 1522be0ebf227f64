import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"

// Read by the services as they start (the app reads them from the environment the same way).
const TOKEN = "metrics-test-token-1b6f0c"
process.env.METRICS_TOKEN = TOKEN
// A Typesense that is not there: the search service's start fails with a connection error naming this address.
process.env.TYPESENSE_URL = "http://127.0.0.1:9/typesense-secret-path"
process.env.TYPESENSE_API_KEY = "typesense-test-key"

/** Issue 23, L5: operator endpoints do not tell the public more than they must. */
layer(TestServices(["search"]), { timeout: "90 seconds", excludeTestServices: true })("operator endpoints", (it) => {
  it.effect("/metrics answers only the configured bearer token", () =>
    Effect.gen(function* () {
      const base = yield* baseUrl("search")
      const none = yield* fetchJson(`${base}/metrics`)
      assert.strictEqual(none.status, 401, JSON.stringify(none.body))
      assert.strictEqual(none.body.code, "METRICS_TOKEN_REQUIRED")
      const wrong = yield* fetchJson(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } })
      assert.strictEqual(wrong.status, 401)
      const basic = yield* fetchJson(`${base}/metrics`, { headers: { authorization: `Basic ${TOKEN}` } })
      assert.strictEqual(basic.status, 401)
      const right = yield* fetchJson(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
      assert.strictEqual(right.status, 200)
      assert.match(String(right.body), /^# (HELP|TYPE) /m)
    })
  )

  it.effect("/api/v1/search/index names a failed step by a stable code, never the error's text", () =>
    Effect.gen(function* () {
      const base = yield* baseUrl("search")
      const info = yield* fetchJson(`${base}/api/v1/search/index`).pipe(
        Effect.repeat({
          until: (r) => r.status !== 200 || r.body.lastError !== null,
          schedule: Schedule.spaced("50 millis")
        }),
        Effect.timeout("30 seconds")
      )
      assert.strictEqual(info.status, 200, JSON.stringify(info.body))
      assert.strictEqual(info.body.ready, false)
      assert.strictEqual(info.body.lastError, "SEARCH_START_FAILED")
      const search = yield* fetchJson(`${base}/api/v1/search?q=ember`)
      assert.strictEqual(search.status, 503)
      assert.strictEqual(search.body.code, "SEARCH_NOT_READY")
      for (const body of [JSON.stringify(info.body), JSON.stringify(search.body)]) {
        assert.notMatch(body, /127\.0\.0\.1|typesense-secret-path|ECONNREFUSED|fetch failed/i)
      }
    })
  )
})
