import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser } from "../../accounts/auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import { toListingRecord } from "../ListingsRepo.ts"
import { ClaimTypedDataView } from "./Claim.ts"
import { Claims } from "./Claims.ts"

export const ClaimsHttp = HttpApiBuilder.group(
  ClientApi,
  "claims",
  Effect.fn(function* (handlers) {
    const claims = yield* Claims
    return handlers
      .handle("getClaimTypedData", ({ params, query }) =>
        Effect.flatMap(CurrentUser, (user) =>
          claims.typedData(user, params.mintAddress, query.wallet, query.signedAt)
        ).pipe(
          Effect.map(
            (t) =>
              new ClaimTypedDataView({
                domain: { ...t.domain, verifyingContract: t.domain.verifyingContract },
                types: { Claim: t.types.Claim.map((f) => ({ ...f })) },
                primaryType: t.primaryType,
                message: { ...t.message, signedAt: t.message.signedAt.toString() }
              })
          )
        )
      )
      .handle("claimToken", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) => claims.claim(user, params.mintAddress, payload)).pipe(
          Effect.map(toListingRecord)
        )
      )
      .handle("uploadClaimImage", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) => claims.setImage(user, params.mintAddress, payload.file?.[0]?.path)).pipe(
          Effect.map(toListingRecord)
        )
      )
  })
)
