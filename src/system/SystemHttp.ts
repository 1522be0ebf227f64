import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ClientApi } from "../ClientApi.ts"
import { ExchangeApi } from "../ExchangeApi.ts"
import { IndexerApi } from "../IndexerApi.ts"
import { SearchApi } from "../SearchApi.ts"
import { callerIp } from "./CallerIp.ts"
import { Health } from "./Health.ts"
import { CallerIp } from "./SystemApi.ts"

const report = (service: string) => Health.use((health) => health.report(service))

export const ClientSystemHttp = Layer.mergeAll(
  HttpApiBuilder.group(ClientApi, "health", (h) => h.handle("getHealth", () => report("client"))),
  HttpApiBuilder.group(ClientApi, "ip", (h) => h.handle("getIp", () => Effect.map(callerIp, (ip) => new CallerIp({ ip }))))
)
export const ExchangeSystemHttp = HttpApiBuilder.group(ExchangeApi, "health", (h) =>
  h.handle("getHealth", () => report("exchange")))
export const SearchSystemHttp = HttpApiBuilder.group(SearchApi, "health", (h) =>
  h.handle("getHealth", () => report("search")))
export const IndexerSystemHttp = HttpApiBuilder.group(IndexerApi, "health", (h) =>
  h.handle("getHealth", () => report("indexer")))
