import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { BadRequest, type Gone, type NotFound, TooManyRequests } from "../../platform/ApiError.ts"
import { ImageStore } from "../accounts/images/ImageStore.ts"
import { dbAddress } from "../listings/Listing.ts"
import { Notifications } from "../notifications/Notifications.ts"
import { RateLimiter, rateLimitSettings } from "../../platform/ratelimit/RateLimiter.ts"
import type { User } from "../accounts/users/User.ts"
import {
  type CommentRow,
  CommentPage,
  CommentThread,
  type CommentView,
  LatestComments,
  toCommentView
} from "./Comment.ts"
import { commentDeleted, commentNotFound, decodeCursor, requireVisible } from "./CommentErrors.ts"
import { CommentsConfig } from "./CommentsConfig.ts"
import { CommentsRepo } from "./CommentsRepo.ts"
import { MentionNotifier } from "./MentionNotifier.ts"
import { excerpt, inTextOrder, mentionedUsernames } from "./Mentions.ts"

export interface PageQuery {
  readonly order: "newest" | "oldest"
  readonly cursor: string | undefined
  readonly limit: number
}

/** Next-page cursor: the post number of the last item, when there was one more row than the page holds. */
const paged = (rows: ReadonlyArray<CommentRow>, limit: number, viewer: string | null) => {
  const items = rows.slice(0, limit).map((r) => toCommentView(r, viewer !== null))
  return { items, nextCursor: rows.length > limit ? String(items[items.length - 1]!.postNumber) : null }
}

/**
 * Token threads: reading (pages, one comment with its replies, by post number, the latest of many tokens) and
 * creating. A create is one transaction: the thread's next post number (its counter row stays locked until commit,
 * so numbers are gapless and commit in order), the comment with its resolved mentions, the parent's reply count,
 * and the notifications (reply, mentions) through `Notifications.notify`, which joins the transaction.
 */
export class Comments extends Context.Service<
  Comments,
  {
    readonly list: (
      token: string,
      page: PageQuery,
      viewer: string | null
    ) => Effect.Effect<CommentPage, NotFound | Gone | BadRequest>
    readonly thread: (
      id: number,
      page: PageQuery,
      viewer: string | null
    ) => Effect.Effect<CommentThread, NotFound | Gone | BadRequest>
    readonly byPostNumber: (
      token: string,
      postNumber: number,
      viewer: string | null
    ) => Effect.Effect<CommentView, NotFound | Gone>
    readonly latest: (
      tokens: ReadonlyArray<string>,
      limit: number,
      viewer: string | null
    ) => Effect.Effect<LatestComments>
    readonly create: (
      user: User,
      input: { readonly token: string; readonly text: string; readonly replyTo?: number; readonly image?: string }
    ) => Effect.Effect<CommentView, NotFound | Gone | BadRequest | TooManyRequests>
  }
