import { Schema } from "effect"
import { CursorPage, OffsetPage, RawAmount, Usd } from "../Ids.ts"

export const TokenRef = Schema.Struct({
  tokenId: Schema.String,
  address: Schema.String,
  name: Schema.NullOr(Schema.String),
  symbol: Schema.NullOr(Schema.String),
  decimals: Schema.NullOr(Schema.Int),
  priceUsd: Usd
}).annotate({ identifier: "TokenRef" })

export const LaunchpadFlags = Schema.Struct({
  launchedHere: Schema.Boolean.annotate({
    description: "The pool was opened by FireLaunch.ignite (a canonical launch)"
  }),
  token: Schema.NullOr(Schema.String).annotate({ description: "The launched token of the pool, if any" }),
  graduationConditionRecorded: Schema.Boolean,
  graduated: Schema.Boolean
}).annotate({ identifier: "LaunchpadFlags" })

const summaryFields = {
  poolId: Schema.String.annotate({ description: "`<address>-<chainId>`" }),
  address: Schema.String,
  chainId: Schema.Int,
  token0: TokenRef,
  token1: TokenRef,
  feeTier: Schema.Int.annotate({ description: "Fee in hundredths of a basis point (3000 = 0.3 %)" }),
  tickSpacing: Schema.Int,
  price: Schema.NullOr(Schema.Number).annotate({
    description: "token1 per token0 in human units; null before initialization"
  }),
  liquidity: RawAmount.annotate({ description: "In-range liquidity (L)" }),
  reserve0: RawAmount.annotate({
    description: "token0 held by the pool (deposits and swaps in, minus withdrawals, swaps out)"
  }),
  reserve1: RawAmount,
  tvlUsd: Usd,
  volume24hUsd: Schema.Number.annotate({
    description: "USD volume over the last 24 hourly buckets up to the last indexed block"
  }),
  fees24hUsd: Schema.Number.annotate({ description: "volume24hUsd × fee tier" }),
  swaps24h: Schema.Int,
  createdAt: Schema.String.annotate({ description: "ISO time of the pool's creation block" }),
  createdBlock: Schema.String,
  launchpad: LaunchpadFlags
}

export const PoolSummary = Schema.Struct(summaryFields).annotate({ identifier: "PoolSummary" })
export type PoolSummary = typeof PoolSummary.Type

export const PoolDetail = Schema.Struct({
  ...summaryFields,
  slot0: Schema.NullOr(Schema.Struct({ sqrtPriceX96: RawAmount, tick: Schema.Int })).annotate({
    description:
      "sqrtPriceX96 and tick as UniswapV3Pool.slot0() reports them at the last indexed block; null before initialize"
  }),
  totals: Schema.Struct({
    volume0: RawAmount,
    volume1: RawAmount,
    fees0: RawAmount,
    fees1: RawAmount,
    volumeUsd: Schema.Number,
    swapCount: Schema.String,
    mintCount: Schema.String,
    burnCount: Schema.String
  }).annotate({ description: "All-time counters since the pool was indexed" }),
  createdTx: Schema.String,
  lastBlock: Schema.NullOr(Schema.String).annotate({ description: "Last block that changed the pool's state" })
}).annotate({ identifier: "PoolDetail" })
export type PoolDetail = typeof PoolDetail.Type

export const PoolList = Schema.Struct({ items: Schema.Array(PoolSummary), page: OffsetPage }).annotate({
  identifier: "PoolList"
})

export const AdmittedPool = Schema.Struct({
  pool: PoolSummary,
  admitted: Schema.Boolean,
  reasons: Schema.Array(Schema.String).annotate({ description: "Why a pool is not admitted (empty when it is)" })
}).annotate({ identifier: "AdmittedPool" })

export const AdmittedPools = Schema.Struct({
  tokenA: Schema.String,
  tokenB: Schema.String,
  minTvlUsd: Schema.Number,
  pools: Schema.Array(AdmittedPool)
}).annotate({ identifier: "AdmittedPools" })

export const PoolsMetrics = Schema.Struct({
  chainId: Schema.Int,
  asOf: Schema.String.annotate({ description: "Time of the last indexed block: the end of the 24 h window" }),
  pools: Schema.Int,
  initializedPools: Schema.Int,
  tvlUsd: Schema.Number,
  volume24hUsd: Schema.Number,
  fees24hUsd: Schema.Number,
  swaps24h: Schema.Int,
  volumeUsdAllTime: Schema.Number,
  swapsAllTime: Schema.String,
  byFeeTier: Schema.Array(Schema.Struct({ feeTier: Schema.Int, pools: Schema.Int, tvlUsd: Schema.Number }))
}).annotate({ identifier: "PoolsMetrics" })

