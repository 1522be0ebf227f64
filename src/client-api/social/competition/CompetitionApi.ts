import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest } from "../../../platform/ApiError.ts"
import { PERIOD_RULES, PERIODS } from "./Period.ts"

export class LeaderboardEntry extends Schema.Class<LeaderboardEntry>("LeaderboardEntry")({
  rank: Schema.Int,
  walletAddress: Schema.String.annotate({ description: "Checksummed" }),
  userId: Schema.NullOr(Schema.String).annotate({
    description: "The wallet's user, null if it never signed in (or is hidden)"
  }),
  username: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  value: Schema.String.annotate({ description: "volume: USD (decimal); fuelGiven: wei; yaps: count" })
}) {}

export class CompetitionStats extends Schema.Class<CompetitionStats>("CompetitionStats")({
  period: Schema.Literals(PERIODS),
  startsAt: Schema.NullOr(Schema.String).annotate({ description: "Window start (ISO 8601), null for `all`" }),
  endsAt: Schema.NullOr(Schema.String).annotate({ description: "Window end, exclusive; null for `all`" }),
  computedAt: Schema.NullOr(Schema.String).annotate({
    description: "When the boards were computed; null before the first refresh"
  }),
  indexedBlock: Schema.NullOr(Schema.String).annotate({ description: "The indexer's block at that computation" }),
  boards: Schema.Struct({
    volume: Schema.Array(LeaderboardEntry),
    fuelGiven: Schema.Array(LeaderboardEntry),
    yaps: Schema.Array(LeaderboardEntry)
  })
}) {}

export class CompetitionApi extends HttpApiGroup.make("competition")
  .add(
    HttpApiEndpoint.get("getCompetitionStats", "/v1/competition/stats", {
      query: {
        period: Schema.optional(Schema.Literals(PERIODS)).annotate({ description: "week (default) or all" }),
        limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))).annotate({
          description: "Entries per board, 1–100 (default 10)"
        })
      },
      success: CompetitionStats,
      error: BadRequest
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Competition leaderboards",
        description: `Top wallets by trading volume, fuel given and yaps. ${PERIOD_RULES}`
      })
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Competition", description: PERIOD_RULES })) {}
