import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NotFound, ServiceUnavailable, Unauthorized } from "../ApiError.ts"
import { McpExclude } from "../McpAnnotations.ts"

export const DependencyStatus = Schema.Struct({
  status: Schema.Literals(["up", "down"]),
  latencyMs: Schema.optional(Schema.Number),
  error: Schema.optional(Schema.String)
}).annotate({ identifier: "DependencyStatus" })

export class HealthReport extends Schema.Class<HealthReport>("HealthReport")({
  status: Schema.Literals(["ok", "degraded"]).annotate({
    description:
      "ok: the process serves and its database answers; degraded: the process serves but the database does not (the node stays alive; readiness says whether to send it traffic)"
  }),
  service: Schema.String.annotate({ description: "Which service answered: client | exchange | search | indexer" }),
  version: Schema.String,
  uptimeSeconds: Schema.Number,
  database: DependencyStatus
}) {}

/**
 * The spec's health route of one service, a liveness probe (client and indexer `/healthz`, exchange and search
 * `/api/health`): 200 while the process serves, whatever its dependencies do, so that an orchestrator pointed at it
 * never restarts every node during a database outage. The database's state is reported (`status: degraded`), not
 * enforced: taking a node out of rotation is readiness's job (`/readyz`; the exchange's `/api/health/ready` also
 * checks the indexer's lag), which answers 503 DATABASE_DOWN.
 */
export const healthGroup = (path: `/${string}`) =>
  HttpApiGroup.make("health")
    .add(
      HttpApiEndpoint.get("getHealth", path, {
        success: HealthReport
      }).annotateMerge(
        OpenApi.annotations({
          summary: "Health check (liveness)",
          description:
            "Liveness: 200 while the process serves, with the database's state as information (`status: degraded` when it does not answer within 2 s). Readiness (503 DATABASE_DOWN when a dependency is down) is `/readyz`."
        })
      )
    )
    .annotateMerge(OpenApi.annotations({ description: "Liveness" }))

export class CallerIp extends Schema.Class<CallerIp>("CallerIp")({
  ip: Schema.String.annotate({ description: "The caller's IP address as this service sees it" })
}) {}

export class IpGroup extends HttpApiGroup.make("ip").add(
  HttpApiEndpoint.get("getIp", "/v1/ip", { success: CallerIp }).annotateMerge(
    OpenApi.annotations({
      summary: "The caller's IP address",
      description:
        "The socket's peer address; behind trusted proxies (TRUST_PROXY=true) the right-most X-Forwarded-For entry no trusted proxy wrote (TRUSTED_PROXY_HOPS or TRUSTED_PROXIES)."
    })
  )
) {}

export class Liveness extends Schema.Class<Liveness>("Liveness")({
  status: Schema.Literals(["alive"]),
  service: Schema.String.annotate({ description: "Which service answered: client | exchange | search | indexer" }),
  uptimeSeconds: Schema.Number
}) {}

export class Readiness extends Schema.Class<Readiness>("Readiness")({
  status: Schema.Literals(["ready"]).annotate({ description: "ready when this node can serve traffic (else 503)" }),
  service: Schema.String.annotate({ description: "Which service answered: client | exchange | search | indexer" }),
  database: DependencyStatus
}) {}

const prometheusText = Schema.String.annotate({
  description: "Prometheus text exposition format 0.0.4",
  examples: [
    '# TYPE http_request_duration_seconds histogram\nhttp_request_duration_seconds_bucket{le="0.01",route="/healthz"} 3\n'
  ]
}).pipe(HttpApiSchema.asText({ contentType: "text/plain; version=0.0.4; charset=utf-8" }))

/**
 * Operator routes, the same paths on every service (the existing health route stays as a combined report):
 * - `/livez` for the orchestrator's liveness probe: checks nothing but the process answering, so a database outage
 *   does not get every node restarted;
 * - `/readyz` for the load balancer: 503 while this node cannot serve (database down), so it takes the node out
 *   and puts it back when the probe passes again;
 * - `/metrics` for Prometheus.
 * Not MCP tools: they are for machines watching the service, not for agents using it.
 */
export class ProbesGroup extends HttpApiGroup.make("probes")
  .add(
    HttpApiEndpoint.get("getLiveness", "/livez", { success: Liveness })
      .annotateMerge(
        OpenApi.annotations({
          summary: "Liveness probe",
          description:
            "200 while the process runs and its event loop answers. Checks no dependency: point the " +
            "orchestrator's liveness probe (restart on failure) here, not at /readyz."
        })
      )
      .annotate(McpExclude, true),
    HttpApiEndpoint.get("getReadiness", "/readyz", { success: Readiness, error: ServiceUnavailable })
      .annotateMerge(
        OpenApi.annotations({
          summary: "Readiness probe",
          description:
            "200 when this node can serve traffic: the database answers within 2 s (probe cached for " +
            "HEALTH_PROBE_TTL_MS). 503 DATABASE_DOWN otherwise. Point the load balancer's health check here: it takes " +
            "the node out on 503 and back on 200."
        })
      )
      .annotate(McpExclude, true),
    HttpApiEndpoint.get("getMetrics", "/metrics", { success: prometheusText, error: [Unauthorized, NotFound] })
      .annotateMerge(
        OpenApi.annotations({
          summary: "Prometheus metrics",
          description:
            "Request durations by route (histogram), rate-limit rejections, push deliveries, quote latency and " +
            "worker queue depth, indexer height and lag, process memory, CPU and event-loop delay. The registry is per " +
            "process: services run in one process show the same numbers, with a `service` label on request series. " +
            "With METRICS_TOKEN set it needs `Authorization: Bearer <METRICS_TOKEN>` (401 METRICS_TOKEN_REQUIRED); without, " +
            "restrict it to the monitoring network at the proxy. With METRICS_PORT set it is served only on " +
            "METRICS_HOST:METRICS_PORT, and here answers 404 NOT_FOUND."
        })
      )
      .annotate(McpExclude, true)
  )
  .annotateMerge(
    OpenApi.annotations({ description: "Probes and metrics for load balancers, orchestrators and Prometheus" })
  ) {}
