import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser } from "../../accounts/auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import type { TargetType, Toggle } from "./Engagement.ts"
import { Favorites } from "./Favorites.ts"
import { Toggles } from "./Toggles.ts"

export const EngagementHttp = HttpApiBuilder.group(
  ClientApi,
  "engagement",
  Effect.fn(function* (handlers) {
    const toggles = yield* Toggles
    const favorites = yield* Favorites
    const run = (toggle: Toggle, type: TargetType, target: string) =>
      Effect.flatMap(CurrentUser, (user) => toggles.toggle(user, toggle, type, target))
    return handlers
      .handle("likesToggleComment", ({ params }) => run("like", "comment", String(params.id)))
      .handle("likesToggleToken", ({ params }) => run("like", "token", params.mintAddress))
      .handle("dislikeToggleComment", ({ params }) => run("dislike", "comment", String(params.id)))
      .handle("dislikeToggleToken", ({ params }) => run("dislike", "token", params.mintAddress))
      .handle("favoritesToggleComment", ({ params }) => run("favorite", "comment", String(params.id)))
      .handle("favoritesToggleToken", ({ params }) => run("favorite", "token", params.mintAddress))
      .handle("listFavorites", ({ query }) =>
        Effect.flatMap(CurrentUser, (user) =>
          favorites.list(user.id, { type: query.type, limit: query.limit ?? 20, cursor: query.cursor })
        )
      )
  })
)
