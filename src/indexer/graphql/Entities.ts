/**
 * The indexed data as GraphQL list fields: one entry per entity, naming its SQL source, its fields (GraphQL kind +
 * SQL column), its key (for stable keyset cursors) and its default order. The schema, the filters, the ordering and
 * the cursors are all generated from this table, so a new indexed table is one entry here.
 */
export type FieldKind = "String" | "Address" | "Int" | "Float" | "Boolean" | "BigInt" | "Timestamp"

export interface FieldDef {
  readonly kind: FieldKind
  /** SQL column (default: the field name in snake_case). */
  readonly column?: string
  readonly description?: string
}

/** A to-one link to another entity: `field` resolves the entity whose key column equals this row's `from` field. */
export interface RelationDef {
  readonly entity: string
  readonly from: string
}

export interface EntityDef {
  /** The GraphQL object type name. */
  readonly type: string
  /** The Query field (plural). */
  readonly list: string
  readonly description: string
  /** FROM clause; must expose every field's column (alias `t`). */
  readonly source: string
  readonly fields: Readonly<Record<string, FieldDef>>
  /** Columns that identify a row (after chain_id), used as the cursor tie-breaker. */
  readonly key: ReadonlyArray<string>
  readonly defaultOrder: string
  readonly relations?: Readonly<Record<string, RelationDef>>
}

const event = {
  blockNumber: { kind: "BigInt" },
  logIndex: { kind: "Int" },
  txHash: { kind: "String" },
  timestamp: { kind: "Timestamp", column: "block_timestamp" }
} as const satisfies Record<string, FieldDef>
const eventKey = ["block_number", "log_index"]

