import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress } from "viem"
import { commentDeleted, commentNotFound, requireVisible } from "../CommentErrors.ts"
import { CommentsRepo } from "../CommentsRepo.ts"
import type { Gone, NotFound } from "../../../platform/ApiError.ts"
import { dbAddress } from "../../listings/Listing.ts"
import { Notifications } from "../../notifications/Notifications.ts"
import type { User } from "../../accounts/users/User.ts"
import { EngagementState, type TargetType, type Toggle } from "./Engagement.ts"

interface Counts {
  readonly likeCount: number
  readonly dislikeCount: number
  readonly favoriteCount: number
}

/**
 * Like / dislike / favorite toggles. Each toggle is one transaction that first locks the target's counter row (the
 * comments row, or the token's token_engagement row), then reads the caller's current state and flips it. Toggles
 * on one target therefore run one after the other: n concurrent toggles by one user end in the state of n's
 * parity, and the counters move with the rows they count (CHECK >= 0 as a backstop). Liking removes a dislike and
 * the other way round (one reactions row per user and target).
 */
export class Toggles extends Context.Service<
  Toggles,
  {
    readonly toggle: (
      user: User,
      toggle: Toggle,
      type: TargetType,
      target: string
    ) => Effect.Effect<EngagementState, NotFound | Gone>
  }
>()("app/engagement/Toggles") {
  static readonly layer = Layer.effect(
    Toggles,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const comments = yield* CommentsRepo
      const notifications = yield* Notifications

      /** Locks the target; for a comment also returns what the like notification needs. */
      const lockComment = (id: number) =>
        sql<{ authorId: string; token: string; postNumber: number; deletedAt: Date | null }>`
          SELECT author_id, token, post_number, deleted_at FROM comments WHERE id = ${id} FOR NO KEY UPDATE`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) =>
            rows[0] === undefined
              ? Effect.fail(commentNotFound(id))
              : rows[0].deletedAt !== null
                ? Effect.fail(commentDeleted(id))
                : Effect.succeed(rows[0])
          )
        )
      const lockToken = (token: string) =>
        sql`
          INSERT INTO token_engagement (token) VALUES (${token})
          ON CONFLICT (token) DO UPDATE SET token = excluded.token`.pipe(Effect.orDie)

      const bump = (type: TargetType, id: string, d: { like: number; dislike: number; favorite: number }) =>
        (type === "comment"
          ? sql<Counts>`
            UPDATE comments SET like_count = like_count + ${d.like}, dislike_count = dislike_count + ${d.dislike},
              favorite_count = favorite_count + ${d.favorite}
            WHERE id = ${Number(id)} RETURNING like_count, dislike_count, favorite_count`
          : sql<Counts>`
            UPDATE token_engagement SET like_count = like_count + ${d.like}, dislike_count = dislike_count + ${d.dislike},
              favorite_count = favorite_count + ${d.favorite}
            WHERE token = ${id} RETURNING like_count, dislike_count, favorite_count`
        ).pipe(
          Effect.map((r) => r[0]!),
          Effect.orDie
        )

      const toggle = Effect.fn("Toggles.toggle")(function* (
        user: User,
        toggle: Toggle,
        type: TargetType,
        target: string
      ) {
        const id = type === "comment" ? target : dbAddress(target)
        if (type === "token") yield* requireVisible(id, yield* comments.tokenState(id))
        return yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const comment = type === "comment" ? yield* lockComment(Number(id)) : undefined
              if (type === "token") yield* lockToken(id)
              const key = sql`user_id = ${user.id} AND target_type = ${type} AND target_id = ${id}`
              const current =
                (yield* sql<{ kind: "like" | "dislike" }>`SELECT kind FROM reactions WHERE ${key}`.pipe(
                  Effect.orDie
                ))[0]?.kind ?? null
              let favorited = (yield* sql`SELECT 1 FROM favorites WHERE ${key}`.pipe(Effect.orDie)).length > 0
              const delta = { like: 0, dislike: 0, favorite: 0 }
              let reaction: "like" | "dislike" | null = current
              if (toggle === "favorite") {
                if (favorited) yield* sql`DELETE FROM favorites WHERE ${key}`.pipe(Effect.orDie)
                else
                  yield* sql`INSERT INTO favorites (user_id, target_type, target_id) VALUES (${user.id}, ${type}, ${id})`.pipe(
                    Effect.orDie
                  )
                delta.favorite = favorited ? -1 : 1
                favorited = !favorited
              } else if (current === toggle) {
                yield* sql`DELETE FROM reactions WHERE ${key}`.pipe(Effect.orDie)
                delta[toggle] = -1
                reaction = null
              } else {
                yield* sql`
              INSERT INTO reactions (user_id, target_type, target_id, kind) VALUES (${user.id}, ${type}, ${id}, ${toggle})
              ON CONFLICT (user_id, target_type, target_id) DO UPDATE SET kind = excluded.kind, created_at = now()`.pipe(
                  Effect.orDie
                )
                delta[toggle] = 1
                if (current !== null) delta[current] = -1
                reaction = toggle
              }
              const counts = yield* bump(type, id, delta)
              if (comment !== undefined && reaction === "like" && current !== "like" && comment.authorId !== user.id) {
                // Once per liker and comment (dedupe key), however often the like is toggled.
                yield* notifications.notify(
                  comment.authorId,
                  "COMMENT_LIKE",
                  {
                    commentId: Number(id),
                    token: comment.token,
                    postNumber: comment.postNumber,
                    liker: { userId: user.id, username: user.username }
                  },
                  { dedupeKey: `comment-like:${id}:${user.id}` }
                )
              }
              return new EngagementState({
                targetType: type,
                targetId: type === "comment" ? id : getAddress(id),
                liked: reaction === "like",
                disliked: reaction === "dislike",
                favorited,
                likes: counts.likeCount,
                dislikes: counts.dislikeCount,
                favorites: counts.favoriteCount
              })
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
      })

      return Toggles.of({ toggle })
    })
  )
}
