import { Effect, Metric, type Scope } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { monitorEventLoopDelay } from "node:perf_hooks"

/**
 * `/metrics` in the Prometheus text format (0.0.4). Effect 4.1 ships the encoder (`effect/observability`
 * PrometheusMetrics: HELP/TYPE lines, `_bucket{le}`/`_sum`/`_count` for histograms, label escaping), so we use it
 * over its registry rather than adding prom-client, which would be a second registry that Effect code could not
 * update with `Metric.update` and that OTel could not read.
 *
 * Values that describe the present (memory, event-loop delay, indexer height) are gauges refreshed by collectors
 * just before each scrape, so they cost nothing between scrapes.
 */
const collectors = new Set<Effect.Effect<void>>()

/** Runs `collect` before each scrape for the life of the scope (e.g. the indexer's status → gauges). */
export const registerCollector = (collect: Effect.Effect<void>): Effect.Effect<void, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => collectors.add(collect)),
    () => Effect.sync(() => collectors.delete(collect))
  ).pipe(Effect.asVoid)

const gauge = (name: string, description: string) => Metric.gauge(name, { description })
const rss = gauge("process_resident_memory_bytes", "Resident set size of the process")
const heapUsed = gauge("nodejs_heap_used_bytes", "V8 heap in use")
const heapTotal = gauge("nodejs_heap_total_bytes", "V8 heap reserved")
const external = gauge("nodejs_external_memory_bytes", "Memory of C++ objects bound to JS (buffers)")
const uptime = gauge("process_uptime_seconds", "Seconds since the process started")
const cpu = Metric.counter("process_cpu_seconds_total", { description: "User plus system CPU time" })
const loopDelay = gauge(
  "nodejs_eventloop_delay_seconds",
  "Event-loop delay over the last complete 10 s window, by quantile (p50, p99, max)"
)
const loopDelayMax = gauge(
  "nodejs_eventloop_delay_max_seconds",
  "Largest event-loop delay seen since the process started"
)

/**
 * Event-loop delay, sampled every 10 ms by Node's histogram and read out in fixed 10 s windows (a scrape does not
 * reset it, so several scrapers, or four services in one process, see the same numbers).
 */
const loop = (() => {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  const read = () =>
    histogram.count > 0
      ? { p50: histogram.percentile(50) / 1e9, p99: histogram.percentile(99) / 1e9, max: histogram.max / 1e9 }
      : { p50: 0, p99: 0, max: 0 }
  let window: ReturnType<typeof read> | undefined
  let maxEver = 0
  setInterval(() => {
    window = read()
    maxEver = Math.max(maxEver, window.max)
    histogram.reset()
  }, 10_000).unref()
  // Before the first window closes, the histogram so far.
  return () => {
    const now = window ?? read()
    return { window: now, maxEver: Math.max(maxEver, now.max, histogram.count > 0 ? histogram.max / 1e9 : 0) }
  }
})()

let lastCpuSeconds = 0
const processCollector = Effect.gen(function* () {
  const memory = process.memoryUsage()
  yield* Metric.update(rss, memory.rss)
  yield* Metric.update(heapUsed, memory.heapUsed)
  yield* Metric.update(heapTotal, memory.heapTotal)
  yield* Metric.update(external, memory.external)
  yield* Metric.update(uptime, process.uptime())
  const usage = process.cpuUsage()
  const cpuSeconds = (usage.user + usage.system) / 1e6
  yield* Metric.update(cpu, Math.max(0, cpuSeconds - lastCpuSeconds))
  lastCpuSeconds = cpuSeconds
  const { window, maxEver } = loop()
  yield* Metric.update(Metric.withAttributes(loopDelay, { quantile: "0.5" }), window.p50)
  yield* Metric.update(Metric.withAttributes(loopDelay, { quantile: "0.99" }), window.p99)
  yield* Metric.update(Metric.withAttributes(loopDelay, { quantile: "1" }), window.max)
  yield* Metric.update(loopDelayMax, maxEver)
})

/** The text a scrape gets: collectors first, then every metric of the registry. */
export const metricsText: Effect.Effect<string> = Effect.gen(function* () {
  yield* processCollector
  for (const collect of collectors) yield* collect.pipe(Effect.catchCause(() => Effect.void))
  return yield* PrometheusMetrics.format()
})

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
