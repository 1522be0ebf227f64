import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ClientApi } from "../../client-api/ClientApi.ts"
import { ExchangeApi } from "../../exchange-api/ExchangeApi.ts"
import { IndexerApi } from "../../indexer/IndexerApi.ts"
import { SearchApi } from "../../search/SearchApi.ts"
import { callerIp } from "./CallerIp.ts"
import { requireMetricsToken } from "../metrics/MetricsAccess.ts"
import { metricsText } from "../metrics/MetricsText.ts"
import { Health, liveness } from "./Health.ts"
import { CallerIp } from "./SystemApi.ts"

const report = (service: string) => Health.use((health) => health.report(service))

/** `/livez`, `/readyz` and `/metrics` of one service (each API adds ProbesGroup). */
const probe = (service: string) => ({
  live: () => liveness(service),
  ready: () => Health.use((health) => health.ready(service)),
  metrics: () => Effect.andThen(requireMetricsToken, metricsText)
})
const clientProbes = probe("client")
const exchangeProbes = probe("exchange")
const searchProbes = probe("search")
const indexerProbes = probe("indexer")

export const ClientSystemHttp = Layer.mergeAll(
  HttpApiBuilder.group(ClientApi, "probes", (h) =>
    h.handle("getLiveness", clientProbes.live).handle("getReadiness", clientProbes.ready).handle("getMetrics", clientProbes.metrics)),
  HttpApiBuilder.group(ClientApi, "health", (h) => h.handle("getHealth", () => report("client"))),
  HttpApiBuilder.group(ClientApi, "ip", (h) => h.handle("getIp", () => Effect.map(callerIp, (ip) => new CallerIp({ ip }))))
)
export const ExchangeSystemHttp = Layer.mergeAll(
  HttpApiBuilder.group(ExchangeApi, "probes", (h) =>
    h.handle("getLiveness", exchangeProbes.live).handle("getReadiness", exchangeProbes.ready).handle("getMetrics", exchangeProbes.metrics)),
  HttpApiBuilder.group(ExchangeApi, "health", (h) => h.handle("getHealth", () => report("exchange")))
)
export const SearchSystemHttp = Layer.mergeAll(
  HttpApiBuilder.group(SearchApi, "probes", (h) =>
    h.handle("getLiveness", searchProbes.live).handle("getReadiness", searchProbes.ready).handle("getMetrics", searchProbes.metrics)),
  HttpApiBuilder.group(SearchApi, "health", (h) => h.handle("getHealth", () => report("search")))
)
export const IndexerSystemHttp = Layer.mergeAll(
  HttpApiBuilder.group(IndexerApi, "probes", (h) =>
    h.handle("getLiveness", indexerProbes.live).handle("getReadiness", indexerProbes.ready).handle("getMetrics", indexerProbes.metrics)),
  HttpApiBuilder.group(IndexerApi, "health", (h) => h.handle("getHealth", () => report("indexer")))
)
