import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser } from "../../accounts/auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import { Unsubscribed, VapidKey } from "./PushApi.ts"
import { PushSubscriptions } from "./PushSubscriptions.ts"
import { VapidKeys } from "./VapidKeys.ts"

export const PushHttp = HttpApiBuilder.group(
  ClientApi,
  "push",
  Effect.fn(function* (handlers) {
    const vapid = yield* VapidKeys
    const subscriptions = yield* PushSubscriptions
    return handlers
      .handle("getVapidKey", () => Effect.succeed(new VapidKey({ publicKey: vapid.publicKey })))
      .handle("subscribe", ({ payload }) =>
        Effect.flatMap(CurrentUser, (user) => subscriptions.subscribe(user.id, payload))
      )
      .handle("unsubscribe", ({ payload }) =>
        Effect.flatMap(CurrentUser, (user) => subscriptions.unsubscribe(user.id, payload.endpoint)).pipe(
          Effect.map((removed) => new Unsubscribed({ removed }))
        )
      )
  })
)
