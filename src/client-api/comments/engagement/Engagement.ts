import { Schema } from "effect"
import { CommentView } from "../Comment.ts"

/** Engagement models: what a toggle answers and the caller's favorites list (the spec leaves both open). */

export const TargetType = Schema.Literals(["comment", "token"]).annotate({ description: "`comment` or `token`" })
export type TargetType = typeof TargetType.Type
export type Toggle = "like" | "dislike" | "favorite"

export class EngagementState extends Schema.Class<EngagementState>("EngagementState")({
  targetType: TargetType,
  targetId: Schema.String.annotate({ description: "The comment id (decimal) or the token's EIP-55 address" }),
  liked: Schema.Boolean.annotate({ description: "The caller likes it (after this toggle)" }),
  disliked: Schema.Boolean.annotate({ description: "The caller dislikes it; never true together with `liked`" }),
  favorited: Schema.Boolean,
  likes: Schema.Int.annotate({ description: "Likes of the target (every user), never negative" }),
  dislikes: Schema.Int,
  favorites: Schema.Int
}) {}

export class FavoriteToken extends Schema.Class<FavoriteToken>("FavoriteToken")({
  mintAddress: Schema.String,
  name: Schema.NullOr(Schema.String),
  symbol: Schema.NullOr(Schema.String),
  image: Schema.NullOr(Schema.String)
}) {}

export class Favorite extends Schema.Class<Favorite>("Favorite")({
  targetType: TargetType,
  targetId: Schema.String.annotate({ description: "The comment id (decimal) or the token's EIP-55 address" }),
  favoritedAt: Schema.String.annotate({ description: "ISO 8601" }),
  comment: Schema.NullOr(CommentView).annotate({
    description: "The comment (targetType comment; a tombstone if deleted)"
  }),
  token: Schema.NullOr(FavoriteToken).annotate({
    description: "The token (targetType token); name/symbol null if not indexed"
  })
}) {}

export class FavoritePage extends Schema.Class<FavoritePage>("FavoritePage")({
  items: Schema.Array(Favorite).annotate({ description: "Newest favorite first" }),
  nextCursor: Schema.NullOr(Schema.String).annotate({
    description: "Pass as `cursor` for the next page; null at the end"
  })
}) {}
