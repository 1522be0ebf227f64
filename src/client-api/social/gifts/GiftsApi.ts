import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AdminAuthentication, Authentication } from "../../accounts/auth/Authentication.ts"
import { BadRequest, Conflict } from "../../../platform/ApiError.ts"
import { GIFT_CYCLE_RULES, GiftClaim, GiftClaimRequest, GiftCycleReset, GiftPreparation, GiftStatus } from "./Gift.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

/** Daily gifts of off-chain fuel credits. */
export class GiftsApi extends HttpApiGroup.make("gifts")
  .add(
    HttpApiEndpoint.get("getGiftStatus", "/v1/gifts/status", { success: GiftStatus })
      .middleware(Authentication)
      .annotateMerge(doc("My gift status", `The current cycle and the caller's state in it. ${GIFT_CYCLE_RULES}`)),
    HttpApiEndpoint.get("prepareGift", "/v1/gifts/prepare", { success: GiftPreparation, error: Conflict })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Prepare a gift claim",
          "What a claim now would give, with a short-lived signed ticket for POST /v1/gifts (bound to the caller, the " +
            "cycle, the amount and the streak; valid GIFT_TICKET_TTL_SECONDS, never past the cycle's end). Changes " +
            `nothing. 409 GIFT_ALREADY_CLAIMED when the caller already claimed this cycle. ${GIFT_CYCLE_RULES}`
        )
      ),
    HttpApiEndpoint.post("claimGift", "/v1/gifts", {
      payload: GiftClaimRequest,
      success: GiftClaim.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Conflict]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Claim my gift",
          "UNCLAIMED → CLAIMED for the current cycle: credits the ticket's amount, exactly once per user and cycle even " +
            "under concurrent requests (one 201, the others 409). 400 INVALID_GIFT_TICKET (not ours, or another user's), " +
            "400 GIFT_TICKET_EXPIRED, 409 GIFT_ALREADY_CLAIMED, 409 GIFT_CYCLE_CHANGED (the ticket's cycle ended: prepare " +
            `again). ${GIFT_CYCLE_RULES}`
        )
      ),
    HttpApiEndpoint.post("resetGiftCycle", "/v1/gifts/reset-cycle", { success: GiftCycleReset })
      .middleware(AdminAuthentication)
      .annotateMerge(
        doc(
          "Reset the gift cycle (admin)",
          "Ends the open cycle now and opens the next one (GIFT_CYCLE_SECONDS long from now): every user is UNCLAIMED " +
            "again; a claim in the ended cycle keeps its credits and continues the streak. A claim racing the reset " +
            "either lands in the old cycle or gets 409 GIFT_CYCLE_CHANGED. 403 FORBIDDEN for non-admins."
        )
      )
  )
  .annotateMerge(OpenApi.annotations({ title: "Gifts", description: GIFT_CYCLE_RULES })) {}
