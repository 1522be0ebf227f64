import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { healthReport, probes } from "../platform/system/SystemHttp.ts"
import { ExchangeApi } from "./ExchangeApi.ts"

const exchangeProbes = probes("exchange")

/** The exchange API's system routes: probes, health (src/platform/system/SystemHttp.ts). */
export const ExchangeSystemHttp = Layer.mergeAll(
  HttpApiBuilder.group(ExchangeApi, "probes", (h) =>
    h
      .handle("getLiveness", exchangeProbes.live)
      .handle("getReadiness", exchangeProbes.ready)
      .handle("getMetrics", exchangeProbes.metrics)
  ),
  HttpApiBuilder.group(ExchangeApi, "health", (h) => h.handle("getHealth", () => healthReport("exchange")))
)
