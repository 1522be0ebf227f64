import { Schema } from "effect"

export const FEED_TYPES = ["ALL", "LAUNCHES", "YAPS", "FUELS"] as const
export type FeedType = (typeof FEED_TYPES)[number]

export class FeedToken extends Schema.Class<FeedToken>("FeedToken")({
  address: Schema.String.annotate({ description: "Checksummed token address (mintAddress)" }),
  symbol: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  image: Schema.NullOr(Schema.String).annotate({
    description: "Token image from its claim or launch (`/v1/images/…`), null if none"
  })
}) {}

export class FeedActor extends Schema.Class<FeedActor>("FeedActor")({
  walletAddress: Schema.NullOr(Schema.String).annotate({
    description: "Checksummed; null for a user without a wallet"
  }),
  userId: Schema.NullOr(Schema.String).annotate({
    description: "The wallet's user; null if it never signed in or is hidden"
  }),
  username: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  image: Schema.NullOr(Schema.String)
}) {}

export class FeedItem extends Schema.Class<FeedItem>("FeedItem")({
  id: Schema.String.annotate({
    description: "Stable item id: `launch:<block>:<log>`, `fuel:<block>:<log>`, `yap:<id>`, `shill:<code>`"
  }),
  type: Schema.Literals(["LAUNCH", "YAP", "FUEL", "SHILL"]),
  at: Schema.String.annotate({
    description: "ISO 8601: block time for chain events, creation time for yaps and shills"
  }),
  token: FeedToken,
  actor: FeedActor.annotate({ description: "The creator (LAUNCH), giver (FUEL), author (YAP) or sharer (SHILL)" }),
  amount: Schema.NullOr(Schema.String).annotate({ description: "FUEL: wei given (decimal string)" }),
  txHash: Schema.NullOr(Schema.String),
  text: Schema.NullOr(Schema.String).annotate({ description: "YAP: the comment's text" }),
  relevance: Schema.NullOr(Schema.Literals(["CREATED", "HOLDING", "FAVORITE"])).annotate({
    description: "Why the item is about one of the viewer's tokens (authenticated /v1/feed only); null otherwise"
  })
}) {}

export class FeedPage extends Schema.Class<FeedPage>("FeedPage")({
  items: Schema.Array(FeedItem),
  nextCursor: Schema.NullOr(Schema.String).annotate({
    description: "Pass as `cursor` for the next page; null at the end"
  })
}) {}

export const FEED_RULES =
  "Newest first (block time for chain events, creation time for yaps and shills); tokens hidden by an admin are left out. Personalised when signed in: items " +
  "about tokens the viewer created (CREATED), holds (HOLDING; indexed balance > 0) or favorited (FAVORITE) come first, " +
  "newest first, then everything else, newest first; `relevance` says why. Cursor pages are keyset positions in that " +
  "order over the snapshot the first page saw (indexed block and time, carried in the cursor): items that arrive " +
  "while paging appear on a new first page, never on later pages, so pages do not repeat or skip (the viewer's token " +
  "set is read on each request)."
