import { Schema } from "effect"
import { getAddress } from "viem"
import { MintAddress } from "../listings/Listing.ts"
import { ImagePath } from "../accounts/users/User.ts"
import { ReportReason } from "../listings/moderation/Report.ts"

/**
 * The comment (yap) model: payloads, the view every route returns and the pages. The spec leaves the fields open;
 * this file is their definition. Text is data: stored as given and returned as given, never rendered as HTML.
 */

export const COMMENT_TEXT_MAX = 1000
export const COMMENT_PAGE = { default: 20, max: 100 } as const
export const BATCH_LATEST = { maxTokens: 50, default: 3, max: 10 } as const

/** Code points (the `u` flag), as JSON Schema's maxLength counts; newline and tab allowed, other controls not. */
export const CommentText = Schema.String.check(
  Schema.isPattern(new RegExp(`^(?=[\\s\\S]*\\S)(?:[^\\p{Cc}]|[\\n\\t]){1,${COMMENT_TEXT_MAX}}$`, "u"))
).annotate({
  description:
    `The comment: 1–${COMMENT_TEXT_MAX} characters, not blank; line breaks and tabs allowed, other control ` +
    "characters not. Stored and returned exactly as sent (plain text, never HTML). `@username` mentions are resolved " +
    "into `mentions`.",
  examples: ["gm @satoshi_21, this one is going to the moon"]
})

export const CommentId = Schema.Int.check(Schema.isGreaterThan(0)).annotate({
  description: "Comment id",
  examples: [1]
})

export const CreateCommentPayload = Schema.Struct({
  token: MintAddress.annotate({ description: "The token whose thread the comment goes to (a visible launched token)" }),
  text: CommentText,
  replyTo: Schema.optionalKey(
    CommentId.annotate({ description: "Id of the comment this one replies to (same token)" })
  ),
  image: Schema.optionalKey(
    ImagePath.annotate({
      description:
        "An image already stored by the image pipeline (`/v1/images/<sha256>.webp`, e.g. from " +
        "POST /v1/comments/image); 400 IMAGE_NOT_FOUND when no such image is stored",
      examples: ["/v1/images/0000000000000000000000000000000000000000000000000000000000000000.webp"]
    })
  )
}).annotate({ identifier: "CreateComment" })

export const EditCommentPayload = Schema.Struct({ text: CommentText }).annotate({ identifier: "EditComment" })

export class CommentAuthor extends Schema.Class<CommentAuthor>("CommentAuthor")({
  id: Schema.String,
  username: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  image: Schema.NullOr(Schema.String),
  walletAddress: Schema.NullOr(Schema.String).annotate({ description: "Checksummed; null for a user without a wallet" })
}) {}

export class Mention extends Schema.Class<Mention>("Mention")({
  username: Schema.String.annotate({ description: "Lower-case username as mentioned" }),
  userId: Schema.String
}) {}

export class ViewerReaction extends Schema.Class<ViewerReaction>("ViewerReaction")({
  liked: Schema.Boolean,
  disliked: Schema.Boolean,
  favorited: Schema.Boolean
}) {}

export class CommentView extends Schema.Class<CommentView>("Comment")({
  id: Schema.Int,
  mintAddress: Schema.String.annotate({ description: "Token of the thread (EIP-55)" }),
  postNumber: Schema.Int.annotate({ description: "Sequential per token from 1, replies included; kept after delete" }),
  replyTo: Schema.NullOr(Schema.Int).annotate({ description: "Parent comment id; null at the top level" }),
  author: Schema.NullOr(CommentAuthor).annotate({ description: "null once deleted" }),
  text: Schema.NullOr(Schema.String).annotate({ description: "As sent; null once deleted" }),
  image: Schema.NullOr(Schema.String),
  mentions: Schema.Array(Mention).annotate({
    description: "Resolved `@username` mentions (unknown names are left out)"
  }),
  replyCount: Schema.Int.annotate({
    description: "Replies written to it (deleted replies stay as tombstones and count)"
  }),
  likes: Schema.Int,
  dislikes: Schema.Int,
  favorites: Schema.Int,
  createdAt: Schema.String,
  editedAt: Schema.NullOr(Schema.String).annotate({
    description: "ISO 8601 time of the last edit; null if never edited"
  }),
  deleted: Schema.Boolean.annotate({ description: "Soft-deleted: the tombstone keeps the thread's shape" }),
  viewer: Schema.NullOr(ViewerReaction).annotate({ description: "The caller's reactions; null without a session" })
}) {}

