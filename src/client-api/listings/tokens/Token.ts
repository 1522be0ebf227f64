import { Schema } from "effect"
import { PublicProfile } from "../../accounts/users/User.ts"

/** Response schemas of the token routes (token detail, buyers, buyer chart, fuels, position, batch images). */

const nullableNumber = (description: string) => Schema.NullOr(Schema.Number).annotate({ description })
const uint = (description: string) =>
  Schema.String.annotate({ description: `${description} (integer as a decimal string, base units)` })

export class TokenMetadataView extends Schema.Class<TokenMetadataView>("TokenMetadata")({
  description: Schema.NullOr(Schema.String),
  category: Schema.NullOr(Schema.String),
  image: Schema.NullOr(Schema.String).annotate({ description: "`/v1/images/<sha256>.webp`" }),
  source: Schema.Literals(["claim", "launch"]),
  claimedAt: Schema.String
}) {}

export class TokenMarket extends Schema.Class<TokenMarket>("TokenMarket")({
  pool: Schema.String.annotate({ description: "The launch pool (token/WETH, Uniswap v3)" }),
  fee: Schema.Int.annotate({ description: "Pool fee in hundredths of a bip" }),
  priceEth: nullableNumber("WETH per token; null before the pool has a price"),
  priceUsd: nullableNumber("USD per token; null without a path to the stablecoin"),
  marketCapUsd: nullableNumber("priceUsd × total supply"),
  liquidityUsd: nullableNumber("Pool TVL in USD"),
  volume24hUsd: Schema.Number.annotate({ description: "USD volume of the last 24 hourly candles" }),
  swapCount: Schema.Int
}) {}

export class TokenGraduation extends Schema.Class<TokenGraduation>("TokenGraduation")({
  state: Schema.Literals(["active", "condition_recorded", "graduated"]).annotate({
    description: "active → condition_recorded (FireLaunch.recordGraduationCondition, grace period runs) → graduated"
  }),
  conditionRecordedAt: Schema.NullOr(Schema.String),
  graduatedAt: Schema.NullOr(Schema.String)
}) {}

export class TokenDetail extends Schema.Class<TokenDetail>("TokenDetail")({
  chainId: Schema.Int,
  mintAddress: Schema.String.annotate({ description: "EIP-55 checksummed" }),
  name: Schema.String,
  symbol: Schema.String,
  decimals: Schema.Int,
  totalSupply: uint("Total supply"),
  creatorAddress: Schema.String.annotate({ description: "On-chain creator (the wallet that ignited)" }),
  creatorId: Schema.NullOr(Schema.String).annotate({ description: "The linked user; null until claimed" }),
  creator: Schema.NullOr(PublicProfile).annotate({
    description: "The linked user's public profile (null if unclaimed or hidden)"
  }),
  claimed: Schema.Boolean,
  holders: Schema.Int.annotate({ description: "Addresses with a non-zero balance (the pool included)" }),
  metadata: Schema.NullOr(TokenMetadataView).annotate({ description: "Off-chain metadata; null until claimed" }),
  market: TokenMarket,
  graduation: TokenGraduation,
  fuel: Schema.Struct({ count: Schema.Int, given: uint("Wei given"), withdrawn: uint("Wei withdrawn") }),
  launchedAt: Schema.String,
  launchTxHash: Schema.String,
  launchBlock: Schema.String
}) {}

export const HolderUser = Schema.Struct({
  id: Schema.String,
  username: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  image: Schema.NullOr(Schema.String)
})

export class Buyer extends Schema.Class<Buyer>("Buyer")({
  rank: Schema.Int.annotate({ description: "1 = largest holder" }),
  address: Schema.String.annotate({ description: "Holder, checksummed" }),
  balance: uint("Balance"),
  share: Schema.Number.annotate({ description: "balance / total supply (0–1)" }),
  user: Schema.NullOr(HolderUser).annotate({ description: "The user of that wallet, if any (and not hidden)" })
}) {}

export class BuyerPage extends Schema.Class<BuyerPage>("BuyerPage")({
  items: Schema.Array(Buyer),
  nextCursor: Schema.NullOr(Schema.String).annotate({
    description: "Pass as `cursor` for the next page; null at the end"
  })
}) {}

export class BuyerBucket extends Schema.Class<BuyerBucket>("BuyerBucket")({
  bucketStart: Schema.String.annotate({ description: "ISO 8601 start of the bucket (UTC, aligned)" }),
  buys: Schema.Int.annotate({ description: "Buy swaps in the bucket" }),
  buyers: Schema.Int.annotate({ description: "Distinct buying wallets in the bucket" }),
  newBuyers: Schema.Int.annotate({ description: "Wallets whose first buy is in the bucket" }),
  cumulativeBuyers: Schema.Int.annotate({ description: "Distinct buyers up to the end of the bucket" }),
  amount: uint("Tokens bought")
}) {}

export class BuyerChart extends Schema.Class<BuyerChart>("BuyerChart")({
  bucket: Schema.Literals(["1h", "1d"]),
  items: Schema.Array(BuyerBucket).annotate({ description: "Oldest first; only buckets with buys" })
}) {}

export class FuelEntry extends Schema.Class<FuelEntry>("FuelEntry")({
  kind: Schema.Literals(["given", "withdrawn"]),
  from: Schema.NullOr(Schema.String).annotate({ description: "The giver (kind `given`), checksummed" }),
  creator: Schema.String,
  amount: uint("Wei"),
  txHash: Schema.String,
  blockNumber: Schema.String,
  timestamp: Schema.String
}) {}

export class FuelPage extends Schema.Class<FuelPage>("FuelPage")({
  items: Schema.Array(FuelEntry).annotate({ description: "Newest first" }),
  nextCursor: Schema.NullOr(Schema.String)
}) {}

export class TokenPosition extends Schema.Class<TokenPosition>("TokenPosition")({
  mintAddress: Schema.String,
  wallet: Schema.String,
  decimals: Schema.Int,
  balance: uint("Current balance (indexed)"),
  bought: uint("Tokens bought through the launch pool"),
  sold: uint("Tokens sold through the launch pool"),
  buys: Schema.Int,
  sells: Schema.Int,
  costBasisWei: uint("WETH cost of the tokens still held from buys (average-cost method)"),
  realizedPnlWei: Schema.String.annotate({
    description: "WETH received from sells minus their average cost (signed decimal string)"
  }),
  currentValueWei: Schema.NullOr(Schema.String).annotate({
    description: "balance × pool price, in wei; null without a price"
  }),
  unrealizedPnlWei: Schema.NullOr(Schema.String).annotate({ description: "currentValueWei − costBasisWei (signed)" }),
  costBasisUsd: Schema.Number,
  currentValueUsd: nullableNumber("balance × USD price"),
  unrealizedPnlUsd: nullableNumber("currentValueUsd − costBasisUsd")
}) {}

export const MAX_BATCH_IMAGES = 100

export class BatchImages extends Schema.Class<BatchImages>("BatchImages")({
  images: Schema.Record(Schema.String, Schema.NullOr(Schema.String)).annotate({
    description:
      "Checksummed address → image URL path (`/v1/images/<sha256>.webp`), null when the token has no " +
      "image, is unknown or was removed"
  })
}) {}
