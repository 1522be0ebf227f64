import { Schema } from "effect"
import { Wei } from "../fuel/Fuel.ts"

/**
 * The gift cycle (the spec leaves it open; this is the definition the API documents):
 *
 * - A cycle lasts GIFT_CYCLE_SECONDS (default 86,400: a UTC day, aligned to the Unix epoch). When it ends the next one
 *   starts at once; `POST /v1/gifts/reset-cycle` (admin) ends the open cycle now and opens the next.
 * - Per user and cycle the state is UNCLAIMED → CLAIMED (by `POST /v1/gifts` with a ticket from `GET /v1/gifts/prepare`);
 *   there is no way back within the cycle. A new cycle starts UNCLAIMED for everyone.
 * - A gift is GIFT_AMOUNT_WEI × streak of off-chain fuel credits, where streak = 1 + the streak of the claim in the
 *   directly preceding cycle (no gap between them), capped at GIFT_MAX_STREAK. Credits count in /v1/fuel/credits.
 */
export const GIFT_CYCLE_RULES =
  "Cycle: GIFT_CYCLE_SECONDS long (default one UTC day); when it ends the next opens; an admin reset ends it now and " +
  "opens the next. Per user and cycle: UNCLAIMED → CLAIMED (POST /v1/gifts, once). A gift = GIFT_AMOUNT_WEI × streak " +
  "of off-chain fuel credits; streak = 1 + the streak of a claim in the directly preceding cycle, capped at GIFT_MAX_STREAK."

export class GiftCycle extends Schema.Class<GiftCycle>("GiftCycle")({
  number: Schema.Int.annotate({ description: "Cycle number, increasing" }),
  startedAt: Schema.String.annotate({ description: "ISO 8601 start" }),
  endsAt: Schema.String.annotate({ description: "ISO 8601 end: the next reset (earlier if an admin resets)" }),
  openedBy: Schema.Literals(["schedule", "admin_reset"]).annotate({ description: "What opened this cycle" })
}) {}

export class GiftStatus extends Schema.Class<GiftStatus>("GiftStatus")({
  cycle: GiftCycle,
  state: Schema.Literals(["UNCLAIMED", "CLAIMED"]).annotate({ description: "The caller's state in this cycle" }),
  claimed: Schema.Boolean,
  claimedAt: Schema.NullOr(Schema.String).annotate({ description: "When the caller claimed in this cycle" }),
  amount: Wei.annotate({ description: "What was claimed this cycle, or what a claim now would give" }),
  streak: Schema.Int.annotate({ description: "Streak of this cycle's claim, or the streak a claim now would have" }),
  nextResetAt: Schema.String.annotate({ description: "ISO 8601 end of the current cycle" }),
  totalCredits: Wei.annotate({ description: "All gift credits the caller ever claimed" })
}) {}

export class GiftPreparation extends Schema.Class<GiftPreparation>("GiftPreparation")({
  cycle: GiftCycle,
  amount: Wei.annotate({ description: "What POST /v1/gifts with this ticket will credit" }),
  streak: Schema.Int,
  ticket: Schema.String.annotate({ description: "Pass to POST /v1/gifts; bound to the caller and this cycle" }),
  ticketExpiresAt: Schema.String.annotate({
    description: "ISO 8601; GIFT_TICKET_TTL_SECONDS (default 300) after prepare"
  })
}) {}

export const GiftClaimRequest = Schema.Struct({
  ticket: Schema.String.check(Schema.isMaxLength(1000)).annotate({ description: "From GET /v1/gifts/prepare" })
}).annotate({ identifier: "GiftClaimRequest" })

export class GiftClaim extends Schema.Class<GiftClaim>("GiftClaim")({
  cycle: GiftCycle,
  amount: Wei,
  streak: Schema.Int,
  claimedAt: Schema.String,
  totalCredits: Wei.annotate({ description: "All gift credits of the caller after this claim" })
}) {}

export class GiftCycleReset extends Schema.Class<GiftCycleReset>("GiftCycleReset")({
  closed: GiftCycle.annotate({ description: "The cycle that was open, now ended" }),
  opened: GiftCycle.annotate({ description: "The new cycle: every user is UNCLAIMED in it" })
}) {}
