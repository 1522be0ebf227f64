import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { ServiceNames } from "../../src/platform/AppConfig.ts"
import { Chain } from "../../src/platform/Chain.ts"
import { clientTools, exchangeTools } from "../../src/mcp/AgentTools.ts"
import { TestDatabaseInfo, withAdmin } from "../support/TestDatabase.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"
import { scrape, valueOf } from "./prometheus.ts"

/**
 * `/metrics`, `/livez` and `/readyz` on all four services of one process, with a per-IP exchange limit of 3 so a
 * rejection can be counted.
 */
const Services = TestServices(ServiceNames, {}, { exchangePublic: { limit: 3, windowSeconds: 60 } })

layer(Services, { timeout: "90 seconds", excludeTestServices: true })("observability: metrics and probes", (it) => {
  it.effect("every service serves valid Prometheus text with request histograms labelled by route pattern", () =>
    Effect.gen(function* () {
      for (const service of ServiceNames) {
        const base = yield* baseUrl(service)
        for (let i = 0; i < 3; i++) assert.strictEqual((yield* fetchJson(`${base}/livez`)).status, 200)
        // Ids in the path must not become series of their own: the pattern is the label.
        yield* fetchJson(`${base}/no/such/route/${i18n(service)}`)
        const m = yield* scrape(base)
        assert.strictEqual(m.status, 200)
        assert.match(m.contentType, /^text\/plain/)
        assert.strictEqual(m.types.get("http_request_duration_seconds"), "histogram")
        const live = { service, route: "/livez", method: "GET", status: "200" }
        assert.strictEqual(valueOf(m.samples, "http_request_duration_seconds_count", live), 3, service)
        assert.isAbove(valueOf(m.samples, "http_request_duration_seconds_sum", live), 0)
        // Buckets are cumulative and end at +Inf with the count.
        const buckets = m.samples.filter(
          (s) =>
            s.name === "http_request_duration_seconds_bucket" &&
            Object.entries(live).every(([k, v]) => s.labels[k] === v)
        )
        const values = buckets.map((b) => b.value)
        assert.deepStrictEqual(
          values,
          [...values].sort((a, b) => a - b)
        )
        assert.strictEqual(buckets.find((b) => b.labels.le === "+Inf")?.value, 3)
        const unmatched = m.samples.filter(
          (s) =>
            s.name === "http_request_duration_seconds_count" &&
            s.labels.service === service &&
            s.labels.status === "404"
        )
        assert.deepStrictEqual(
          unmatched.map((s) => s.labels.route),
          ["*"]
        )
        // Process gauges, refreshed at scrape time.
        assert.isAbove(valueOf(m.samples, "process_resident_memory_bytes"), 10_000_000)
        assert.isAbove(valueOf(m.samples, "nodejs_heap_used_bytes"), 0)
        assert.strictEqual(m.types.get("nodejs_eventloop_delay_seconds"), "gauge")
      }
    })
  )

  it.effect("indexer height and lag follow the chain; the process holding the lock reports writer 1", () =>
    Effect.gen(function* () {
      const base = yield* baseUrl("indexer")
      const chain = yield* Chain
      const head = Number(yield* Effect.promise(() => chain.publicClient.getBlockNumber({ cacheTime: 0 })))
      // Scrapes until the checkpoint reaches the head seen above (the gauges are read from the live status).
      const m = yield* scrape(base).pipe(
        Effect.repeat({
          until: (m) => valueOf(m.samples, "indexer_indexed_block", { chain_id: String(chain.chainId) }) >= head,
          schedule: Schedule.spaced("50 millis")
        }),
        Effect.timeout("60 seconds")
      )
      assert.isAtLeast(valueOf(m.samples, "indexer_head_block"), head)
      assert.strictEqual(
        valueOf(m.samples, "indexer_lag_blocks"),
        valueOf(m.samples, "indexer_head_block") - valueOf(m.samples, "indexer_indexed_block")
      )
      assert.isAtLeast(valueOf(m.samples, "indexer_lag_seconds"), 0)
      assert.strictEqual(valueOf(m.samples, "indexer_writer"), 1)
      assert.strictEqual(m.types.get("indexer_events_total"), "counter")
      assert.isAbove(valueOf(m.samples, "indexer_events_total"), 0)
    })
  )

  it.effect("rate-limit rejections are counted by bucket", () =>
    Effect.gen(function* () {
      const base = yield* baseUrl("exchange")
      const before = valueOf((yield* scrape(base)).samples, "rate_limit_rejections_total", {
        bucket: "exchange-public"
      })
      const statuses = []
      for (let i = 0; i < 5; i++) statuses.push((yield* fetchJson(`${base}/api/v1/pools/metrics`)).status)
      assert.deepStrictEqual(statuses, [200, 200, 200, 429, 429])
      const m = yield* scrape(base)
      assert.strictEqual(valueOf(m.samples, "rate_limit_rejections_total", { bucket: "exchange-public" }) - before, 2)
      assert.strictEqual(
        valueOf(m.samples, "http_request_duration_seconds_count", {
          service: "exchange",
          route: "/api/v1/pools/metrics",
          status: "429"
        }),
        2
      )
    })
  )

  it.effect("/livez stays 200 while the database is down; /readyz answers 503 DATABASE_DOWN, then 200 again", () =>
    Effect.gen(function* () {
      const { name } = yield* TestDatabaseInfo
      const base = yield* baseUrl("client")
      assert.strictEqual((yield* fetchJson(`${base}/readyz`)).body.status, "ready")
      yield* withAdmin((sql) =>
        Effect.gen(function* () {
          yield* sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)
          yield* sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`
        })
      )
      const ready = yield* fetchJson(`${base}/readyz`)
      const live = yield* fetchJson(`${base}/livez`)
      yield* withAdmin((sql) => sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`))
      assert.strictEqual(ready.status, 503)
      assert.strictEqual(ready.body.code, "DATABASE_DOWN")
      assert.strictEqual(live.status, 200)
      assert.deepInclude(live.body, { status: "alive", service: "client" })
      const back = yield* fetchJson(`${base}/readyz`)
      assert.strictEqual(back.status, 200)
      assert.strictEqual(back.body.database.status, "up")
    })
  )

  it.effect("probes and metrics are documented in each OpenAPI document and are not MCP tools", () =>
    Effect.gen(function* () {
      for (const service of ["client", "exchange", "search"] as const) {
        const doc = (yield* fetchJson(`${yield* baseUrl(service)}/docs/openapi.json`)).body
        for (const path of ["/livez", "/readyz", "/metrics"]) assert.property(doc.paths, path, `${service} ${path}`)
        assert.property(doc.paths["/readyz"].get.responses, "503")
        assert.match(doc.paths["/readyz"].get.description, /load balancer/)
        assert.property(doc.paths["/metrics"].get.responses["200"].content, "text/plain; version=0.0.4; charset=utf-8")
      }
      const routes = [...clientTools(), ...exchangeTools()].map((t) => t.route.path)
      for (const path of ["/livez", "/readyz", "/metrics"]) assert.notInclude(routes, path)
    })
  )

  it.effect("X-Request-Id: a plain client id is echoed, a hostile one is replaced by a fresh UUID", () =>
    Effect.gen(function* () {
      const base = yield* baseUrl("client")
      const kept = yield* fetchJson(`${base}/livez`, { headers: { "x-request-id": "lb-7f3a.1" } })
      assert.strictEqual(kept.headers.get("x-request-id"), "lb-7f3a.1")
      const replaced = yield* fetchJson(`${base}/livez`, { headers: { "x-request-id": 'a b"<script>' } })
      assert.match(replaced.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/)
    })
  )
})

/** A path segment that differs per service, as an id would. */
const i18n = (service: string) => `${service}-${Math.random().toString(36).slice(2)}`
