import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser } from "../../accounts/auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import { Gifts } from "./Gifts.ts"

export const GiftsHttp = HttpApiBuilder.group(
  ClientApi,
  "gifts",
  Effect.fn(function* (handlers) {
    const gifts = yield* Gifts
    return handlers
      .handle("getGiftStatus", () => Effect.flatMap(CurrentUser, (user) => gifts.status(user.id)))
      .handle("prepareGift", () => Effect.flatMap(CurrentUser, (user) => gifts.prepare(user.id)))
      .handle("claimGift", ({ payload }) => Effect.flatMap(CurrentUser, (user) => gifts.claim(user.id, payload.ticket)))
      .handle("resetGiftCycle", () => Effect.flatMap(CurrentUser, (admin) => gifts.resetCycle(admin.id)))
  })
)
