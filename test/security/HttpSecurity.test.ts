import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Metric } from "effect"
import { fastLaneResponses } from "../../src/exchange-api/cache/ExchangeFastLane.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"

/**
 * CORS and security headers (docs/SECURITY.md, threats "cross-origin reads with the session" and "clickjacking,
 * MIME sniffing, downgrade"): on the real client and exchange services, for successes, errors and the 404 fallback.
 */
const APP = "https://app.example.com"
const EVIL = "https://evil.example"

const servicesWith = (env: Record<string, string>, trustProxy = false) =>
  TestServices(["client", "exchange"], { trustProxy }).pipe(
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))
  )

const get = (service: "client" | "exchange", path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(baseUrl(service), (base) => fetchJson(`${base}${path}`, { headers }))

const laneAnswers = Effect.map(Metric.value(fastLaneResponses.ok), (state) => state.count)

/**
 * Reads a cached exchange route twice as a client behind a TLS-terminating proxy: the first read fills the exchange
 * cache through the Effect path, the second is answered by the fast lane at the Node listener (counted in
 * `exchange_fast_lane_responses`). Returns both answers' HSTS header and how many the lane answered.
 */
const readTwiceOverTls = Effect.gen(function* () {
  const path = "/api/v1/pools/list?sort=volume&limit=3"
  const before = yield* laneAnswers
  const first = yield* get("exchange", path, { "x-forwarded-proto": "https" })
  const second = yield* get("exchange", path, { "x-forwarded-proto": "https" })
  assert.deepStrictEqual([first.status, second.status], [200, 200])
  return {
    hsts: [first.headers.get("strict-transport-security"), second.headers.get("strict-transport-security")],
    byLane: (yield* laneAnswers) - before
  }
})

const preflight = (service: "client" | "exchange", path: string, origin: string) =>
  Effect.flatMap(baseUrl(service), (base) =>
    fetchJson(`${base}${path}`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type"
      }
    })
  )

// A route that succeeds, one that fails validation, and an unknown path, on both services.
const samples = [
  ["client", "/v1/ip", 200],
  ["client", "/v1/users/profile/address/nope", 400],
  ["client", "/v1/nothing-here", 404],
  ["exchange", "/api/v1/tokens/bluechip", 200],
  ["exchange", "/api/v1/pools/list?limit=x", 400],
  ["exchange", "/api/nothing-here", 404]
] as const

