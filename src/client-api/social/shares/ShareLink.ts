import { Schema } from "effect"

/** The share-link schemas of the share routes (SharesApi.ts) and of Shares.ts. */

export const ShareCode = Schema.String.check(Schema.isPattern(/^[0-9A-Za-z]{8}$/u)).annotate({
  description: "8-character base62 share code"
})

export class ShareLink extends Schema.Class<ShareLink>("ShareLink")({
  code: ShareCode,
  path: Schema.String.annotate({ description: "The short link, relative to the client API: `/v1/shares/{code}`" }),
  mintAddress: Schema.String.annotate({ description: "The shared token (checksummed)" }),
  target: Schema.String.annotate({ description: "Where the link redirects (SHARE_REDIRECT_TEMPLATE)" }),
  visits: Schema.Int.annotate({ description: "Redirects served so far" }),
  createdAt: Schema.String
}) {}