export const entities: ReadonlyArray<EntityDef> = [
  {
    type: "Launch",
    list: "launches",
    description: "Canonical launches (FireLaunch.Ignited with the registry's configuration)",
    source: "launches t",
    key: eventKey,
    defaultOrder: "blockNumber",
    fields: {
      ...event,
      token: { kind: "Address" },
      creator: { kind: "Address" },
      pool: { kind: "Address" },
      fee: { kind: "Int" },
      tickLower: { kind: "Int" },
      tickUpper: { kind: "Int" },
      sqrtPriceX96: { kind: "BigInt" },
      tokenIsToken0: { kind: "Boolean" },
      positionId: { kind: "BigInt" }
    },
    relations: { tokenInfo: { entity: "Token", from: "token" }, poolInfo: { entity: "Pool", from: "pool" } }
  },
  {
    type: "Token",
    list: "tokens",
    description: "Launched tokens and base tokens with their counters",
    source: "tokens t",
    key: ["address"],
    defaultOrder: "firstBlock",
    fields: {
      address: { kind: "Address" },
      name: { kind: "String" },
      symbol: { kind: "String" },
      decimals: { kind: "Int" },
      totalSupply: { kind: "BigInt" },
      isLaunch: { kind: "Boolean" },
      firstBlock: { kind: "BigInt" },
      holderCount: { kind: "Int" },
      transferCount: { kind: "BigInt" },
      priceUsd: { kind: "Float" },
      fuelCount: { kind: "Int" },
      fuelGiven: { kind: "BigInt" },
      fuelWithdrawn: { kind: "BigInt" },
      graduationConditionAt: { kind: "Timestamp" },
      graduatedAt: { kind: "Timestamp" }
    }
  },
  {
    type: "Pool",
    list: "pools",
    description: "Indexed Uniswap v3 pools with their current state",
    source: `(SELECT p.*, s.sqrt_price_x96, s.tick, s.liquidity, s.reserve0, s.reserve1, s.volume0, s.volume1, s.fees0,
              s.fees1, s.volume_usd::float8 AS volume_usd, s.swap_count, s.mint_count, s.burn_count, s.price, s.tvl_usd
             FROM pools p LEFT JOIN pool_states s ON s.chain_id = p.chain_id AND s.pool = p.address) t`,
    key: ["address"],
    defaultOrder: "blockNumber",
    fields: {
      address: { kind: "Address" },
      token0: { kind: "Address" },
      token1: { kind: "Address" },
      fee: { kind: "Int" },
      tickSpacing: { kind: "Int" },
      blockNumber: { kind: "BigInt" },
      createdAt: { kind: "Timestamp", column: "block_timestamp" },
      sqrtPriceX96: { kind: "BigInt" },
      tick: { kind: "Int" },
      liquidity: { kind: "BigInt" },
      reserve0: { kind: "BigInt" },
      reserve1: { kind: "BigInt" },
      volume0: { kind: "BigInt" },
      volume1: { kind: "BigInt" },
      fees0: { kind: "BigInt" },
      fees1: { kind: "BigInt" },
      volumeUsd: { kind: "Float" },
      swapCount: { kind: "BigInt" },
      mintCount: { kind: "BigInt" },
      burnCount: { kind: "BigInt" },
      price: { kind: "Float", description: "token1 per token0" },
      tvlUsd: { kind: "Float" }
    },
    relations: { token0Info: { entity: "Token", from: "token0" }, token1Info: { entity: "Token", from: "token1" } }
  },
  {
    type: "Swap",
    list: "swaps",
    description: "Uniswap v3 swaps in indexed pools",
    source: "swaps t",
    key: eventKey,
    defaultOrder: "blockNumber",
    fields: {
      ...event,
      pool: { kind: "Address" },
      sender: { kind: "Address" },
      recipient: { kind: "Address" },
      amount0: { kind: "BigInt" },
      amount1: { kind: "BigInt" },
      sqrtPriceX96: { kind: "BigInt" },
      liquidity: { kind: "BigInt" },
      tick: { kind: "Int" },
      price: { kind: "Float" },
      token0PriceUsd: { kind: "Float" },
      token1PriceUsd: { kind: "Float" },
      amountUsd: { kind: "Float" },
      tvlUsd: { kind: "Float" }
    },
    relations: { poolInfo: { entity: "Pool", from: "pool" } }
  },
  {
    type: "Mint",
    list: "mints",
    description: "Liquidity added to indexed pools",
    source: "mints t",
    key: eventKey,
    defaultOrder: "blockNumber",
    fields: {
      ...event,
      pool: { kind: "Address" },
      sender: { kind: "Address" },
      owner: { kind: "Address" },
      tickLower: { kind: "Int" },
      tickUpper: { kind: "Int" },
      amount: { kind: "BigInt" },
      amount0: { kind: "BigInt" },
      amount1: { kind: "BigInt" },
      tvlUsd: { kind: "Float", description: "The pool's TVL in USD right after this mint (null without a USD path)" }
    }
  },
  {
    type: "Burn",
    list: "burns",
    description: "Liquidity removed from indexed pools",
    source: "burns t",
    key: eventKey,
    defaultOrder: "blockNumber",
    fields: {
      ...event,
      pool: { kind: "Address" },
      owner: { kind: "Address" },
      tickLower: { kind: "Int" },
      tickUpper: { kind: "Int" },
      amount: { kind: "BigInt" },
      amount0: { kind: "BigInt" },
      amount1: { kind: "BigInt" },
      tvlUsd: { kind: "Float", description: "The pool's TVL in USD right after this burn (null without a USD path)" }
    }
  },
  {
    type: "Position",
    list: "positions",
    description: "Wallet positions (position manager NFTs) in indexed pools",
    source: "nft_positions t",
    key: ["token_id"],
    defaultOrder: "tokenId",
    fields: {
      tokenId: { kind: "BigInt" },
      pool: { kind: "Address" },
      owner: { kind: "Address" },
      tickLower: { kind: "Int" },
      tickUpper: { kind: "Int" },
      liquidity: { kind: "BigInt" },
      deposited0: { kind: "BigInt" },
      deposited1: { kind: "BigInt" },
      withdrawn0: { kind: "BigInt" },
      withdrawn1: { kind: "BigInt" },
      collected0: { kind: "BigInt" },
      collected1: { kind: "BigInt" }
    },
    relations: { poolInfo: { entity: "Pool", from: "pool" } }
  },
  {
    type: "Holder",
    list: "holders",
    description: "Balances of launched tokens (non-zero)",
    source: "token_balances t",
    key: ["token", "holder"],
    defaultOrder: "balance",
    fields: { token: { kind: "Address" }, holder: { kind: "Address" }, balance: { kind: "BigInt" } }
  },
  {
    type: "Tick",
    list: "ticks",
    description: "Initialized ticks of indexed pools",
    source: "ticks t",
    key: ["pool", "tick"],
    defaultOrder: "tick",
    fields: {
      pool: { kind: "Address" },
      tick: { kind: "Int" },
      liquidityGross: { kind: "BigInt" },
      liquidityNet: { kind: "BigInt" }
    }
  },
  {
    type: "FuelEvent",
    list: "fuelEvents",
    description: "FuelVault gifts ('given') and withdrawals ('withdrawn')",
    source: "fuel_events t",
    key: eventKey,
    defaultOrder: "blockNumber",
    fields: {
      ...event,
      kind: { kind: "String" },
      token: { kind: "Address" },
      sender: { kind: "Address" },
      creator: { kind: "Address" },
      amount: { kind: "BigInt" }
    }
  },
  {
    type: "Graduation",
    list: "graduations",
    description: "Graduation steps: condition_recorded, graduated",
    source: "graduation_events t",
    key: eventKey,
    defaultOrder: "blockNumber",
    fields: { ...event, token: { kind: "Address" }, step: { kind: "String" }, at: { kind: "Timestamp" } }
  },
  {
    type: "FeeClaim",
    list: "feeClaims",
    description: "FireStream fee claims",
    source: "fee_claims t",
    key: eventKey,
    defaultOrder: "blockNumber",
    fields: {
      ...event,
      token: { kind: "Address" },
      recipient: { kind: "Address" },
      amount0: { kind: "BigInt" },
      amount1: { kind: "BigInt" }
    }
  },
  {
    type: "Transfer",
    list: "transfers",
    description: "ERC-20 transfers of launched tokens",
    source: "token_transfers t",
    key: eventKey,
    defaultOrder: "blockNumber",
    fields: {
      ...event,
      token: { kind: "Address" },
      from: { kind: "Address", column: "from_address" },
      to: { kind: "Address", column: "to_address" },
      value: { kind: "BigInt" }
    }
  },
  {
    type: "PoolCandle",
    list: "poolCandles",
    description: "Hourly ('1h') and daily ('1d') candles per pool (price token1/token0)",
    source: "(SELECT *, volume_usd::float8 AS volume_usd_f FROM pool_candles) t",
    key: ["pool", "period", "bucket_start"],
    defaultOrder: "bucketStart",
    fields: {
      pool: { kind: "Address" },
      period: { kind: "String" },
      bucketStart: { kind: "Timestamp" },
      open: { kind: "Float" },
      high: { kind: "Float" },
      low: { kind: "Float" },
      close: { kind: "Float" },
      volume0: { kind: "BigInt" },
      volume1: { kind: "BigInt" },
      volumeUsd: { kind: "Float", column: "volume_usd_f" },
      tvlUsd: { kind: "Float" },
      swapCount: { kind: "Int" }
    }
  },
  {
    type: "TokenCandle",
    list: "tokenCandles",
    description: "Hourly ('1h') and daily ('1d') USD candles per token",
    source: "(SELECT *, volume_usd::float8 AS volume_usd_f FROM token_candles) t",
    key: ["token", "period", "bucket_start"],
    defaultOrder: "bucketStart",
    fields: {
      token: { kind: "Address" },
      period: { kind: "String" },
      bucketStart: { kind: "Timestamp" },
      open: { kind: "Float" },
      high: { kind: "Float" },
      low: { kind: "Float" },
      close: { kind: "Float" },
      volume: { kind: "BigInt" },
      volumeUsd: { kind: "Float", column: "volume_usd_f" },
      swapCount: { kind: "Int" }
    }
  }
]

export const columnOf = (name: string, field: FieldDef) =>
  field.column ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

export const entityByType = new Map(entities.map((e) => [e.type, e]))

/** The table an entity's rows are read from (its size prices a scan of it, src/indexer/graphql/Limits.ts). */
export const tableOf = (entity: EntityDef) =>
  /^(\w+) t$/.exec(entity.source)?.[1] ?? /\bFROM (\w+)/.exec(entity.source)![1]!
