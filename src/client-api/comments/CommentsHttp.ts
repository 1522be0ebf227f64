import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser, OptionalSession } from "../accounts/auth/Authentication.ts"
import { ClientApi } from "../ClientApi.ts"
import { ImageStore, imageUrlPath } from "../accounts/images/ImageStore.ts"
import { cachedIfAnonymous, ClientCache } from "../ClientCache.ts"
import { BATCH_LATEST, COMMENT_PAGE, CommentImage, CommentPage } from "./Comment.ts"
import { CommentEdits } from "./CommentEdits.ts"
import { Comments } from "./Comments.ts"

/** The signed-in viewer's id on optional-JWT routes (null when anonymous). */
const viewerId = Effect.map(OptionalSession, (session) => Option.getOrNull(Option.map(session, (s) => s.user.id)))

export const CommentsHttp = HttpApiBuilder.group(
  ClientApi,
  "comments",
  Effect.fn(function* (handlers) {
    const comments = yield* Comments
    const edits = yield* CommentEdits
    const images = yield* ImageStore
    const cachedPage = cachedIfAnonymous(yield* ClientCache, CommentPage)
    return handlers
      .handle("listTokenComments", ({ params, query }) =>
        Effect.flatMap(viewerId, (viewer) =>
          cachedPage(
            comments.list(
              params.mintAddress,
              {
                order: query.order ?? "newest",
                cursor: query.cursor,
                limit: query.limit ?? COMMENT_PAGE.default
              },
              viewer
            )
          )
        )
      )
      .handle("getComment", ({ params, query }) =>
        Effect.flatMap(viewerId, (viewer) =>
          comments.thread(
            params.id,
            {
              order: query.order ?? "oldest",
              cursor: query.cursor,
              limit: query.limit ?? COMMENT_PAGE.default
            },
            viewer
          )
        )
      )
      .handle("getCommentByPostNumber", ({ params }) =>
        Effect.flatMap(viewerId, (viewer) => comments.byPostNumber(params.mintAddress, params.postNumber, viewer))
      )
      .handle("getLatestComments", ({ payload }) =>
        Effect.flatMap(viewerId, (viewer) =>
          comments.latest(payload.mintAddresses, payload.limit ?? BATCH_LATEST.default, viewer)
        )
      )
      .handle("uploadCommentImage", ({ payload }) =>
        Effect.map(images.store(payload.file.path), (file) => new CommentImage({ image: imageUrlPath(file) }))
      )
      .handle("createComment", ({ payload }) => Effect.flatMap(CurrentUser, (user) => comments.create(user, payload)))
      .handle("editComment", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) => edits.edit(user, params.id, payload.text))
      )
      .handle("deleteComment", ({ params }) => Effect.flatMap(CurrentUser, (user) => edits.remove(user, params.id)))
      .handle("reportComment", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) => edits.report(user, params.id, payload.reason, payload.details ?? null))
      )
  })
)
