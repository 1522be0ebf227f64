import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser } from "../../accounts/auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import { Shares } from "./Shares.ts"

export const SharesHttp = HttpApiBuilder.group(
  ClientApi,
  "shares",
  Effect.fn(function* (handlers) {
    const shares = yield* Shares
    return handlers
      .handle("createShare", ({ payload }) =>
        Effect.flatMap(CurrentUser, (user) => shares.create(user.id, payload.mintAddress))
      )
      .handle("followShare", ({ params }) =>
        Effect.map(shares.visit(params.code), (target) =>
          HttpServerResponse.redirect(target, { status: 302, headers: { "cache-control": "no-store" } })
        )
      )
  })
)
