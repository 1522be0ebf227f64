import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { createServer, type Server } from "node:http"
import { AnvilChain } from "../support/AnvilChain.ts"
import { startServiceProcess } from "../support/ServiceProcess.ts"
import { TestDatabase } from "../support/TestDatabase.ts"

interface OtlpSpan {
  readonly name: string
  readonly traceId: string
  readonly attributes: ReadonlyArray<{ key: string; value: { stringValue?: string; intValue?: string } }>
}

/**
 * A local OTLP/HTTP receiver: takes `POST /v1/traces` (JSON, as the OTLP HTTP exporter sends it), answers 200 and
 * hands each span to the waiters. Stands in for an OpenTelemetry collector.
 */
const otlpReceiver = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{
        server: Server
        url: string
        spans: Array<OtlpSpan>
        contentTypes: Set<string>
        waitSpan: (f: (s: OtlpSpan) => boolean) => Promise<OtlpSpan>
      }>((resolve) => {
        const spans: Array<OtlpSpan> = []
        const contentTypes = new Set<string>()
        const waiters: Array<{ f: (s: OtlpSpan) => boolean; resolve: (s: OtlpSpan) => void }> = []
        const server = createServer((req, res) => {
          const chunks: Array<Buffer> = []
          req.on("data", (c: Buffer) => chunks.push(c))
          req.on("end", () => {
            if (req.method === "POST" && req.url === "/v1/traces") {
              contentTypes.add(req.headers["content-type"] ?? "")
              const body = JSON.parse(Buffer.concat(chunks).toString())
              for (const rs of body.resourceSpans ?? []) {
                for (const ss of rs.scopeSpans ?? []) {
                  for (const span of ss.spans ?? []) {
                    spans.push(span)
                    for (const w of [...waiters])
                      if (w.f(span)) waiters.splice(waiters.indexOf(w), 1) && w.resolve(span)
                  }
                }
              }
            }
            res.writeHead(200, { "content-type": "application/json" }).end("{}")
          })
        })
        server.listen(0, "127.0.0.1", () => {
          const address = server.address() as { port: number }
          resolve({
            server,
            url: `http://127.0.0.1:${address.port}`,
            spans,
            contentTypes,
            waitSpan: (f) =>
              new Promise((res) => {
                const seen = spans.find(f)
                if (seen !== undefined) return res(seen)
                waiters.push({ f, resolve: res })
              })
          })
        })
      })
  ),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)

const attr = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value

layer(Layer.mergeAll(TestDatabase, AnvilChain.layer), { timeout: "180 seconds", excludeTestServices: true })(
  "tracing and JSON access logs",
  (it) => {
    it.effect(
      "OTEL_EXPORTER_OTLP_ENDPOINT: request spans reach the collector with route and request id; LOG_FORMAT=json access lines carry them too",
      () =>
        Effect.gen(function* () {
          const collector = yield* otlpReceiver
          const proc = yield* startServiceProcess(["client"], {
            OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
            OTEL_SERVICE_NAME: "fire-client-test",
            ACCESS_LOG: "true"
          })
          const base = proc.urls.client!
          const res = yield* Effect.promise(() =>
            fetch(`${base}/v1/ip`, { headers: { "x-request-id": "trace-test-1" } })
          )
          assert.strictEqual(res.status, 200)
          assert.strictEqual(res.headers.get("x-request-id"), "trace-test-1")

          // The access log line: one JSON object with the request's fields as annotations.
          const line = yield* Effect.promise(() => proc.waitFor(/"requestId":"trace-test-1"/))
          const log = JSON.parse(line)
          assert.strictEqual(log.message, "http")
          assert.strictEqual(log.level, "INFO")
          assert.deepInclude(log.annotations, {
            requestId: "trace-test-1",
            service: "client",
            method: "GET",
            route: "/v1/ip",
            path: "/v1/ip",
            status: 200
          })
          assert.isNumber(log.annotations.durationMs)

          // The request's server span, exported in a batch (the exporter flushes every second).
          const span = yield* Effect.promise(() =>
            collector.waitSpan((s) => attr(s, "http.request_id")?.stringValue === "trace-test-1")
          )
          assert.strictEqual(attr(span, "http.route")?.stringValue, "/v1/ip")
          assert.match(span.traceId, /^[0-9a-f]{32}$/)
          assert.include([...collector.contentTypes].join(), "application/json")

          // A traced database call inside a request: the health report's SELECT 1 is a child span of the same trace.
          yield* Effect.promise(() => fetch(`${base}/healthz`, { headers: { "x-request-id": "trace-test-2" } }))
          const health = yield* Effect.promise(() =>
            collector.waitSpan((s) => attr(s, "http.request_id")?.stringValue === "trace-test-2")
          )
          const child = yield* Effect.promise(() =>
            collector.waitSpan((s) => s.traceId === health.traceId && s !== health)
          )
          assert.notStrictEqual(child.name, health.name)
        }).pipe(Effect.scoped),
      180_000
    )
  }
)
