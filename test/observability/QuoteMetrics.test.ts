import { assert, describe, it } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { setQuoteWorkerQueue, timedQuote } from "../../src/platform/metrics/Metrics.ts"
import { parsePrometheus, valueOf } from "./prometheus.ts"

class NoRoute extends Error {
  readonly reason = "NO_ROUTE"
}

/** The API the quote engine calls: latency by outcome and the worker queue, as they appear on /metrics. */
describe("quote metrics", () => {
  it.effect("timedQuote records ok and failure outcomes; setQuoteWorkerQueue sets the gauges", () =>
    Effect.gen(function* () {
      yield* Effect.succeed(1).pipe(timedQuote("get"))
      yield* Effect.succeed(2).pipe(timedQuote("get"))
      yield* Effect.fail(new NoRoute()).pipe(timedQuote("post"), Effect.flip)
      yield* setQuoteWorkerQueue(7, 0.5)
      const { samples, types } = parsePrometheus(yield* PrometheusMetrics.format())
      assert.strictEqual(types.get("quote_duration_seconds"), "histogram")
      assert.strictEqual(valueOf(samples, "quote_duration_seconds_count", { outcome: "ok", route: "get" }), 2)
      assert.strictEqual(valueOf(samples, "quote_duration_seconds_count", { outcome: "NO_ROUTE", route: "post" }), 1)
      assert.strictEqual(valueOf(samples, "quote_worker_queue_depth"), 7)
      assert.strictEqual(valueOf(samples, "quote_worker_utilization"), 0.5)
    }).pipe(Effect.provideService(Metric.MetricRegistry, new Map()))
  )
})
