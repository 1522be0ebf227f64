import { Effect } from "effect"
import { callerIp } from "./CallerIp.ts"
import { NotFound } from "../ApiError.ts"
import { requireMetricsToken } from "../metrics/MetricsAccess.ts"
import { metricsOnOwnListener } from "../metrics/MetricsListener.ts"
import { metricsText } from "../metrics/MetricsText.ts"
import { Health, liveness } from "./Health.ts"
import { CallerIp } from "./SystemApi.ts"

/**
 * The handlers of the system groups every service's API adds (SystemApi.ts): each service binds them to its own API
 * (ClientSystemHttp.ts, ExchangeSystemHttp.ts, SearchSystemHttp.ts, IndexerSystemHttp.ts in the service folders).
 */
export const healthReport = (service: string) => Health.use((health) => health.report(service))

/** `/metrics` on a service port: 404 when METRICS_PORT gives it its own listener (MetricsListener.ts). */
const serviceMetrics = Effect.gen(function* () {
  if (yield* metricsOnOwnListener) {
    return yield* new NotFound({
      code: "NOT_FOUND",
      message: "/metrics is served on its own address (METRICS_HOST:METRICS_PORT), not on the service ports"
    })
  }
  yield* requireMetricsToken
  return yield* metricsText
})

/** `/livez`, `/readyz` and `/metrics` of one service (each API adds ProbesGroup). */
export const probes = (service: string) => ({
  live: () => liveness(service),
  ready: () => Health.use((health) => health.ready(service)),
  metrics: () => serviceMetrics
})

/** `/v1/ip`: the caller's address as this service sees it. */
export const callerIpAnswer = () => Effect.map(callerIp, (ip) => new CallerIp({ ip }))
