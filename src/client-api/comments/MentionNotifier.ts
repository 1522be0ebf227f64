import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CommentsConfig } from "./CommentsConfig.ts"
import { Notifications } from "../notifications/Notifications.ts"
import { excerpt } from "./Mentions.ts"

/**
 * COMMENT_MENTION notifications of a comment (new or edited), in the caller's transaction. The author is never
 * notified of their own mention, and the dedupe key (comment, user) makes a user notified once per comment however
 * often an edit mentions them again. Over a comment's life at most COMMENT_MENTION_LIFETIME_CAP distinct users are
 * notified (docs/SECURITY.md): an edit loop that swaps the names mentioned cannot reach every user.
 */
export class MentionNotifier extends Context.Service<
  MentionNotifier,
  {
    readonly notify: (comment: {
      readonly id: number
      readonly token: string
      readonly postNumber: number
      readonly text: string
      readonly author: { readonly userId: string; readonly username: string | null }
      readonly mentioned: ReadonlyArray<{ readonly userId: string; readonly username: string }>
    }) => Effect.Effect<void>
  }
>()("app/comments/MentionNotifier") {
  static readonly layer = Layer.effect(
    MentionNotifier,
    Effect.gen(function* () {
      const notifications = yield* Notifications
      const sql = yield* SqlClient.SqlClient
      const cap = (yield* CommentsConfig).mentionLifetimeCap ?? 10
      /** Users this comment already notified by mention (its dedupe keys), read in the caller's transaction. */
      const notifiedBefore = (commentId: number) =>
        sql<{
          key: string
        }>`SELECT dedupe_key AS key FROM notifications WHERE dedupe_key LIKE ${`comment-mention:${commentId}:%`}`.pipe(
          Effect.map((rows) => new Set(rows.map((r) => r.key.slice(r.key.lastIndexOf(":") + 1)))),
          Effect.orDie
        )
      return MentionNotifier.of({
        notify: (comment) =>
          Effect.flatMap(notifiedBefore(comment.id), (before) => {
            const fresh = comment.mentioned.filter((m) => m.userId !== comment.author.userId && !before.has(m.userId))
            return Effect.forEach(
              fresh.slice(0, Math.max(0, cap - before.size)),
              (m) =>
                notifications.notify(
                  m.userId,
                  "COMMENT_MENTION",
                  {
                    commentId: comment.id,
                    token: comment.token,
                    postNumber: comment.postNumber,
                    author: comment.author,
                    excerpt: excerpt(comment.text)
                  },
                  { dedupeKey: `comment-mention:${comment.id}:${m.userId}` }
                ),
              { discard: true }
            )
          })
      })
    })
  )
}
