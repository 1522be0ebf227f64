import { Schema } from "effect"
import { RawAmount, Usd } from "../Ids.ts"
import { Candle, Position } from "../pools/PoolModels.ts"

export const FireMeta = Schema.Struct({
  tokenId: Schema.String,
  address: Schema.String,
  isLaunch: Schema.Boolean.annotate({ description: "Launched on this launchpad (canonical configuration)" }),
  creator: Schema.NullOr(Schema.String),
  launchTx: Schema.NullOr(Schema.String),
  launchedAt: Schema.NullOr(Schema.String),
  launchBlock: Schema.NullOr(Schema.String),
  pool: Schema.NullOr(Schema.String).annotate({ description: "poolId of the launch pool" }),
  claimed: Schema.NullOr(Schema.Boolean).annotate({
    description:
      "Whether the token has its off-chain metadata (claimed by its creator, or submitted at launch: client API); null when this deployment has no listings data"
  }),
  hidden: Schema.NullOr(Schema.Boolean).annotate({
    description: "Hidden from the listings by an admin; null when this deployment has no listings data"
  }),
  graduation: Schema.Struct({
    state: Schema.Literals(["launched", "condition_recorded", "graduated", "none"]),
    conditionRecordedAt: Schema.NullOr(Schema.String),
    graduatedAt: Schema.NullOr(Schema.String)
  }),
  fuel: Schema.Struct({
    count: Schema.Int.annotate({ description: "FuelGiven events" }),
    given: RawAmount.annotate({ description: "Wei given in total" }),
    withdrawn: RawAmount.annotate({ description: "Wei the creator withdrew" }),
    balance: RawAmount.annotate({ description: "given − withdrawn: what the vault holds for the token" })
  })
}).annotate({ identifier: "FireMeta" })

export const TokenOverview = Schema.Struct({
  tokenId: Schema.String,
  address: Schema.String,
  chainId: Schema.Int,
  name: Schema.String,
  symbol: Schema.String,
  decimals: Schema.NullOr(Schema.Int).annotate({ description: "null when the token has no readable decimals()" }),
  totalSupply: RawAmount,
  priceUsd: Usd,
  priceEth: Schema.NullOr(Schema.Number).annotate({
    description: "WETH per token from its deepest WETH pool (1 for WETH)"
  }),
  tvlUsd: Usd.annotate({ description: "USD value of this token held by its indexed pools" }),
  volume24hUsd: Schema.Number,
  swaps24h: Schema.Int,
  marketCapUsd: Usd.annotate({
    description:
      "Circulating supply × price. Circulating = total supply − what the indexed pools and burn addresses (0x0, 0x…dEaD) hold"
  }),
  fdvUsd: Usd.annotate({ description: "Fully diluted value: total supply × price" }),
  circulatingSupply: RawAmount,
  holderCount: Schema.Int,
  transferCount: Schema.String,
  poolCount: Schema.Int,
  launchpad: Schema.NullOr(FireMeta).annotate({
    description: "Launchpad metadata; null for tokens not launched here (base tokens)"
  })
}).annotate({ identifier: "TokenOverview" })

export const TrendingToken = Schema.Struct({
  rank: Schema.Int,
  score: Schema.Number,
  token: TokenOverview
}).annotate({ identifier: "TrendingToken" })

export const TokenHistory = Schema.Struct({
  tokenId: Schema.String,
  timeframe: Schema.Literals(["days", "hours", "minutes"]),
  from: Schema.String,
  to: Schema.String,
  points: Schema.Array(Schema.Struct({ ...Candle.fields, volume: RawAmount }))
}).annotate({
  identifier: "TokenHistory",
  description: "USD price OHLC, volume and TVL per bucket; buckets exist only where swaps happened"
})

export const TokenPrice = Schema.Struct({
  tokenId: Schema.String,
  address: Schema.String,
  symbol: Schema.String,
  decimals: Schema.NullOr(Schema.Int).annotate({ description: "null when the token has no readable decimals()" }),
  priceUsd: Usd,
  priceEth: Schema.NullOr(Schema.Number)
}).annotate({ identifier: "TokenPrice" })

export const GlobalStats = Schema.Struct({
  chainId: Schema.Int,
  asOf: Schema.String,
  tvlUsd: Schema.Number,
  volume24hUsd: Schema.Number,
  fees24hUsd: Schema.Number,
  swaps24h: Schema.Int,
  pools: Schema.Int,
  tokens: Schema.Int,
  launches: Schema.Int,
  graduated: Schema.Int,
  series: Schema.Array(
    Schema.Struct({
      date: Schema.String,
      volumeUsd: Schema.Number,
      feesUsd: Schema.Number,
      swapCount: Schema.Int
    })
  ).annotate({ description: "Daily volume, fees and swaps over the last 90 days (days with swaps)" })
}).annotate({ identifier: "GlobalStats" })

export const IndexerStatusReport = Schema.Struct({
  chainId: Schema.Int,
  height: Schema.NullOr(Schema.String).annotate({
    description: "Chain head (eth_blockNumber, read at most once a second)"
  }),
  lastIndexedBlock: Schema.NullOr(Schema.String),
  lastIndexedAt: Schema.NullOr(Schema.String).annotate({ description: "Timestamp of the last indexed block" }),
  lagBlocks: Schema.NullOr(Schema.String),
  lagSeconds: Schema.NullOr(Schema.Number),
  ready: Schema.Boolean.annotate({ description: `true when lagBlocks ≤ EXCHANGE_READY_MAX_LAG_BLOCKS` }),
  indexer: Schema.NullOr(
    Schema.Struct({
      phase: Schema.String,
      eventsPerSecond: Schema.Number,
      reorgs: Schema.Int,
      lastError: Schema.NullOr(Schema.String),
      reportedAt: Schema.String
    })
  ).annotate({
    description: "The indexer process's own status (IndexerStatus), as of its last commit; null before one was seen"
  })
}).annotate({ identifier: "IndexerStatusReport" })

export const SwapStatus = Schema.Struct({
  chainId: Schema.Int,
  txHash: Schema.String,
  status: Schema.Literals(["pending", "success", "failed"]),
  blockNumber: Schema.NullOr(Schema.String),
  gasUsed: Schema.NullOr(Schema.String),
  swaps: Schema.Int.annotate({ description: "Uniswap v3 Swap events in the receipt" }),
  firstSeenAt: Schema.NullOr(Schema.String).annotate({
    description: "When this hash was first asked about while unknown"
  })
}).annotate({ identifier: "SwapStatus" })

export const Readiness = Schema.Struct({
  status: Schema.Literals(["ready"]),
  database: Schema.Struct({ status: Schema.Literals(["up"]), latencyMs: Schema.Number }),
  indexer: IndexerStatusReport
}).annotate({ identifier: "Readiness" })

export const WalletPositions = Schema.Struct({
  owner: Schema.String,
  chainId: Schema.Int,
  items: Schema.Array(Position)
}).annotate({ identifier: "WalletPositions" })
