import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser } from "../../accounts/auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import { LinkedAccounts } from "./LinkedAccounts.ts"

export const XAuthHttp = HttpApiBuilder.group(
  ClientApi,
  "xAuth",
  Effect.fn(function* (handlers) {
    const accounts = yield* LinkedAccounts
    return handlers.handle("storeXAuthTokens", ({ payload }) =>
      Effect.flatMap(CurrentUser, (user) => accounts.store(user.id, payload))
    )
  })
)
