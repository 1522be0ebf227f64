import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, NotFound } from "../../../platform/ApiError.ts"
import { BadgeDetail, BadgeList } from "./BadgeCatalog.ts"

const EARNING =
  "Badges are earned by wallets from their activity (launches, fuel, swaps, gifts, yaps): the criteria are checked " +
  "every COMPETITION_REFRESH_SECONDS; an earned badge is kept. A user's badges show in GET /v1/users/stats (`badges`)."

export class BadgesApi extends HttpApiGroup.make("badges")
  .add(
    HttpApiEndpoint.get("listBadges", "/v1/badges", { success: BadgeList }).annotateMerge(
      OpenApi.annotations({
        summary: "Badge catalog",
        description: `Every badge with its criterion and holder count. ${EARNING}`
      })
    ),
    HttpApiEndpoint.get("getBadge", "/v1/badges/:badgeId", {
      params: { badgeId: Schema.String.check(Schema.isPattern(/^[a-z0-9-]{1,40}$/u)) },
      success: BadgeDetail,
      error: [BadRequest, NotFound]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "One badge",
        description: `The badge, its criterion, holder count and latest earners. 404 BADGE_NOT_FOUND. ${EARNING}`
      })
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Badges", description: EARNING })) {}
