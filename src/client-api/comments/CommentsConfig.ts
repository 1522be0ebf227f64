import { Config, ConfigProvider, Context, Effect, Layer } from "effect"
import type { RateLimitRule } from "../../platform/ratelimit/RateLimitConfig.ts"

/**
 * Comment tunables (README: configuration). Creates are limited per user with the shared RateLimiter (fixed window):
 * COMMENT_RATE_LIMIT creates per COMMENT_RATE_WINDOW_SECONDS, 10 per 60 s by default; over it, 429 RATE_LIMITED.
 */
export interface CommentSettings {
  readonly createLimit: RateLimitRule
  /** COMMENT_EDIT_RATE_LIMIT edits per COMMENT_EDIT_RATE_WINDOW_SECONDS per user (10 per 60 s): each edit may notify. */
  readonly editLimit?: RateLimitRule
  /** COMMENT_MENTION_LIFETIME_CAP: distinct users one comment may ever notify by mention, edits included (10). */
  readonly mentionLifetimeCap?: number
}

const positive = (name: string, fallback: number) =>
  Config.Int(name).pipe(
    Config.withDefault(fallback),
    Config.flatMap((n) =>
      n >= 1 ? Config.succeed(n) : Config.fail(new ConfigProvider.SourceError({ message: `${name}: must be ≥ 1` }))
    )
  )

export const commentSettingsConfig: Config.Config<CommentSettings> = Config.all({
  createLimit: Config.all({
    limit: positive("COMMENT_RATE_LIMIT", 10),
    windowSeconds: positive("COMMENT_RATE_WINDOW_SECONDS", 60)
  }),
  editLimit: Config.all({
    limit: positive("COMMENT_EDIT_RATE_LIMIT", 10),
    windowSeconds: positive("COMMENT_EDIT_RATE_WINDOW_SECONDS", 60)
  }),
  mentionLifetimeCap: positive("COMMENT_MENTION_LIFETIME_CAP", 10)
})

export class CommentsConfig extends Context.Service<CommentsConfig, CommentSettings>()("app/comments/CommentsConfig") {
  static readonly layer = Layer.effect(CommentsConfig, Effect.map(commentSettingsConfig, CommentsConfig.of))
}