export const Candle = Schema.Struct({
  time: Schema.String.annotate({ description: "ISO start of the bucket" }),
  open: Schema.NullOr(Schema.Number),
  high: Schema.NullOr(Schema.Number),
  low: Schema.NullOr(Schema.Number),
  close: Schema.NullOr(Schema.Number),
  volumeUsd: Schema.NullOr(Schema.Number),
  tvlUsd: Schema.NullOr(Schema.Number),
  swapCount: Schema.Int
}).annotate({ identifier: "Candle" })

export const PoolTimeseries = Schema.Struct({
  poolId: Schema.String,
  interval: Schema.Literals(["hour", "day"]),
  from: Schema.String,
  to: Schema.String,
  points: Schema.Array(Schema.Struct({ ...Candle.fields, volume0: RawAmount, volume1: RawAmount }))
}).annotate({ identifier: "PoolTimeseries", description: "Only buckets with swaps exist; price = token1 per token0" })

export const PoolEvent = Schema.Struct({
  type: Schema.Literals(["swap", "mint", "burn"]),
  blockNumber: Schema.String,
  logIndex: Schema.Int,
  txHash: Schema.String,
  timestamp: Schema.String,
  sender: Schema.NullOr(Schema.String),
  recipient: Schema.NullOr(Schema.String),
  owner: Schema.NullOr(Schema.String),
  amount0: RawAmount.annotate({ description: "Signed for swaps (pool's view: positive = into the pool)" }),
  amount1: RawAmount,
  amountUsd: Schema.NullOr(Schema.Number),
  liquidity: Schema.NullOr(RawAmount).annotate({
    description: "Swaps: in-range liquidity after; mints/burns: liquidity added/removed"
  }),
  tickLower: Schema.NullOr(Schema.Int),
  tickUpper: Schema.NullOr(Schema.Int),
  sqrtPriceX96: Schema.NullOr(RawAmount),
  tick: Schema.NullOr(Schema.Int),
  price: Schema.NullOr(Schema.Number)
}).annotate({ identifier: "PoolEvent" })

export const PoolEvents = Schema.Struct({ items: Schema.Array(PoolEvent), page: CursorPage }).annotate({
  identifier: "PoolEvents"
})

export const PoolTicks = Schema.Struct({
  poolId: Schema.String,
  tickSpacing: Schema.Int,
  currentTick: Schema.NullOr(Schema.Int),
  liquidity: RawAmount.annotate({
    description: "In-range liquidity now (equals liquidityActive of the range holding currentTick)"
  }),
  ticks: Schema.Array(
    Schema.Struct({
      tick: Schema.Int,
      liquidityNet: RawAmount.annotate({
        description: "Signed change of active liquidity when the price crosses this tick upwards"
      }),
      liquidityGross: RawAmount,
      liquidityActive: RawAmount.annotate({ description: "Liquidity active in [tick, next initialized tick)" }),
      price0: Schema.NullOr(Schema.Number).annotate({
        description:
          "1.0001^tick adjusted for decimals: token1 per token0 at this tick; null when a token's decimals are unknown"
      })
    })
  )
}).annotate({ identifier: "PoolTicks" })

export const Position = Schema.Struct({
  positionId: Schema.NullOr(Schema.String).annotate({
    description: "NonfungiblePositionManager token id; null for a position held directly on the pool"
  }),
  poolId: Schema.String,
  owner: Schema.String,
  token0: Schema.String,
  token1: Schema.String,
  feeTier: Schema.Int,
  tickLower: Schema.Int,
  tickUpper: Schema.Int,
  liquidity: RawAmount,
  inRange: Schema.Boolean,
  amount0: RawAmount.annotate({ description: "token0 the liquidity is worth at the current price (v3 math)" }),
  amount1: RawAmount,
  uncollectedFees0: Schema.NullOr(RawAmount).annotate({
    description:
      "Fees (and owed tokens) collect() would pay now, by eth_call from the owner; null when not read (direct positions)"
  }),
  uncollectedFees1: Schema.NullOr(RawAmount),
  deposited0: Schema.NullOr(RawAmount),
  deposited1: Schema.NullOr(RawAmount),
  withdrawn0: Schema.NullOr(RawAmount),
  withdrawn1: Schema.NullOr(RawAmount),
  collected0: Schema.NullOr(RawAmount),
  collected1: Schema.NullOr(RawAmount)
}).annotate({ identifier: "Position" })

export const PoolPositions = Schema.Struct({ items: Schema.Array(Position), page: OffsetPage }).annotate({
  identifier: "PoolPositions"
})
