import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Conflict, type Forbidden, type Gone, type NotFound, TooManyRequests } from "../../platform/ApiError.ts"
import { RateLimiter, rateLimitSettings } from "../../platform/ratelimit/RateLimiter.ts"
import { CommentsConfig } from "./CommentsConfig.ts"
import type { User } from "../accounts/users/User.ts"
import { CommentReport, type CommentView, toCommentView } from "./Comment.ts"
import { commentDeleted, commentNotFound, notYours } from "./CommentErrors.ts"
import { CommentsRepo } from "./CommentsRepo.ts"
import { MentionNotifier } from "./MentionNotifier.ts"
import { inTextOrder, mentionedUsernames } from "./Mentions.ts"

interface Locked {
  readonly token: string
  readonly authorId: string
  readonly postNumber: number
  readonly deletedAt: Date | null
}

/**
 * Changes to existing comments: edit (author only; sets `edited_at`, mentions resolved again and new ones
 * notified), soft delete (author or admin; the row and its post number stay, text and image are emptied, the
 * thread's live count drops) and reports. Each runs in one transaction that locks the comment row, so an edit and a
 * delete cannot interleave.
 */
export class CommentEdits extends Context.Service<
  CommentEdits,
  {
    readonly edit: (
      user: User,
      id: number,
      text: string
    ) => Effect.Effect<CommentView, NotFound | Gone | Forbidden | TooManyRequests>
    readonly remove: (user: User, id: number) => Effect.Effect<CommentView, NotFound | Forbidden>
    readonly report: (
      user: User,
      id: number,
      reason: string,
      details: string | null
    ) => Effect.Effect<CommentReport, NotFound | Gone | Conflict>
  }
>()("app/comments/CommentEdits") {
  static readonly layer = Layer.effect(
    CommentEdits,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const repo = yield* CommentsRepo
      const mentions = yield* MentionNotifier
      const limiter = yield* RateLimiter
      const limitsOn = (yield* Effect.orDie(rateLimitSettings)).enabled
      const editLimit = (yield* CommentsConfig).editLimit ?? { limit: 10, windowSeconds: 60 }

      const lock = (id: number) =>
        sql<Locked>`SELECT token, author_id, post_number, deleted_at FROM comments WHERE id = ${id} FOR NO KEY UPDATE`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => (rows[0] === undefined ? Effect.fail(commentNotFound(id)) : Effect.succeed(rows[0])))
        )
      const view = (id: number, viewer: string) =>
        Effect.map(repo.byId(id, viewer), (row) => toCommentView(Option.getOrThrow(row), true))

      const edit = Effect.fn("CommentEdits.edit")(function* (user: User, id: number, text: string) {
        if (limitsOn) {
          // Each edit resolves mentions again and may notify (and web-push): a window per user, as for creates.
          const decision = yield* limiter.consume("comment-edit", user.id, editLimit)
          if (!decision.allowed) {
            return yield* new TooManyRequests({
              code: "RATE_LIMITED",
              message: `At most ${decision.limit} edits per ${editLimit.windowSeconds} s; retry in ${decision.resetSeconds} s`,
              details: { limit: decision.limit, retryAfterSeconds: decision.resetSeconds }
            })
          }
        }
        const names = mentionedUsernames(text)
        const mentioned = inTextOrder(names, yield* repo.usersByUsername(names))
        yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const c = yield* lock(id)
              if (c.authorId !== user.id) return yield* notYours(id)
              if (c.deletedAt !== null) return yield* commentDeleted(id)
              yield* sql`
            UPDATE comments SET text = ${text}, mentions = ${JSON.stringify(mentioned)}::jsonb, edited_at = now()
            WHERE id = ${id}`.pipe(Effect.orDie)
              yield* mentions.notify({
                id,
                token: c.token,
                postNumber: c.postNumber,
                text,
                author: { userId: user.id, username: user.username },
                mentioned
              })
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
        return yield* view(id, user.id)
      })

      const remove = Effect.fn("CommentEdits.remove")(function* (user: User, id: number) {
        const found = yield* repo.byId(id, null)
        if (Option.isNone(found)) return yield* commentNotFound(id)
        if (found.value.authorId !== user.id && !user.isAdmin) return yield* notYours(id)
        yield* sql
          .withTransaction(
            Effect.gen(function* () {
              // The thread row first, as creates lock it (then the parent comment): one lock order, no deadlock.
              yield* sql`SELECT 1 FROM comment_threads WHERE token = ${found.value.token} FOR UPDATE`.pipe(Effect.orDie)
              const c = yield* lock(id)
              // Already deleted: idempotent, the tombstone is answered as it is.
              if (c.deletedAt !== null) return
              yield* sql`
            UPDATE comments SET deleted_at = now(), deleted_by = ${user.id}, text = '', image = NULL, mentions = '[]'::jsonb
            WHERE id = ${id}`.pipe(Effect.orDie)
              yield* sql`UPDATE comment_threads SET comment_count = comment_count - 1 WHERE token = ${c.token}`.pipe(
                Effect.orDie
              )
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
        return yield* view(id, user.id)
      })

      const report = Effect.fn("CommentEdits.report")(function* (
        user: User,
        id: number,
        reason: string,
        details: string | null
      ) {
        const found = yield* repo.byId(id, null)
        if (Option.isNone(found)) return yield* commentNotFound(id)
        if (found.value.deletedAt !== null) return yield* commentDeleted(id)
        // The partial unique index lets one open report per user and comment through, also under concurrent requests.
        const rows = yield* sql<{ id: string; createdAt: Date }>`
          INSERT INTO comment_reports (comment_id, reporter_id, reason, details)
          VALUES (${id}, ${user.id}, ${reason}, ${details})
          ON CONFLICT (comment_id, reporter_id) WHERE resolved_at IS NULL DO NOTHING
          RETURNING id, created_at`.pipe(Effect.orDie)
        if (rows[0] === undefined) {
          return yield* new Conflict({
            code: "REPORT_ALREADY_OPEN",
            message: `You already reported comment ${id}; an administrator has not looked at it yet`,
            details: { commentId: id }
          })
        }
        return new CommentReport({
          id: rows[0].id,
          commentId: id,
          reason: reason as CommentReport["reason"],
          details,
          status: "open",
          createdAt: rows[0].createdAt.toISOString()
        })
      })

      return CommentEdits.of({ edit, remove, report })
    })
  )
}
