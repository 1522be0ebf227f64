import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { healthReport, probes } from "../platform/system/SystemHttp.ts"
import { SearchApi } from "./SearchApi.ts"

const searchProbes = probes("search")

/** The search API's system routes: probes, health (src/platform/system/SystemHttp.ts). */
export const SearchSystemHttp = Layer.mergeAll(
  HttpApiBuilder.group(SearchApi, "probes", (h) =>
    h
      .handle("getLiveness", searchProbes.live)
      .handle("getReadiness", searchProbes.ready)
      .handle("getMetrics", searchProbes.metrics)
  ),
  HttpApiBuilder.group(SearchApi, "health", (h) => h.handle("getHealth", () => healthReport("search")))
)
