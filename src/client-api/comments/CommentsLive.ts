import { Layer } from "effect"
import { AccountServicesLive } from "../accounts/AccountsLive.ts"
import { EngagementHttp } from "./engagement/EngagementHttp.ts"
import { Favorites } from "./engagement/Favorites.ts"
import { Toggles } from "./engagement/Toggles.ts"
import { Notifications } from "../notifications/Notifications.ts"
import { CommentEdits } from "./CommentEdits.ts"
import { Comments } from "./Comments.ts"
import { CommentsConfig } from "./CommentsConfig.ts"
import { CommentsHttp } from "./CommentsHttp.ts"
import { CommentsRepo } from "./CommentsRepo.ts"
import { MentionNotifier } from "./MentionNotifier.ts"

/**
 * The comment and engagement routes and their services. Needs the process's database, Chain,
 * RateLimiter and config; notifications go through the one Notifications service, the auth middlewares and the
 * image store come from the account services (the same layer values, so each is built once).
 */
export const CommentsHttpLive = Layer.mergeAll(CommentsHttp, EngagementHttp).pipe(
  Layer.provideMerge(Layer.mergeAll(Comments.layer, CommentEdits.layer, Toggles.layer, Favorites.layer)),
  Layer.provideMerge(
    Layer.mergeAll(
      CommentsRepo.layer,
      MentionNotifier.layer.pipe(Layer.provide(CommentsConfig.layer)),
      CommentsConfig.layer
    )
  ),
  Layer.provide(Layer.mergeAll(AccountServicesLive, Notifications.layer))
)
