import { Schema } from "effect"

/**
 * The badge catalog. Each badge is earned by a wallet when its activity meets the criterion (checked by the social
 * refresh every COMPETITION_REFRESH_SECONDS over the indexed tables and the app's own tables); once earned it is kept,
 * even if the activity that earned it is later reorganised away.
 */
export type BadgeMetric =
  | "launches"
  | "graduatedLaunches"
  | "fuelTipsGiven"
  | "fuelGivenWei"
  | "fuelTipsReceived"
  | "swaps"
  | "volumeUsd"
  | "giftStreak"
  | "yaps"

export interface BadgeDefinition {
  readonly badgeId: string
  readonly name: string
  readonly description: string
  readonly metric: BadgeMetric
  /** Earned when metric ≥ threshold (a decimal string: wei thresholds exceed 2^53). */
  readonly threshold: string
}

export const BADGES: ReadonlyArray<BadgeDefinition> = [
  { badgeId: "first-launch", name: "Igniter", description: "Launched a token", metric: "launches", threshold: "1" },
  {
    badgeId: "serial-launcher",
    name: "Serial launcher",
    description: "Launched 3 tokens",
    metric: "launches",
    threshold: "3"
  },
  {
    badgeId: "graduate",
    name: "Graduate",
    description: "Created a token that graduated",
    metric: "graduatedLaunches",
    threshold: "1"
  },
  {
    badgeId: "first-fuel",
    name: "Fueler",
    description: "Gave fuel to a creator",
    metric: "fuelTipsGiven",
    threshold: "1"
  },
  {
    badgeId: "big-fueler",
    name: "Big fueler",
    description: "Gave 1 ETH of fuel in total",
    metric: "fuelGivenWei",
    threshold: "1000000000000000000"
  },
  {
    badgeId: "fueled",
    name: "Fueled",
    description: "Received fuel on a token you created",
    metric: "fuelTipsReceived",
    threshold: "1"
  },
  { badgeId: "trader", name: "Trader", description: "Made a swap", metric: "swaps", threshold: "1" },
  {
    badgeId: "whale",
    name: "Whale",
    description: "Swapped 10,000 USD in total",
    metric: "volumeUsd",
    threshold: "10000"
  },
  {
    badgeId: "gift-streak-7",
    name: "Regular",
    description: "Claimed the gift 7 cycles in a row",
    metric: "giftStreak",
    threshold: "7"
  },
  { badgeId: "yapper", name: "Yapper", description: "Wrote 10 yaps", metric: "yaps", threshold: "10" }
]

export const METRIC_DESCRIPTIONS: Record<BadgeMetric, string> = {
  launches: "canonical launches created by the wallet (FireLaunch.Ignited)",
  graduatedLaunches: "tokens created by the wallet that graduated",
  fuelTipsGiven: "FuelGiven events sent by the wallet",
  fuelGivenWei: "wei of fuel given by the wallet",
  fuelTipsReceived: "FuelGiven events to tokens the wallet created",
  swaps: "swaps whose recipient is the wallet",
  volumeUsd: "USD size of swaps whose recipient is the wallet",
  giftStreak: "longest gift streak of the wallet's user",
  yaps: "comments written by the wallet's user"
}

export class BadgeCriteria extends Schema.Class<BadgeCriteria>("BadgeCriteria")({
  metric: Schema.String.annotate({ description: "What is measured" }),
  description: Schema.String,
  threshold: Schema.String.annotate({ description: "Earned when metric ≥ threshold (decimal string)" })
}) {}

export class Badge extends Schema.Class<Badge>("Badge")({
  badgeId: Schema.String,
  name: Schema.String,
  description: Schema.String,
  criteria: BadgeCriteria,
  holders: Schema.Int.annotate({ description: "Wallets that earned it" })
}) {}

export class BadgeHolder extends Schema.Class<BadgeHolder>("BadgeHolder")({
  walletAddress: Schema.String,
  earnedAt: Schema.String
}) {}

export class BadgeDetail extends Schema.Class<BadgeDetail>("BadgeDetail")({
  ...Badge.fields,
  recentHolders: Schema.Array(BadgeHolder).annotate({ description: "The 20 latest earners, newest first" })
}) {}

export class BadgeList extends Schema.Class<BadgeList>("BadgeList")({
  badges: Schema.Array(Badge)
}) {}

export class EarnedBadge extends Schema.Class<EarnedBadge>("EarnedBadge")({
  badgeId: Schema.String,
  name: Schema.String,
  earnedAt: Schema.String
}) {}
