import { assert, layer } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Effect } from "effect"
import { ServiceNames } from "../../src/platform/AppConfig.ts"
import { TestDatabaseInfo, withAdmin } from "../support/TestDatabase.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"

const healthPath = { client: "/healthz", exchange: "/api/health", search: "/api/health", indexer: "/healthz" } as const

layer(TestServices(), { timeout: "60 seconds" })("health routes", (it) => {
  it.effect("every service answers 200 with the database up", () =>
    Effect.gen(function* () {
      for (const service of ServiceNames) {
        const res = yield* fetchJson(`${yield* baseUrl(service)}${healthPath[service]}`)
        assert.strictEqual(res.status, 200, service)
        assert.strictEqual(res.body.status, "ok")
        assert.strictEqual(res.body.service, service)
        assert.strictEqual(res.body.database.status, "up")
        assert.isString(res.headers.get("x-request-id"))
        // The spec's public tier of the exchange (health included) is limited per client IP.
        if (service === "exchange") assert.isNotNull(res.headers.get("ratelimit-limit"))
      }
    })
  )

  it.effect(
    "the health route is liveness: 200 `degraded` while the database refuses connections (readiness 503), `ok` once it is back",
    () =>
      Effect.gen(function* () {
        const { name } = yield* TestDatabaseInfo
        const base = yield* baseUrl("exchange")
        const url = `${base}/api/health`
        yield* withAdmin((sql) =>
          Effect.gen(function* () {
            yield* sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)
            yield* sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`
          })
        )
        const down = yield* fetchJson(url)
        const notReady = yield* fetchJson(`${base}/readyz`)
        yield* withAdmin((sql) => sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`))
        assert.strictEqual(down.status, 200, JSON.stringify(down.body))
        assert.strictEqual(down.body.status, "degraded")
        assert.strictEqual(down.body.database.status, "down")
        assert.strictEqual(notReady.status, 503)
        assert.strictEqual(notReady.body.code, "DATABASE_DOWN")
        const up = yield* fetchJson(url)
        assert.strictEqual(up.status, 200)
        assert.strictEqual(up.body.status, "ok")
        assert.strictEqual(up.body.database.status, "up")
      })
  )

  it.effect("docs: Scalar page and a valid OpenAPI 3.1 document on client, exchange and search", () =>
    Effect.gen(function* () {
      for (const service of ["client", "exchange", "search"] as const) {
        const base = yield* baseUrl(service)
        const page = yield* Effect.promise(() => fetch(`${base}/docs`))
        assert.strictEqual(page.status, 200)
        assert.match(page.headers.get("content-type") ?? "", /text\/html/)
        assert.include(yield* Effect.promise(() => page.text()), "<html")
        const doc = yield* fetchJson(`${base}/docs/openapi.json`)
        assert.strictEqual(doc.status, 200)
        assert.strictEqual(doc.body.openapi, "3.1.0")
        const validation = yield* Effect.promise(() => new Validator().validate(doc.body))
        assert.isTrue(validation.valid, `${service}: ${JSON.stringify(validation.errors)}`)
        assert.property(doc.body.paths, service === "client" ? "/healthz" : "/api/health")
      }
    })
  )

  it.effect("GET /v1/ip returns the peer address and ignores X-Forwarded-For without TRUST_PROXY", () =>
    Effect.gen(function* () {
      const res = yield* fetchJson(`${yield* baseUrl("client")}/v1/ip`, {
        headers: { "x-forwarded-for": "203.0.113.7" }
      })
      assert.strictEqual(res.status, 200)
      assert.strictEqual(res.body.ip, "127.0.0.1")
    })
  )
})

layer(TestServices(["client"], { trustProxy: true }), { timeout: "60 seconds" })("behind a trusted proxy", (it) => {
  it.effect("GET /v1/ip returns the right-most X-Forwarded-For entry (the one the trusted proxy appended)", () =>
    Effect.gen(function* () {
      const res = yield* fetchJson(`${yield* baseUrl("client")}/v1/ip`, {
        headers: { "x-forwarded-for": "203.0.113.7, 10.0.0.1" }
      })
      assert.strictEqual(res.body.ip, "10.0.0.1")
    })
  )
})
