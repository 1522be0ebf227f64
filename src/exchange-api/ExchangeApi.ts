import { HttpApi, OpenApi } from "effect/http-api"
import { ExchangeValidation } from "./ExchangeValidation.ts"
import { PoolsApi } from "./pools/PoolsApi.ts"
import { PublicRateLimit } from "./PublicRateLimit.ts"
import { TokensApi } from "./tokens/TokensApi.ts"
import { QuotesApi } from "./quotes/QuotesApi.ts"
import { healthGroup, ProbesGroup } from "../platform/system/SystemApi.ts"

/** The exchange API (`/api/v1`): quotes, pools, tokens, stats, positions, swap status. Source of the `dex_*` tools. */
export class ExchangeApi extends HttpApi.make("exchange")
  // The spec's public tier ("health, status, pools, tokens, stats and user-position endpoints") is limited per IP.
  .add(healthGroup("/api/health").middleware(PublicRateLimit))
  .add(ProbesGroup)
  .add(PoolsApi)
  .add(TokensApi)
  .add(QuotesApi)
  // Must stay last: it covers only the groups added before it. Decode failures → 400 in the exchange shape.
  .middleware(ExchangeValidation)
  .annotateMerge(
    OpenApi.annotations({
      title: "fire-api exchange API",
      version: "1",
      description:
        "Trading-side data of the DEX. Errors: `{ error, code, details? }` (the spec's `{ error, details? }` plus a stable code)."
    })
  ) {}
