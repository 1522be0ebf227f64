import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser } from "../../accounts/auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import { LaunchList, toLaunchView } from "./Launch.ts"
import { Launches } from "./Launches.ts"

export const LaunchesHttp = HttpApiBuilder.group(
  ClientApi,
  "launches",
  Effect.fn(function* (handlers) {
    const launches = yield* Launches
    return handlers
      .handle("createLaunch", ({ payload }) =>
        Effect.flatMap(CurrentUser, (u) => launches.create(u, payload)).pipe(Effect.map(toLaunchView))
      )
      .handle("getPendingLaunches", () =>
        Effect.flatMap(CurrentUser, launches.pending).pipe(
          Effect.map((items) => new LaunchList({ items: items.map(toLaunchView) }))
        )
      )
      .handle("getLaunch", ({ params }) =>
        Effect.flatMap(CurrentUser, (u) => launches.get(u, params.id)).pipe(Effect.map(toLaunchView))
      )
      .handle("uploadLaunchImage", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (u) => launches.setImage(u, params.id, payload.file.path)).pipe(
          Effect.map(toLaunchView)
        )
      )
      .handle("submitLaunch", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (u) => launches.submit(u, params.id, payload.tokenAddress)).pipe(
          Effect.map(toLaunchView)
        )
      )
      .handle("failLaunch", ({ params }) =>
        Effect.flatMap(CurrentUser, (u) => launches.fail(u, params.id)).pipe(Effect.map(toLaunchView))
      )
      .handle("deleteLaunch", ({ params }) => Effect.flatMap(CurrentUser, (u) => launches.remove(u, params.id)))
  })
)