export class CommentPage extends Schema.Class<CommentPage>("CommentPage")({
  items: Schema.Array(CommentView),
  nextCursor: Schema.NullOr(Schema.String).annotate({
    description: "Pass as `cursor` for the next page; null at the end"
  }),
  commentCount: Schema.Int.annotate({ description: "Comments of the token that are not deleted (replies included)" })
}) {}

export class CommentThread extends Schema.Class<CommentThread>("CommentThread")({
  comment: CommentView,
  replies: Schema.Array(CommentView).annotate({ description: "Direct replies, oldest first (post-number order)" }),
  nextCursor: Schema.NullOr(Schema.String).annotate({
    description: "Cursor of the next page of replies; null at the end"
  })
}) {}

export class CommentImage extends Schema.Class<CommentImage>("CommentImage")({
  image: Schema.String.annotate({ description: "`/v1/images/<sha256>.webp`, for the `image` of POST /v1/comments" })
}) {}

export class LatestComments extends Schema.Class<LatestComments>("LatestComments")({
  tokens: Schema.Record(Schema.String, Schema.Array(CommentView)).annotate({
    description: "Per requested address (as sent, lower-cased): its newest comments, newest first; [] for none"
  })
}) {}

/** A comments row joined with its author (camelCase from the client's transforms). */
export interface CommentRow {
  readonly id: string
  readonly token: string
  readonly postNumber: number
  readonly replyTo: string | null
  readonly text: string
  readonly image: string | null
  readonly mentions: ReadonlyArray<{ readonly userId: string; readonly username: string }>
  readonly replyCount: number
  readonly likeCount: number
  readonly dislikeCount: number
  readonly favoriteCount: number
  readonly createdAt: Date
  readonly editedAt: Date | null
  readonly deletedAt: Date | null
  readonly authorId: string
  readonly authorUsername: string | null
  readonly authorName: string | null
  readonly authorImage: string | null
  readonly authorWallet: string | null
  /** The viewer's reaction and favorite, when a viewer was given. */
  readonly viewerKind?: "like" | "dislike" | null
  readonly viewerFavorite?: boolean | null
}

export const toCommentView = (r: CommentRow, withViewer: boolean): CommentView => {
  const deleted = r.deletedAt !== null
  return new CommentView({
    id: Number(r.id),
    mintAddress: getAddress(r.token),
    postNumber: r.postNumber,
    replyTo: r.replyTo === null ? null : Number(r.replyTo),
    author: deleted
      ? null
      : new CommentAuthor({
          id: r.authorId,
          username: r.authorUsername,
          name: r.authorName,
          image: r.authorImage,
          walletAddress: r.authorWallet === null ? null : getAddress(r.authorWallet)
        }),
    text: deleted ? null : r.text,
    image: deleted ? null : r.image,
    mentions: deleted ? [] : r.mentions.map((m) => new Mention(m)),
    replyCount: r.replyCount,
    likes: r.likeCount,
    dislikes: r.dislikeCount,
    favorites: r.favoriteCount,
    createdAt: r.createdAt.toISOString(),
    editedAt: r.editedAt?.toISOString() ?? null,
    deleted,
    viewer: withViewer
      ? new ViewerReaction({
          liked: r.viewerKind === "like",
          disliked: r.viewerKind === "dislike",
          favorited: r.viewerFavorite === true
        })
      : null
  })
}

/** A report on a comment, as the report route answers it. */
export class CommentReport extends Schema.Class<CommentReport>("CommentReport")({
  id: Schema.String.annotate({ description: "Report id (UUID)" }),
  commentId: Schema.Int,
  reason: ReportReason,
  details: Schema.NullOr(Schema.String),
  status: Schema.Literals(["open", "resolved"]),
  createdAt: Schema.String
}) {}

/** The token errors of the routes under a token, as their descriptions state them. */
export const TOKEN_ERRORS =
  "404 TOKEN_NOT_FOUND (not a canonical launched token, or not indexed yet); 410 TOKEN_DELETED " +
  "(removed by an admin); 400 INVALID_PATH / INVALID_QUERY / INVALID_BODY (malformed input)"
