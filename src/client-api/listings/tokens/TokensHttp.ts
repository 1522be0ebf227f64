import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser } from "../../accounts/auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import { toTokenReport } from "../moderation/Report.ts"
import { TokenModeration } from "../moderation/TokenModeration.ts"
import { cachedIfAnonymous, ClientCache } from "../../ClientCache.ts"
import { BatchImages, TokenDetail } from "./Token.ts"
import { Tokens } from "./Tokens.ts"

export const TokensHttp = HttpApiBuilder.group(
  ClientApi,
  "tokens",
  Effect.fn(function* (handlers) {
    const tokens = yield* Tokens
    const moderation = yield* TokenModeration
    const cachedDetail = cachedIfAnonymous(yield* ClientCache, TokenDetail)
    return handlers
      .handle("getTokenImages", ({ payload }) =>
        Effect.map(tokens.images(payload.addresses), (images) => new BatchImages({ images }))
      )
      .handle("getToken", ({ params }) => cachedDetail(tokens.detail(params.mintAddress)))
      .handle("getTokenBuyers", ({ params, query }) =>
        tokens.buyers(params.mintAddress, query.limit ?? 20, query.cursor)
      )
      .handle("getTokenBuyerChart", ({ params, query }) =>
        tokens.buyerChart(params.mintAddress, query.bucket ?? "1h", query.limit ?? 168)
      )
      .handle("getTokenFuels", ({ params, query }) => tokens.fuels(params.mintAddress, query.limit ?? 20, query.cursor))
      .handle("getTokenPosition", ({ params }) =>
        Effect.flatMap(CurrentUser, (user) => tokens.position(user, params.mintAddress))
      )
      .handle("reportToken", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) =>
          moderation.report(user, params.mintAddress, payload.reason, payload.details ?? null)
        ).pipe(Effect.map(toTokenReport))
      )
  })
)
