import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Listening } from "../../src/platform/http/Serve.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"

// Read by the services as they start (the app reads them from the environment the same way).
const TOKEN = "metrics-listener-token-5e21"
process.env.METRICS_PORT = "0"
process.env.METRICS_TOKEN = TOKEN

const metricsUrl = Effect.map(Listening, (listening) => listening.get("metrics"))

/**
 * `/metrics` on its own address (docs/SECURITY.md threat 16, docs/OPERATIONS.md "Metrics"): with METRICS_PORT set,
 * a listener of its own serves only `/metrics` (the token still required), and the service ports answer 404 there.
 */
layer(TestServices(["client", "exchange"]), { timeout: "90 seconds", excludeTestServices: true })(
  "METRICS_PORT",
  (it) => {
    it.effect("the service ports do not serve /metrics", () =>
      Effect.gen(function* () {
        for (const service of ["client", "exchange"] as const) {
          const res = yield* fetchJson(`${yield* baseUrl(service)}/metrics`, {
            headers: { authorization: `Bearer ${TOKEN}` }
          })
          assert.strictEqual(res.status, 404, `${service}: ${JSON.stringify(res.body)}`)
          assert.strictEqual(res.body.code, "NOT_FOUND", service)
        }
      })
    )

    it.effect("the metrics listener, on 127.0.0.1 by default, serves /metrics with the token and nothing else", () =>
      Effect.gen(function* () {
        const url = yield* metricsUrl
        assert.isDefined(url, "no metrics listener")
        assert.match(url!, /^http:\/\/127\.0\.0\.1:\d+$/)
        // A request on a service port, so that its series shows.
        assert.strictEqual((yield* fetchJson(`${yield* baseUrl("client")}/v1/ip`)).status, 200)

        const none = yield* fetchJson(`${url}/metrics`)
        assert.deepStrictEqual([none.status, none.body.code], [401, "METRICS_TOKEN_REQUIRED"])
        const right = yield* fetchJson(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
        assert.strictEqual(right.status, 200)
        assert.match(right.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/)
        assert.match(String(right.body), /^http_request_duration_seconds_count\{.*service="client".*\} \d+/m)

        const other = yield* fetchJson(`${url}/v1/ip`, { headers: { authorization: `Bearer ${TOKEN}` } })
        assert.deepStrictEqual([other.status, other.body.code], [404, "NOT_FOUND"])
        const post = yield* fetchJson(`${url}/metrics`, {
          method: "POST",
          headers: { authorization: `Bearer ${TOKEN}` }
        })
        assert.strictEqual(post.status, 405)
      })
    )
  }
)
