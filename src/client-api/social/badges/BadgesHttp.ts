import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ClientApi } from "../../ClientApi.ts"
import { Badges } from "./Badges.ts"

export const BadgesHttp = HttpApiBuilder.group(
  ClientApi,
  "badges",
  Effect.fn(function* (handlers) {
    const badges = yield* Badges
    return handlers
      .handle("listBadges", () => badges.list)
      .handle("getBadge", ({ params }) => badges.get(params.badgeId))
  })
)
