import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ServiceUnavailable } from "../domain/ApiError.ts"

export const DependencyStatus = Schema.Struct({
  status: Schema.Literals(["up", "down"]),
  latencyMs: Schema.optional(Schema.Number),
  error: Schema.optional(Schema.String)
}).annotate({ identifier: "DependencyStatus" })

export class HealthReport extends Schema.Class<HealthReport>("HealthReport")({
  status: Schema.Literals(["ok"]).annotate({ description: "ok when every dependency is up (else the route answers 503)" }),
  service: Schema.String.annotate({ description: "Which service answered: client | exchange | search | indexer" }),
  version: Schema.String,
  uptimeSeconds: Schema.Number,
  database: DependencyStatus
}) {}

/**
 * Liveness + readiness of one service. Each service mounts it at its own path (client `/healthz`, exchange and
 * search `/api/health`, indexer `/healthz`). 503 `DATABASE_DOWN` when PostgreSQL does not answer within 2 s,
 * so a load balancer takes the node out.
 */
export const healthGroup = (path: `/${string}`) =>
  HttpApiGroup.make("health").add(
    HttpApiEndpoint.get("getHealth", path, {
      success: HealthReport,
      error: ServiceUnavailable
    }).annotateMerge(OpenApi.annotations({
      summary: "Health check",
      description: "Liveness and readiness: 200 with the database status, 503 DATABASE_DOWN when the database is down."
    }))
  ).annotateMerge(OpenApi.annotations({ description: "Liveness and readiness" }))

export class CallerIp extends Schema.Class<CallerIp>("CallerIp")({
  ip: Schema.String.annotate({ description: "The caller's IP address as this service sees it" })
}) {}

export class IpGroup extends HttpApiGroup.make("ip").add(
  HttpApiEndpoint.get("getIp", "/v1/ip", { success: CallerIp }).annotateMerge(OpenApi.annotations({
    summary: "The caller's IP address",
    description:
      "The socket's peer address; behind a trusted proxy (TRUST_PROXY=true) the left-most X-Forwarded-For entry instead."
  }))
) {}
