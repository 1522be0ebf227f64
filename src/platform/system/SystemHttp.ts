import { Effect } from "effect"
import { callerIp } from "./CallerIp.ts"
import { requireMetricsToken } from "../metrics/MetricsAccess.ts"
import { metricsText } from "../metrics/MetricsText.ts"
import { Health, liveness } from "./Health.ts"
import { CallerIp } from "./SystemApi.ts"

/**
 * The handlers of the system groups every service's API adds (SystemApi.ts): each service binds them to its own API
 * (ClientSystemHttp.ts, ExchangeSystemHttp.ts, SearchSystemHttp.ts, IndexerSystemHttp.ts in the service folders).
 */
export const healthReport = (service: string) => Health.use((health) => health.report(service))

/** `/livez`, `/readyz` and `/metrics` of one service (each API adds ProbesGroup). */
export const probes = (service: string) => ({
  live: () => liveness(service),
  ready: () => Health.use((health) => health.ready(service)),
  metrics: () => Effect.andThen(requireMetricsToken, metricsText)
})

/** `/v1/ip`: the caller's address as this service sees it. */
export const callerIpAnswer = () => Effect.map(callerIp, (ip) => new CallerIp({ ip }))
