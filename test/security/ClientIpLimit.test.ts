import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { client } from "../support/http.ts"
import { TestServices } from "../support/TestServer.ts"

/**
 * The client API's per-IP limit (docs/SECURITY.md threat 23, issue 23 L4): public reads, share links, push
 * subscriptions and every other feature route share one window per client IP; the probes, health and `/v1/ip` stay
 * out of it, and another IP has its own window. Real client service, Postgres counters.
 */
const LIMIT = 5

const from = (ip: string) => ({ "x-forwarded-for": ip })

layer(TestServices(["client"], { trustProxy: true }, { clientIp: { limit: LIMIT, windowSeconds: 600 } }), {
  timeout: "90 seconds",
  excludeTestServices: true
})("RATE_LIMIT_CLIENT_IP_LIMIT", (it) => {
  it.effect("public routes of one IP share a window: the 6th request is refused 429 RATE_LIMITED", () =>
    Effect.gen(function* () {
      const ip = "203.0.113.10"
      const paths = ["/v1/feed", "/v1/competition/stats", "/v1/shares/nope", "/v1/feed/sidebar", "/v1/feed"]
      for (const [i, path] of paths.entries()) {
        const res = yield* client(path, { headers: from(ip) })
        assert.notStrictEqual(res.status, 429, path)
        assert.strictEqual(res.headers.get("ratelimit-limit"), String(LIMIT), path)
        assert.strictEqual(res.headers.get("ratelimit-remaining"), String(LIMIT - 1 - i), path)
      }
      const refused = [
        yield* client("/v1/tokens/0x0000000000000000000000000000000000000001", { headers: from(ip) }),
        yield* client("/v1/push/subscribe", {
          method: "POST",
          headers: { ...from(ip), "content-type": "application/json" },
          body: "{}"
        }),
        yield* client("/v1/session/wallet/nonce?address=0x0000000000000000000000000000000000000001", {
          headers: from(ip)
        })
      ]
      for (const res of refused) {
        assert.strictEqual(res.status, 429, JSON.stringify(res.body))
        assert.strictEqual(res.body.code, "RATE_LIMITED")
        assert.isAbove(Number(res.headers.get("retry-after")), 0)
      }
    })
  )

  it.effect("probes, health and /v1/ip are not counted; another IP has its own window", () =>
    Effect.gen(function* () {
      const ip = "203.0.113.20"
      for (let i = 0; i < LIMIT; i++) assert.strictEqual((yield* client("/v1/feed", { headers: from(ip) })).status, 200)
      assert.strictEqual((yield* client("/v1/feed", { headers: from(ip) })).status, 429)
      for (const path of ["/healthz", "/livez", "/readyz", "/v1/ip"]) {
        const res = yield* client(path, { headers: from(ip) })
        assert.strictEqual(res.status, 200, path)
      }
      assert.strictEqual((yield* client("/v1/feed", { headers: from("203.0.113.21") })).status, 200)
    })
  )
})

layer(TestServices(["client"], { trustProxy: true }, { clientIp: { limit: 100, windowSeconds: 60, burst: 3 } }), {
  timeout: "90 seconds",
  excludeTestServices: true
})("RATE_LIMIT_CLIENT_IP_BURST", (it) => {
  it.effect("past the burst an IP gets 429 RATE_LIMITED while its window has room; another IP passes", () =>
    Effect.gen(function* () {
      const ip = "203.0.113.30"
      const feed = (caller: string) => client("/v1/feed", { headers: from(caller) })
      // Four at once; 100 per 60 s refills a request's worth in 600 ms.
      const answers = yield* Effect.all([feed(ip), feed(ip), feed(ip), feed(ip)], { concurrency: "unbounded" })
      // Before the burst allowance: four 200s, the window's 100 all available at once.
      assert.deepStrictEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 429])
      assert.deepStrictEqual(
        answers
          .filter((a) => a.status === 200)
          .map((a) => a.headers.get("ratelimit-remaining"))
          .sort(),
        ["97", "98", "99"]
      )
      const refused = answers.find((a) => a.status === 429)!
      assert.strictEqual(refused.body.code, "RATE_LIMITED")
      assert.match(refused.body.message, /^More than 3 requests at once from one address/)
      assert.strictEqual(refused.headers.get("retry-after"), "1")
      assert.strictEqual((yield* feed("203.0.113.31")).status, 200)
      // A second later the IP passes again; the refused request was not counted in the window.
      yield* Effect.sleep("1 second")
      const again = yield* feed(ip)
      assert.strictEqual(again.status, 200)
      assert.strictEqual(again.headers.get("ratelimit-remaining"), "96")
    })
  )
})
