import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { healthReport, probes } from "../platform/system/SystemHttp.ts"
import { IndexerApi } from "./IndexerApi.ts"

const indexerProbes = probes("indexer")

/** The indexer API's system routes: probes, health (src/platform/system/SystemHttp.ts). */
export const IndexerSystemHttp = Layer.mergeAll(
  HttpApiBuilder.group(IndexerApi, "probes", (h) =>
    h
      .handle("getLiveness", indexerProbes.live)
      .handle("getReadiness", indexerProbes.ready)
      .handle("getMetrics", indexerProbes.metrics)
  ),
  HttpApiBuilder.group(IndexerApi, "health", (h) => h.handle("getHealth", () => healthReport("indexer")))
)
