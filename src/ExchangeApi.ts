import { HttpApi, OpenApi } from "effect/http-api"
import { Validation } from "./http/Validation.ts"
import { healthGroup } from "./system/SystemApi.ts"

/** The exchange API (`/api/v1`): quotes, pools, tokens, stats, positions, swap status. Source of the `dex_*` tools. */
export class ExchangeApi extends HttpApi.make("exchange")
  .add(healthGroup("/api/health"))
  .middleware(Validation)
  .annotateMerge(OpenApi.annotations({
    title: "fire-api exchange API",
    version: "1",
    description: "Trading-side data of the DEX. Errors: `{ code, message, details? }` unless a route documents its own shape."
  }))
{}
