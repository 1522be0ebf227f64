import { Schema } from "effect"
import { EarnedBadge } from "../../social/badges/BadgeCatalog.ts"

/**
 * The profile widgets (stats, activity, yaps, fuels, trades). They show what exists so far: counters and lists stay
 * empty until the features that produce comments, fuel and trades land; those features fill these shapes in.
 */

export class UserStats extends Schema.Class<UserStats>("UserStats")({
  walletAddress: Schema.String.annotate({ description: "Checksummed address the stats are for" }),
  userId: Schema.NullOr(Schema.String).annotate({ description: "The user of that wallet, null if it never signed in" }),
  joinedAt: Schema.NullOr(Schema.String).annotate({ description: "ISO 8601 time the user was created" }),
  yaps: Schema.Int.annotate({ description: "Comments written" }),
  fuelsGiven: Schema.Int.annotate({ description: "Fuel (tip) transactions sent" }),
  fuelsReceived: Schema.Int.annotate({ description: "Fuel (tip) transactions received" }),
  trades: Schema.Int.annotate({ description: "Swaps made" }),
  launches: Schema.Int.annotate({ description: "Tokens launched" }),
  badges: Schema.Array(EarnedBadge).annotate({ description: "Badges the wallet earned (catalog: GET /v1/badges)" })
}) {}

export class WidgetPage extends Schema.Class<WidgetPage>("WidgetPage")({
  walletAddress: Schema.String,
  items: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)).annotate({
    description: "Newest first; item fields are defined by the feature that produces them"
  }),
  nextCursor: Schema.NullOr(Schema.String).annotate({
    description: "Pass as `cursor` for the next page; null at the end"
  })
}) {}

export type WidgetName = "activity" | "yaps" | "fuels" | "trades"
