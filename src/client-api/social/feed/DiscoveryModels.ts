import { Schema } from "effect"

/** What the dares and sidebar routes answer (schemas only: the contract, FeedApi.ts, and Discovery.ts share them). */

export const DARE_RULES =
  "A dare is a canonical launch that has not graduated yet (it dares to graduate). Virality score over the 24 hours " +
  "before the latest indexed block (chain time, so a quiet chain still ranks its last day): 1 × swaps in its pool + " +
  "3 × distinct traders (swap recipients, not our contracts) + 5 × fuel tips + 2 × yaps + 2 × share links created. " +
  "Only dares with a score > 0, highest first (ties: newer launch first); tokens hidden by an admin are left out."

export class DareScore extends Schema.Class<DareScore>("DareScore")({
  swaps: Schema.Int,
  traders: Schema.Int,
  fuelTips: Schema.Int,
  yaps: Schema.Int,
  shares: Schema.Int
}) {}

export class ViralDare extends Schema.Class<ViralDare>("ViralDare")({
  mintAddress: Schema.String,
  symbol: Schema.String,
  name: Schema.String,
  creator: Schema.String,
  launchedAt: Schema.String,
  score: Schema.Int,
  components: DareScore
}) {}

export class ViralDares extends Schema.Class<ViralDares>("ViralDares")({
  windowStart: Schema.String.annotate({ description: "ISO 8601 start of the scoring window" }),
  windowEnd: Schema.String.annotate({ description: "ISO 8601 end: the latest indexed block's time" }),
  items: Schema.Array(ViralDare)
}) {}

export class SidebarToken extends Schema.Class<SidebarToken>("SidebarToken")({
  mintAddress: Schema.String,
  symbol: Schema.String,
  name: Schema.String,
  priceUsd: Schema.NullOr(Schema.Number),
  launchedAt: Schema.String,
  swaps24h: Schema.Int,
  volumeUsd24h: Schema.Number,
  priceChange24h: Schema.NullOr(Schema.Number).annotate({
    description: "Relative change of the USD close over 24 h (0.1 = +10 %)"
  })
}) {}

export class Sidebar extends Schema.Class<Sidebar>("Sidebar")({
  windowEnd: Schema.String.annotate({ description: "The latest indexed block's time: 24 h windows end here" }),
  trending: Schema.Array(SidebarToken).annotate({ description: "Most swaps in 24 h (then USD volume), top 5" }),
  newest: Schema.Array(SidebarToken).annotate({ description: "The 5 newest launches" }),
  topGainers: Schema.Array(SidebarToken).annotate({
    description: "Highest 24 h change of the hourly USD close (last close vs the close 24 h earlier), top 5 with both"
  })
}) {}
