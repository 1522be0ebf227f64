import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { callerIpAnswer, healthReport, probes } from "../platform/system/SystemHttp.ts"
import { ClientApi } from "./ClientApi.ts"

const clientProbes = probes("client")

/** The client API's system routes: probes, health, caller IP (src/platform/system/SystemHttp.ts). */
export const ClientSystemHttp = Layer.mergeAll(
  HttpApiBuilder.group(ClientApi, "probes", (h) =>
    h
      .handle("getLiveness", clientProbes.live)
      .handle("getReadiness", clientProbes.ready)
      .handle("getMetrics", clientProbes.metrics)
  ),
  HttpApiBuilder.group(ClientApi, "health", (h) => h.handle("getHealth", () => healthReport("client"))),
  HttpApiBuilder.group(ClientApi, "ip", (h) => h.handle("getIp", callerIpAnswer))
)