layer(servicesWith({ CORS_ORIGINS: APP }), { timeout: "60 seconds", excludeTestServices: true })(
  "CORS_ORIGINS lists one origin",
  (it) => {
    it.effect("security headers on every response: nosniff, no framing, no referrer; no HSTS over plain http", () =>
      Effect.gen(function* () {
        // Twice: the second exchange read is served by the fast lane from its cache (src/exchange-api/cache/ExchangeFastLane.ts).
        for (const [service, path, status] of [...samples, ...samples]) {
          const res = yield* get(service, path)
          assert.strictEqual(res.status, status, path)
          assert.strictEqual(res.headers.get("x-content-type-options"), "nosniff", path)
          assert.strictEqual(res.headers.get("x-frame-options"), "DENY", path)
          assert.include(res.headers.get("content-security-policy") ?? "", "frame-ancestors 'none'", path)
          assert.strictEqual(res.headers.get("referrer-policy"), "no-referrer", path)
          assert.isNull(res.headers.get("strict-transport-security"), path)
          assert.isNull(res.headers.get("access-control-allow-origin"), path)
        }
      })
    )

    it.effect(
      "without TRUST_PROXY, X-Forwarded-Proto: https is not believed: no HSTS, from the Effect path or the fast lane",
      () =>
        Effect.gen(function* () {
          const { byLane, hsts } = yield* readTwiceOverTls
          assert.strictEqual(byLane, 1, "the second read was answered by the fast lane")
          assert.deepStrictEqual(hsts, [null, null])
        })
    )

    it.effect(
      "the listed origin may read with credentials; another origin gets nothing from the client API, and `*` without credentials from the exchange's public tier",
      () =>
        Effect.gen(function* () {
          for (const [service, path] of samples) {
            const ok = yield* get(service, path, { origin: APP })
            assert.strictEqual(ok.headers.get("access-control-allow-origin"), APP, path)
            assert.strictEqual(ok.headers.get("access-control-allow-credentials"), "true", path)
            assert.include(ok.headers.get("vary") ?? "", "Origin", path)
            assert.include(ok.headers.get("access-control-expose-headers") ?? "", "x-request-id", path)
            const evil = yield* get(service, path, { origin: EVIL })
            // The spec's public tier of the exchange is public to every page; the client API only to the listed ones.
            const open = service === "exchange" && path.startsWith("/api/v1/")
            assert.strictEqual(evil.headers.get("access-control-allow-origin"), open ? "*" : null, path)
            assert.isNull(evil.headers.get("access-control-allow-credentials"), path)
          }
          // The exchange's frontend quote routes follow CORS_ORIGINS, and so do the operational routes (monitoring only).
          for (const path of ["/api/v1/quote/tokens?chainId=31337", "/metrics", "/readyz", "/livez"]) {
            const closed = yield* get("exchange", path, { origin: EVIL })
            assert.isNull(closed.headers.get("access-control-allow-origin"), path)
          }
        })
    )

    it.effect(
      "preflight: 204 with methods and headers for the listed origin, 403 CORS_ORIGIN_NOT_ALLOWED otherwise",
      () =>
        Effect.gen(function* () {
          const ok = yield* preflight("client", "/v1/users/profile", APP)
          assert.strictEqual(ok.status, 204)
          assert.strictEqual(ok.headers.get("access-control-allow-origin"), APP)
          assert.strictEqual(ok.headers.get("access-control-allow-credentials"), "true")
          assert.include(ok.headers.get("access-control-allow-methods") ?? "", "PATCH")
          assert.include(ok.headers.get("access-control-allow-headers") ?? "", "authorization")
          const evil = yield* preflight("client", "/v1/users/profile", EVIL)
          assert.strictEqual(evil.status, 403)
          assert.strictEqual(evil.body.code, "CORS_ORIGIN_NOT_ALLOWED")
          assert.isNull(evil.headers.get("access-control-allow-origin"))
          // The exchange: the allowlisted quote route is for the listed origins (our frontend)...
          const quote = yield* preflight("exchange", "/api/v1/quote", EVIL)
          assert.strictEqual(quote.status, 403)
          assert.strictEqual(quote.body.code, "CORS_ORIGIN_NOT_ALLOWED")
          assert.isString(quote.body.error)
          // ...while /quote/open is "not restricted by origin" (spec), and public reads are open too: no credentials.
          for (const path of ["/api/v1/quote/open", "/api/v1/pools/list"]) {
            const open = yield* Effect.flatMap(baseUrl("exchange"), (base) =>
              fetchJson(`${base}${path}`, {
                method: "OPTIONS",
                headers: {
                  origin: EVIL,
                  "access-control-request-method": path.endsWith("open") ? "POST" : "GET",
                  "access-control-request-headers": "content-type, x-partner-key"
                }
              })
            )
            assert.strictEqual(open.status, 204, path)
            assert.strictEqual(open.headers.get("access-control-allow-origin"), "*", path)
            assert.isNull(open.headers.get("access-control-allow-credentials"), path)
            // A renamed partner-key header (QUOTE_API_KEY_HEADER) may be sent: requested headers are allowed without credentials.
            assert.include(open.headers.get("access-control-allow-headers") ?? "", "x-partner-key", path)
          }
        })
    )
  }
)

layer(servicesWith({ CORS_ORIGINS: `${APP},*` }, true), { timeout: "60 seconds", excludeTestServices: true })(
  "CORS_ORIGINS with * behind a TLS proxy",
  (it) => {
    it.effect("* lets any origin read without credentials; the listed origin still gets credentials", () =>
      Effect.gen(function* () {
        const any = yield* get("exchange", "/api/v1/tokens/bluechip", { origin: EVIL })
        assert.strictEqual(any.headers.get("access-control-allow-origin"), "*")
        assert.isNull(any.headers.get("access-control-allow-credentials"))
        const listed = yield* get("client", "/v1/ip", { origin: APP })
        assert.strictEqual(listed.headers.get("access-control-allow-origin"), APP)
        assert.strictEqual(listed.headers.get("access-control-allow-credentials"), "true")
      })
    )

    it.effect("HSTS only for requests that came over TLS (X-Forwarded-Proto: https from the trusted proxy)", () =>
      Effect.gen(function* () {
        const tls = yield* get("client", "/v1/ip", { "x-forwarded-proto": "https" })
        assert.strictEqual(tls.headers.get("strict-transport-security"), "max-age=31536000; includeSubDomains")
        const plain = yield* get("client", "/v1/ip", { "x-forwarded-proto": "http" })
        assert.isNull(plain.headers.get("strict-transport-security"))
      })
    )

    it.effect("HSTS also on exchange cache hits answered by the fast lane (same headers as the Effect path)", () =>
      Effect.gen(function* () {
        const { byLane, hsts } = yield* readTwiceOverTls
        assert.strictEqual(byLane, 1, "the second read was answered by the fast lane")
        assert.deepStrictEqual(hsts, ["max-age=31536000; includeSubDomains", "max-age=31536000; includeSubDomains"])
        const plain = yield* get("exchange", "/api/v1/pools/list?sort=volume&limit=3", { "x-forwarded-proto": "http" })
        assert.isNull(plain.headers.get("strict-transport-security"))
      })
    )
  }
)
