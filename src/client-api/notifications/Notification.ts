import { Schema } from "effect"

/**
 * The notification kinds and their payloads (the spec leaves them open; this file is their definition, and the
 * OpenAPI document shows them as a union discriminated by `kind`). The same JSON is the body of the web push
 * message. Ids of comments and notifications are integers; token and wallet addresses are lower-case 0x-hex;
 * on-chain amounts are decimal strings in wei.
 */

const Address = Schema.String.annotate({ description: "Lower-case 0x address" })
const UserRef = {
  userId: Schema.String.annotate({ description: "Id of the user who acted" }),
  username: Schema.NullOr(Schema.String).annotate({ description: "Their username, if they chose one" })
}
const CommentRef = {
  commentId: Schema.Int,
  token: Address.annotate({ description: "Token (mint address) of the thread" }),
  postNumber: Schema.Int.annotate({ description: "The comment's post number in that thread" })
}
const Excerpt = Schema.String.annotate({ description: "The first 140 characters of the comment text (plain text)" })

export const payloads = {
  COMMENT_REPLY: Schema.Struct({
    ...CommentRef,
    parentId: Schema.Int,
    author: Schema.Struct(UserRef),
    excerpt: Excerpt
  }).annotate({ description: "Someone replied to your comment (`commentId` is the reply, `parentId` yours)" }),
  COMMENT_MENTION: Schema.Struct({ ...CommentRef, author: Schema.Struct(UserRef), excerpt: Excerpt }).annotate({
    description: "Someone mentioned your @username in a comment (new or edited)"
  }),
  COMMENT_LIKE: Schema.Struct({ ...CommentRef, liker: Schema.Struct(UserRef) }).annotate({
    description: "Someone liked your comment (once per liker and comment, however often they toggle)"
  }),
  FUEL_RECEIVED: Schema.Struct({
    chainId: Schema.Int,
    token: Address,
    sender: Address.annotate({ description: "Wallet that gave the fuel" }),
    amount: Schema.String.annotate({ description: "Amount in wei (decimal string)" }),
    txHash: Schema.String,
    logIndex: Schema.Int,
    blockNumber: Schema.Int
  }).annotate({
    description:
      "Fuel (a tip) was given to a token you created (FuelVault FuelGiven), sent once the block is past the " +
      "finality depth, exactly once per log"
  }),
  LAUNCH_COMPLETED: Schema.Struct({
    launchId: Schema.String,
    token: Address,
    chainId: Schema.Int,
    name: Schema.String,
    symbol: Schema.String
  }).annotate({ description: "Your launch was submitted and verified (status COMPLETED)" }),
  TOKEN_GRADUATED: Schema.Struct({
    chainId: Schema.Int,
    token: Address,
    txHash: Schema.String,
    blockNumber: Schema.Int
  }).annotate({ description: "A token you created graduated (FireGraduator Graduated), once past the finality depth" }),
  CLAIM_SUCCEEDED: Schema.Struct({
    token: Address,
    chainId: Schema.Int,
    name: Schema.String,
    symbol: Schema.String
  }).annotate({ description: "Your claim of a token listing succeeded (you are its creator now)" })
} as const

export type NotificationKind = keyof typeof payloads
export const NotificationKinds = Object.keys(payloads) as ReadonlyArray<NotificationKind>
export type PayloadOf<K extends NotificationKind> = (typeof payloads)[K]["Type"]

const common = {
  id: Schema.Int,
  createdAt: Schema.String.annotate({ description: "ISO 8601" }),
  readAt: Schema.NullOr(Schema.String).annotate({ description: "ISO 8601 time it was marked read; null while unread" })
}
const variant = <K extends NotificationKind>(kind: K) =>
  Schema.Struct({ ...common, kind: Schema.Literal(kind), payload: payloads[kind] })

export const NotificationView = Schema.Union([
  variant("COMMENT_REPLY"),
  variant("COMMENT_MENTION"),
  variant("COMMENT_LIKE"),
  variant("FUEL_RECEIVED"),
  variant("LAUNCH_COMPLETED"),
  variant("TOKEN_GRADUATED"),
  variant("CLAIM_SUCCEEDED")
]).annotate({ identifier: "Notification", description: "A notification; `payload` depends on `kind`" })
export type NotificationView = typeof NotificationView.Type

/** Web push urgency per kind (RFC 8030 §5.3): likes can wait for a good moment, the rest is normal. */
export const urgencyOf = (kind: NotificationKind): "low" | "normal" => (kind === "COMMENT_LIKE" ? "low" : "normal")
