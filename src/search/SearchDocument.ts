import { Schema } from "effect"

const Address = Schema.String.annotate({ description: "Lower-case 0x address" })
const Usd = (description: string) => Schema.Number.annotate({ description: `${description}, USD (0 when unknown)` })

/**
 * A token as search sees it: indexed launch/token data plus figures derived from its pools. Documents are built
 * from Postgres by `SearchDocumentsRepo` and are the same for the embedded index and Typesense.
 */
export class TokenDocument extends Schema.Class<TokenDocument>("TokenDocument")({
  id: Schema.String.annotate({ description: "tokenId: `<address>-<chainId>`" }),
  address: Address,
  chainId: Schema.Int,
  name: Schema.String,
  symbol: Schema.String,
  decimals: Schema.NullOr(Schema.Int).annotate({ description: "null when the token has no readable decimals()" }),
  creator: Schema.NullOr(Address).annotate({
    description: "Creator of the launch (null for base tokens such as WETH)"
  }),
  launchedAt: Schema.NullOr(Schema.Number).annotate({
    description: "Launch block time, epoch seconds (null for base tokens)"
  }),
  pool: Schema.NullOr(Address).annotate({ description: "The launch pool (null for base tokens)" }),
  isLaunch: Schema.Boolean.annotate({ description: "A launchpad token (canonical launch), not a base token" }),
  priceUsd: Schema.NullOr(Schema.Number).annotate({
    description: "Price of the last swap in USD (null without a USD path)"
  }),
  marketCapUsd: Usd("Price × total supply"),
  volume24hUsd: Usd("Swap volume over the 24 h before the last indexed block, all pools of the token"),
  liquidityUsd: Usd("Sum of the TVL of the token's indexed pools"),
  holders: Schema.Int,
  graduated: Schema.Boolean,
  claimed: Schema.Boolean.annotate({ description: "Claimed by its creator (false until token claims are indexed)" }),
  image: Schema.NullOr(Schema.String).annotate({ description: "Token image URL (null until token claims are indexed)" })
}) {}

export const PoolToken = Schema.Struct({
  address: Address,
  symbol: Schema.String,
  name: Schema.String
}).annotate({ identifier: "PoolToken" })

export class PoolDocument extends Schema.Class<PoolDocument>("PoolDocument")({
  id: Schema.String.annotate({ description: "poolId: `<address>-<chainId>`" }),
  address: Address,
  chainId: Schema.Int,
  token0: PoolToken,
  token1: PoolToken,
  fee: Schema.Int.annotate({ description: "Fee tier in hundredths of a bip (3000 = 0.3 %)" }),
  tvlUsd: Usd("Total value locked"),
  volume24hUsd: Usd("Swap volume over the 24 h before the last indexed block"),
  swapCount: Schema.Int,
  createdAt: Schema.Number.annotate({ description: "Pool creation block time, epoch seconds" }),
  isLaunchPool: Schema.Boolean.annotate({ description: "The pool a launchpad token was launched into" }),
  launchToken: Schema.NullOr(Address).annotate({ description: "The launchpad token of the pool, if any" }),
  graduated: Schema.Boolean.annotate({ description: "The pool's launchpad token has graduated" })
}) {}

export const tokenId = (address: string, chainId: number) => `${address}-${chainId}`
