import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authentication } from "../../accounts/auth/Authentication.ts"
import { BadRequest } from "../../../platform/ApiError.ts"
import { pageQueryFields } from "../../../platform/PageQuery.ts"
import { FuelCredits, FuelTransactionPage } from "./Fuel.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

const MODEL =
  "Model: FuelVault.give(token) tips a launched token's creator in ETH; it accrues per token until the creator calls " +
  "withdraw(token), which pays it all out, and only until the token graduates (fuel still accrued then stays locked " +
  "in the vault). All figures are sums over the indexed FuelVault events of the canonical chain (a reorg removes the " +
  "events of replaced blocks), as of `indexedBlock`."

/** The caller's fuel: balance, tips received as creator, tips given. */
export class FuelApi extends HttpApiGroup.make("fuel")
  .add(
    HttpApiEndpoint.get("getFuelCredits", "/v1/fuel/credits", { success: FuelCredits })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "My fuel balance",
          `${MODEL} \`withdrawable\` = Σ(received − withdrawn) over the caller's non-graduated tokens (equal to ` +
            "Σ FuelVault.fuelOf(token)); `locked` the same over graduated tokens; `giftCredits` = off-chain credits " +
            "from claimed gifts (see /v1/gifts); `balance` = withdrawable + giftCredits."
        )
      ),
    HttpApiEndpoint.get("listFuelReceived", "/v1/fuel/received", {
      query: pageQueryFields,
      success: FuelTransactionPage,
      error: BadRequest
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Fuel I received",
          `Tips (FuelGiven) to tokens the caller created, newest first; counterparty = the giver. ${MODEL}`
        )
      ),
    HttpApiEndpoint.get("listFuelGiven", "/v1/fuel/given", {
      query: pageQueryFields,
      success: FuelTransactionPage,
      error: BadRequest
    })
      .middleware(Authentication)
      .annotateMerge(
        doc("Fuel I gave", `Tips the caller's wallet sent, newest first; counterparty = the token's creator. ${MODEL}`)
      )
  )
  .annotateMerge(
    OpenApi.annotations({ title: "Fuel", description: "Tips to token creators, from indexed FuelVault events" })
  ) {}
