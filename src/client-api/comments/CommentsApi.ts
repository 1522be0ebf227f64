import { Schema } from "effect"
import { Multipart } from "effect/http"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authentication, OptionalAuthentication } from "../accounts/auth/Authentication.ts"
import {
  BadRequest,
  Conflict,
  Forbidden,
  Gone,
  NotFound,
  PayloadTooLarge,
  TooManyRequests
} from "../../platform/ApiError.ts"
import { ImageUploadLimits } from "../accounts/images/ImageUploadLimits.ts"
import { MintAddress } from "../listings/Listing.ts"
import { ReportPayload } from "../listings/moderation/Report.ts"
import {
  BATCH_LATEST,
  COMMENT_PAGE,
  COMMENT_TEXT_MAX,
  CommentId,
  CommentPage,
  CommentThread,
  CommentView,
  CreateCommentPayload,
  EditCommentPayload,
  CommentImage,
  CommentReport,
  LatestComments,
  TOKEN_ERRORS
} from "./Comment.ts"
import { MAX_MENTIONS } from "./Mentions.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

const page = (defaultOrder: "newest" | "oldest") => ({
  order: Schema.optional(Schema.Literals(["newest", "oldest"])).annotate({
    description: `\`newest\` (highest post number first) or \`oldest\`; default ${defaultOrder}`
  }),
  limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: COMMENT_PAGE.max }))).annotate({
    description: `Page size, 1–${COMMENT_PAGE.max} (default ${COMMENT_PAGE.default})`
  }),
  cursor: Schema.optional(Schema.String.check(Schema.isPattern(/^[1-9][0-9]{0,9}$/u))).annotate({
    description: "`nextCursor` of the previous page (a post number); 400 INVALID_CURSOR when out of range",
    examples: ["20"]
  })
})

const PAGING =
  "Keyset pages by post number: numbers are taken under a per-token lock held until commit, so they " +
  "become visible in order; a comment arriving while you page gets a higher number than any seen, so pages never " +
  "repeat or skip (with `newest` it shows on a fresh first page, with `oldest` at the end)."
const VIEWER =
  "With a session (optional), each comment carries the caller's `viewer` reactions (liked, disliked, " +
  "favorited); without one `viewer` is null."
const id = { id: CommentId }

