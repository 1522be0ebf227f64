import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { getAddress } from "viem"
import { CurrentUser } from "../../accounts/auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import { ReportPage, toTokenReport, TokenVisibility } from "./Report.ts"
import { TokenModeration } from "./TokenModeration.ts"

export const TokenAdminHttp = HttpApiBuilder.group(
  ClientApi,
  "tokenAdmin",
  Effect.fn(function* (handlers) {
    const moderation = yield* TokenModeration
    const visibility = (mint: string, hidden: boolean, reason: string | undefined) =>
      Effect.flatMap(CurrentUser, (admin) => moderation.setHidden(admin, mint, hidden, reason ?? null)).pipe(
        Effect.map((changed) => new TokenVisibility({ mintAddress: getAddress(mint), hidden, changed }))
      )
    return handlers
      .handle("hideToken", ({ params, payload }) => visibility(params.mintAddress, true, payload.reason))
      .handle("unhideToken", ({ params, payload }) => visibility(params.mintAddress, false, payload.reason))
      .handle("listTokenReports", ({ query }) =>
        Effect.map(
          moderation.list(query.status ?? "open", query.limit ?? 50, query.cursor),
          (p) => new ReportPage({ items: p.items.map(toTokenReport), nextCursor: p.nextCursor })
        )
      )
      .handle("resolveTokenReport", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (admin) =>
          moderation.resolve(admin, params.reportId, payload.resolution, payload.note ?? null)
        ).pipe(Effect.map(toTokenReport))
      )
  })
)
