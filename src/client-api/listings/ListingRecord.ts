import { Schema } from "effect"

/** The metadata record (TokenMetadata) as the API returns it: claim, claim image and launch submit answers. */
export class ListingRecord extends Schema.Class<ListingRecord>("ListingRecord")({
  chainId: Schema.Int,
  mintAddress: Schema.String.annotate({ description: "Token address, EIP-55 checksummed" }),
  creatorId: Schema.String.annotate({ description: "The user the listing is linked to (the claimant or launcher)" }),
  creatorWallet: Schema.String.annotate({ description: "The on-chain creator (FireLaunch.creatorOf), checksummed" }),
  name: Schema.String.annotate({ description: "Read from the token contract when the record was created" }),
  symbol: Schema.String.annotate({ description: "Read from the token contract when the record was created" }),
  description: Schema.NullOr(Schema.String).annotate({ description: "From the launch draft; null for a claim" }),
  category: Schema.NullOr(Schema.String).annotate({ description: "From the launch draft; null for a claim" }),
  image: Schema.NullOr(Schema.String).annotate({ description: "`/v1/images/<sha256>.webp`; null until uploaded" }),
  source: Schema.Literals(["claim", "launch"]).annotate({ description: "What created the record" }),
  launchId: Schema.NullOr(Schema.String).annotate({ description: "The launch that created it (source `launch`)" }),
  claimedAt: Schema.String.annotate({ description: "ISO 8601 time the record was created" })
}) {}