>()("app/comments/Comments") {
  static readonly layer = Layer.effect(
    Comments,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const repo = yield* CommentsRepo
      const notifications = yield* Notifications
      const mentions = yield* MentionNotifier
      const images = yield* ImageStore
      const limiter = yield* RateLimiter
      const config = yield* CommentsConfig
      const limitsOn = (yield* rateLimitSettings).enabled

      const visible = (token: string) => Effect.flatMap(repo.tokenState(token), (state) => requireVisible(token, state))

      const list = Effect.fn("Comments.list")(function* (mint: string, page: PageQuery, viewer: string | null) {
        const token = dbAddress(mint)
        yield* visible(token)
        const after = yield* decodeCursor(page.cursor)
        const rows = yield* repo.topLevel(token, { order: page.order, after, limit: page.limit, viewer })
        return new CommentPage({ ...paged(rows, page.limit, viewer), commentCount: yield* repo.commentCount(token) })
      })

      const thread = Effect.fn("Comments.thread")(function* (id: number, page: PageQuery, viewer: string | null) {
        const after = yield* decodeCursor(page.cursor)
        const row = yield* repo.byId(id, viewer)
        if (Option.isNone(row)) return yield* commentNotFound(id)
        yield* visible(row.value.token)
        const replies = yield* repo.replies(id, { order: page.order, after, limit: page.limit, viewer })
        const { items, nextCursor } = paged(replies, page.limit, viewer)
        return new CommentThread({ comment: toCommentView(row.value, viewer !== null), replies: items, nextCursor })
      })

      const byPostNumber = Effect.fn("Comments.byPostNumber")(function* (
        mint: string,
        postNumber: number,
        viewer: string | null
      ) {
        const token = dbAddress(mint)
        yield* visible(token)
        const row = yield* repo.byPostNumber(token, postNumber, viewer)
        if (Option.isNone(row)) return yield* commentNotFound(`${mint}#${postNumber}`)
        return toCommentView(row.value, viewer !== null)
      })

      const latest = Effect.fn("Comments.latest")(function* (
        mints: ReadonlyArray<string>,
        limit: number,
        viewer: string | null
      ) {
        const tokens = [...new Set(mints.map(dbAddress))]
        const rows = yield* repo.latest(tokens, limit, viewer)
        const byToken: Record<string, Array<CommentView>> = Object.fromEntries(tokens.map((t) => [t, []]))
        for (const row of rows) byToken[row.token]!.push(toCommentView(row, viewer !== null))
        return new LatestComments({ tokens: byToken })
      })

      const create = Effect.fn("Comments.create")(function* (
        user: User,
        input: { readonly token: string; readonly text: string; readonly replyTo?: number; readonly image?: string }
      ) {
        const token = dbAddress(input.token)
        if (limitsOn) {
          const decision = yield* limiter.consume("comment-create", user.id, config.createLimit)
          if (!decision.allowed) {
            return yield* new TooManyRequests({
              code: "RATE_LIMITED",
              message: `At most ${decision.limit} comments per ${config.createLimit.windowSeconds} s; retry in ${decision.resetSeconds} s`,
              details: { limit: decision.limit, retryAfterSeconds: decision.resetSeconds }
            })
          }
        }
        yield* visible(token)
        if (input.image !== undefined && !(yield* images.exists(input.image.split("/").pop()!))) {
          return yield* new BadRequest({
            code: "IMAGE_NOT_FOUND",
            message: `No stored image ${input.image}`,
            details: { image: input.image }
          })
        }
        const parent = input.replyTo === undefined ? Option.none<CommentRow>() : yield* repo.byId(input.replyTo, null)
        if (input.replyTo !== undefined) {
          if (Option.isNone(parent)) return yield* commentNotFound(input.replyTo)
          if (parent.value.token !== token) {
            return yield* new BadRequest({
              code: "REPLY_TO_OTHER_TOKEN",
              message: `Comment ${input.replyTo} belongs to another token's thread`,
              details: { replyTo: input.replyTo }
            })
          }
          if (parent.value.deletedAt !== null) return yield* commentDeleted(input.replyTo)
        }
        const names = mentionedUsernames(input.text)
        const mentioned = inTextOrder(names, yield* repo.usersByUsername(names))

        const id = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const postNumber = yield* repo.nextPostNumber(token)
              const id = yield* repo.insert({
                token,
                postNumber,
                authorId: user.id,
                replyTo: input.replyTo ?? null,
                text: input.text,
                image: input.image ?? null,
                mentions: mentioned
              })
              const author = { userId: user.id, username: user.username }
              if (Option.isSome(parent)) {
                yield* repo.countReply(Number(parent.value.id))
                if (parent.value.authorId !== user.id) {
                  yield* notifications.notify(
                    parent.value.authorId,
                    "COMMENT_REPLY",
                    {
                      commentId: id,
                      token,
                      postNumber,
                      parentId: Number(parent.value.id),
                      author,
                      excerpt: excerpt(input.text)
                    },
                    { dedupeKey: `comment-reply:${id}` }
                  )
                }
              }
              yield* mentions.notify({ id, token, postNumber, text: input.text, author, mentioned })
              return id
            })
          )
          .pipe(Effect.orDie)
        const row = yield* repo.byId(id, user.id)
        return toCommentView(Option.getOrThrow(row), true)
      })

      return Comments.of({ list, thread, byPostNumber, latest, create })
    })
  )
}
