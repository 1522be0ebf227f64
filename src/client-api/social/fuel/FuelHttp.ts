import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser } from "../../accounts/auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import { FuelLedger } from "./FuelLedger.ts"

export const FuelHttp = HttpApiBuilder.group(
  ClientApi,
  "fuel",
  Effect.fn(function* (handlers) {
    const ledger = yield* FuelLedger
    return handlers
      .handle("getFuelCredits", () => Effect.flatMap(CurrentUser, ledger.credits))
      .handle("listFuelReceived", ({ query }) =>
        Effect.flatMap(CurrentUser, (user) => ledger.page({ wallet: user.walletAddress, side: "received", ...query }))
      )
      .handle("listFuelGiven", ({ query }) =>
        Effect.flatMap(CurrentUser, (user) => ledger.page({ wallet: user.walletAddress, side: "given", ...query }))
      )
  })
)
