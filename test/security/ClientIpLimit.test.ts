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