/** Comments (yaps) on token threads. */
export class CommentsApi extends HttpApiGroup.make("comments")
  .add(
    HttpApiEndpoint.get("listTokenComments", "/v1/comments/tokens/:mintAddress", {
      params: { mintAddress: MintAddress },
      query: page("newest"),
      success: CommentPage,
      error: [BadRequest, NotFound, Gone]
    })
      .middleware(OptionalAuthentication)
      .annotateMerge(
        doc(
          "Comments on a token",
          `Top-level comments of the token's thread (replies via GET /v1/comments/{id}; each item has \`replyCount\`), ` +
            `deleted ones as tombstones. ${PAGING} ${VIEWER} ${TOKEN_ERRORS}.`
        )
      ),
    HttpApiEndpoint.get("getComment", "/v1/comments/:id", {
      params: id,
      query: page("oldest"),
      success: CommentThread,
      error: [BadRequest, NotFound, Gone]
    })
      .middleware(OptionalAuthentication)
      .annotateMerge(
        doc(
          "One comment with its replies",
          `The comment and a page of its direct replies (default oldest first; \`limit\`/\`cursor\` page the replies). ${PAGING} ` +
            `${VIEWER} 404 COMMENT_NOT_FOUND; ${TOKEN_ERRORS}.`
        )
      ),
    HttpApiEndpoint.get("getCommentByPostNumber", "/v1/comments/tokens/:mintAddress/post/:postNumber", {
      params: {
        mintAddress: MintAddress,
        postNumber: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 2_147_483_647 }))
      },
      success: CommentView,
      error: [BadRequest, NotFound, Gone]
    })
      .middleware(OptionalAuthentication)
      .annotateMerge(
        doc(
          "Comment by post number",
          `The comment with that per-token post number (a deleted one as a tombstone). ${VIEWER} 404 COMMENT_NOT_FOUND; ${TOKEN_ERRORS}.`
        )
      ),
    HttpApiEndpoint.post("getLatestComments", "/v1/comments/batch", {
      payload: Schema.Struct({
        mintAddresses: Schema.Array(MintAddress).check(
          Schema.isMinLength(1),
          Schema.isMaxLength(BATCH_LATEST.maxTokens)
        ),
        limit: Schema.optionalKey(
          Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: BATCH_LATEST.max }))
        ).annotate({
          description: `Comments per token, 1–${BATCH_LATEST.max} (default ${BATCH_LATEST.default})`
        })
      }).annotate({ identifier: "LatestCommentsRequest" }),
      success: LatestComments,
      error: BadRequest
    })
      .middleware(OptionalAuthentication)
      .annotateMerge(
        doc(
          "Latest comments of many tokens",
          `For list pages: the newest live comments (replies included) of up to ${BATCH_LATEST.maxTokens} tokens in one ` +
            "request and one SQL statement. Every address is answered ([] for none, unknown or hidden tokens are not " +
            `checked). ${VIEWER}`
        )
      ),
    HttpApiEndpoint.post("uploadCommentImage", "/v1/comments/image", {
      payload: Schema.Struct({ file: Multipart.SingleFileSchema }).pipe(HttpApiSchema.asMultipart()),
      success: CommentImage.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, PayloadTooLarge]
    })
      .middleware(ImageUploadLimits)
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Upload a comment image",
          "The image pipeline of avatars: multipart/form-data with one file part `file` (PNG, JPEG, GIF or WebP by " +
            "content, at most IMAGE_MAX_BYTES), re-encoded to WebP without metadata and stored by content hash. Pass the " +
            "returned `image` to POST /v1/comments. 400 NOT_AN_IMAGE, INVALID_BODY; 413 PAYLOAD_TOO_LARGE; 415 " +
            "UNSUPPORTED_MEDIA_TYPE."
        )
      ),
    HttpApiEndpoint.post("createComment", "/v1/comments", {
      payload: CreateCommentPayload,
      success: CommentView.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, NotFound, Gone, Forbidden, TooManyRequests]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Create a comment",
          `Posts to the token's thread and takes its next post number (1, 2, 3… per token, replies included, no gap or ` +
            `duplicate under concurrency). Text: 1–${COMMENT_TEXT_MAX} characters, stored as sent. Up to ${MAX_MENTIONS} ` +
            "`@username` mentions are resolved into `mentions` and notified (COMMENT_MENTION); a reply notifies the " +
            "parent's author (COMMENT_REPLY), in the same transaction. Rate limit per user: COMMENT_RATE_LIMIT creates per " +
            "COMMENT_RATE_WINDOW_SECONDS (10 per 60 s by default), else 429 RATE_LIMITED. 403 USER_BANNED for a banned " +
            "user; 404 COMMENT_NOT_FOUND (replyTo); 410 COMMENT_DELETED (replying to a deleted comment); 400 " +
            `REPLY_TO_OTHER_TOKEN, IMAGE_NOT_FOUND; ${TOKEN_ERRORS}.`
        )
      ),
    HttpApiEndpoint.put("editComment", "/v1/comments/:id", {
      params: id,
      payload: EditCommentPayload,
      success: CommentView,
      error: [BadRequest, NotFound, Gone, Forbidden, TooManyRequests]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Edit my comment",
          "Replaces the text (same rules as create) and sets `editedAt`; mentions are resolved again and newly mentioned " +
            "users notified (once per comment and user). 403 NOT_COMMENT_AUTHOR (not yours, admins included); 404 " +
            "COMMENT_NOT_FOUND; 410 COMMENT_DELETED."
        )
      ),
    HttpApiEndpoint.delete("deleteComment", "/v1/comments/:id", {
      params: id,
      success: CommentView,
      error: [BadRequest, NotFound, Forbidden]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Delete a comment",
          "Soft delete by its author or an admin: the comment stays in the thread as a tombstone (`deleted: true`, text, " +
            "image and author null) and keeps its post number and replies; the token's `commentCount` drops. Idempotent: " +
            "deleting again answers the tombstone. 403 NOT_COMMENT_AUTHOR; 404 COMMENT_NOT_FOUND."
        )
      ),
    HttpApiEndpoint.post("reportComment", "/v1/comments/:id/report", {
      params: id,
      payload: ReportPayload,
      success: CommentReport.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, NotFound, Gone, Conflict]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Report a comment",
          "For the administrators' queue. One open report per user per comment (a database constraint, also under " +
            "concurrent requests): 409 REPORT_ALREADY_OPEN. 404 COMMENT_NOT_FOUND; 410 COMMENT_DELETED."
        )
      )
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Comments",
      description: "Yaps: comments on token threads, with replies, sequential post numbers per token and mentions"
    })
  ) {}
