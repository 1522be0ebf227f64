import { Effect, Metric } from "effect"

/**
 * The process's metrics, in one place so that `/metrics` (src/platform/metrics/MetricsText.ts) and docs/OPERATIONS.md list
 * the same names. They are Effect `Metric`s in the default (process-wide) registry: any feature updates them with
 * the helpers below, no service to wire. A process that runs several services shows the same registry on each
 * service's `/metrics`; request series carry a `service` label so they stay apart.
 *
 * Durations are in seconds (Prometheus convention), buckets chosen for an API whose reads take milliseconds.
 */
const secondsBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** A duration histogram in seconds, with the buckets above. */
const secondsHistogram = (name: string, description: string) =>
  Metric.histogram(name, { description, boundaries: secondsBuckets })
/** A counter that only goes up (Prometheus `_total`). */
const totalCounter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })

export const httpRequestDuration = secondsHistogram(
  "http_request_duration_seconds",
  "HTTP request durations by service, method, route pattern and status"
)

export const rateLimitRejections = totalCounter(
  "rate_limit_rejections_total",
  "Requests refused by a rate limit (429), by bucket"
)

export const pushDeliveries = totalCounter(
  "push_deliveries_total",
  "Web push delivery attempts by outcome: delivered, gone (subscription removed), refused (blocked address: subscription " +
    "removed), rejected, retry, dropped"
)

export const quoteDuration = secondsHistogram(
  "quote_duration_seconds",
  "Time to answer a quote (route finding and calldata), by outcome"
)

export const quoteWorkerQueueDepth = Metric.gauge("quote_worker_queue_depth", {
  description: "Quote tasks waiting for a route-finder worker"
})

export const quoteWorkerUtilization = Metric.gauge("quote_worker_utilization", {
  description: "Share of route-finder worker time spent busy (0..1)"
})

export const quotePoolStateUpdates = totalCounter(
  "quote_pool_state_updates_total",
  "Updates of the quote engine's pool state, by kind: full (every pool read from PostgreSQL: start, reconnect, a " +
    "change whose pools are not known) or delta (only the pools an indexer batch or rollback touched)"
)

export const quoteWorkerSyncs = totalCounter(
  "quote_worker_syncs_total",
  "Route-finder workers brought up to date, by kind: deltas (the changed pools since the worker's version) or full " +
    "(the whole pool state: a new thread, or a gap the delta log cannot bridge)"
)

export const rpcRequests = totalCounter(
  "rpc_requests_total",
  "JSON-RPC requests the process sent to the chain, by method and endpoint (the RPC URL, redacted); each attempt counts"
)

export const rpcErrors = totalCounter(
  "rpc_errors_total",
  "Failed JSON-RPC requests by method, endpoint and class (range: an eth_getLogs size refusal or timeout; retryable: " +
    "transport, timeout, rate limit, 5xx; fatal: anything else), as the indexer's error table sorts them"
)

export const rpcRateLimited = totalCounter(
  "rpc_rate_limited_total",
  "JSON-RPC requests the provider answered with HTTP 429 (or a rate-limit error), by endpoint"
)

export const rpcRequestDuration = secondsHistogram(
  "rpc_request_duration_seconds",
  "JSON-RPC request durations (answered or failed) by method and endpoint"
)

export const rpcNewHeadsLive = Metric.gauge("rpc_newheads_live", {
  description: "1 while the newHeads subscription on the endpoint (RPC_WS_URL, redacted) is live, else 0"
})

export const rpcNewHeadsDrops = totalCounter(
  "rpc_newheads_drops_total",
  "Live newHeads subscriptions that closed (a dropped socket; it reconnects with backoff), by endpoint"
)

// Series are cached per label set: `withAttributes` builds a new metric object, and this runs on every request.
const series = new Map<string, Metric.Metric<number, unknown>>()
const labelled = <In, S>(metric: Metric.Metric<In, S>, labels: Record<string, string>): Metric.Metric<In, S> => {
  const key = `${metric.id}\u0000${Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join("\u0000")}`
  let found = series.get(key)
  if (found === undefined) {
    found = Metric.withAttributes(metric, labels) as unknown as Metric.Metric<number, unknown>
    series.set(key, found)
  }
  return found as unknown as Metric.Metric<In, S>
}

