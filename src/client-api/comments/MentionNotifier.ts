import { Context, Effect, Layer } from "effect"
import { Notifications } from "../notifications/Notifications.ts"
import { excerpt } from "./Mentions.ts"

/**
 * COMMENT_MENTION notifications of a comment (new or edited), in the caller's transaction. The author is never
 * notified of their own mention, and the dedupe key (comment, user) makes a user notified once per comment however
 * often an edit mentions them again.
 */
export class MentionNotifier extends Context.Service<MentionNotifier, {
  readonly notify: (comment: {
    readonly id: number
    readonly token: string
    readonly postNumber: number
    readonly text: string
    readonly author: { readonly userId: string; readonly username: string | null }
    readonly mentioned: ReadonlyArray<{ readonly userId: string; readonly username: string }>
  }) => Effect.Effect<void>
}>()("app/comments/MentionNotifier") {
  static readonly layer = Layer.effect(
    MentionNotifier,
    Effect.gen(function*() {
      const notifications = yield* Notifications
      return MentionNotifier.of({
        notify: (comment) =>
          Effect.forEach(
            comment.mentioned.filter((m) => m.userId !== comment.author.userId),
            (m) =>
              notifications.notify(m.userId, "COMMENT_MENTION", {
                commentId: comment.id,
                token: comment.token,
                postNumber: comment.postNumber,
                author: comment.author,
                excerpt: excerpt(comment.text)
              }, { dedupeKey: `comment-mention:${comment.id}:${m.userId}` }),
            { discard: true }
          )
      })
    })
  )
}
