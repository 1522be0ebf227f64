import { Effect, Layer, Schedule } from "effect"
import { Badges } from "../badges/Badges.ts"
import { Leaderboards } from "./Leaderboards.ts"
import { SocialRefreshConfig } from "./SocialRefreshConfig.ts"

/**
 * Recomputes the precomputed social data — leaderboards, then badges — at start and every COMPETITION_REFRESH_SECONDS,
 * for the life of the client service. A failed round is logged and the next one runs on schedule (the routes keep
 * serving the last computation, whose `computedAt` they show).
 */
export const SocialRefreshLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const boards = yield* Leaderboards
    const badges = yield* Badges
    const { refreshSeconds } = yield* SocialRefreshConfig
    const round = Effect.andThen(boards.refresh, badges.award).pipe(
      Effect.catchCause((cause) => Effect.logWarning("social refresh failed", cause))
    )
    yield* Effect.forkScoped(round.pipe(Effect.repeat(Schedule.spaced(`${refreshSeconds} seconds`))))
  })
)