/** One served request (recorded by the global HTTP middleware). */
export const recordHttpRequest = (
  labels: {
    readonly service: string
    readonly method: string
    readonly route: string
    readonly status: number
  },
  seconds: number
) => Metric.update(labelled(httpRequestDuration, { ...labels, status: String(labels.status) }), seconds)

/**
 * One JSON-RPC request to the chain (layers/RpcMetrics.ts records every request of the app's viem clients).
 * `errorClass` is set when it failed; `rateLimited` when the failure was a 429.
 */
export const recordRpcRequest = (
  labels: { readonly method: string; readonly endpoint: string },
  seconds: number,
  failure?: { readonly errorClass: string; readonly rateLimited: boolean }
) =>
  Effect.all(
    [
      Metric.update(labelled(rpcRequests, labels), 1),
      Metric.update(labelled(rpcRequestDuration, labels), seconds),
      failure === undefined
        ? Effect.void
        : Metric.update(labelled(rpcErrors, { ...labels, class: failure.errorClass }), 1),
      failure?.rateLimited === true
        ? Metric.update(labelled(rpcRateLimited, { endpoint: labels.endpoint }), 1)
        : Effect.void
    ],
    { discard: true }
  )

/** The newHeads subscription on `endpoint` went live, or closed (`dropped`: it had been live). */
export const recordNewHeads = (endpoint: string, live: boolean, dropped = false) =>
  Effect.andThen(
    Metric.update(labelled(rpcNewHeadsLive, { endpoint }), live ? 1 : 0),
    dropped ? Metric.update(labelled(rpcNewHeadsDrops, { endpoint }), 1) : Effect.void
  )

export const recordRateLimitRejection = (bucket: string) => Metric.update(labelled(rateLimitRejections, { bucket }), 1)

export type PushDeliveryOutcome = "delivered" | "gone" | "refused" | "rejected" | "retry" | "dropped"
export const recordPushDelivery = (outcome: PushDeliveryOutcome) =>
  Metric.update(labelled(pushDeliveries, { outcome }), 1)

/**
 * For the quote engine: one answered (or failed) quote. `outcome` is `ok` or the QuoteErrorReason
 * (`NO_ROUTE`, `QUOTE_TIMEOUT`, ...). `route` is the endpoint kind (`get`, `post`, `open`) if it helps.
 */
export const recordQuote = (seconds: number, outcome: string, route = "quote") =>
  Metric.update(labelled(quoteDuration, { outcome, route }), seconds)

/** For the quote engine's pool: tasks waiting (piscina `queueSize`) and busy share (`utilization`). */
export const setQuoteWorkerQueue = (queueDepth: number, utilization?: number) =>
  Effect.andThen(
    Metric.update(quoteWorkerQueueDepth, queueDepth),
    utilization === undefined ? Effect.void : Metric.update(quoteWorkerUtilization, utilization)
  )

export const recordPoolStateUpdate = (kind: "full" | "delta") =>
  Metric.update(labelled(quotePoolStateUpdates, { kind }), 1)

export const recordWorkerSync = (tag: "Full" | "Deltas") =>
  Metric.update(labelled(quoteWorkerSyncs, { kind: tag === "Full" ? "full" : "deltas" }), 1)

/** Times an effect into `quote_duration_seconds`: `ok` on success, the error's `reason`/`code`/`_tag` on failure. */
export const timedQuote =
  (route = "quote") =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.suspend(() => {
      const t0 = performance.now()
      const seconds = () => (performance.now() - t0) / 1000
      return effect.pipe(
        Effect.tap(() => recordQuote(seconds(), "ok", route)),
        Effect.tapError((e) => recordQuote(seconds(), outcomeOf(e), route))
      )
    })

const outcomeOf = (e: unknown): string => {
  if (typeof e !== "object" || e === null) return "error"
  const o = e as { reason?: unknown; code?: unknown; _tag?: unknown }
  const v = typeof o.reason === "string" ? o.reason : typeof o.code === "string" ? o.code : o._tag
  return typeof v === "string" ? v : "error"
}
