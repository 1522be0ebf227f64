import { poolPopularity, tokenPopularity } from "../Ranking.ts"
import { PoolDocument, TokenDocument } from "../SearchDocument.ts"

/** A field of a Typesense collection schema (the subset this service uses). */
export interface FieldSchema {
  readonly name: string
  readonly type: "string" | "int32" | "int64" | "float" | "bool"
  readonly optional?: boolean
  readonly sort?: boolean
  readonly facet?: boolean
  readonly index?: boolean
}

export interface CollectionSchema {
  readonly name: string
  readonly fields: ReadonlyArray<FieldSchema>
  readonly default_sorting_field: string
  /** `0x…` stays one token; `-`, `.` and `/` split words (as in the embedded index). */
  readonly token_separators: ReadonlyArray<string>
}

const f = (name: string, type: FieldSchema["type"], extra: Partial<FieldSchema> = {}): FieldSchema => ({
  name,
  type,
  ...extra
})

/** The tokens collection. Numeric fields are sortable by default; strings used in filters are exact (`:=`). */
export const tokensSchema = (prefix: string): CollectionSchema => ({
  name: `${prefix}tokens`,
  fields: [
    f("address", "string"),
    f("chain_id", "int32", { facet: true }),
    f("symbol", "string"),
    f("name", "string"),
    f("decimals", "int32", { index: false, optional: true }),
    f("creator", "string", { optional: true }),
    f("launched_at", "int64"),
    f("pool", "string", { optional: true }),
    f("is_launch", "bool"),
    f("price_usd", "float", { optional: true }),
    f("market_cap_usd", "float"),
    f("volume_24h_usd", "float"),
    f("liquidity_usd", "float"),
    f("holders", "int32"),
    f("graduated", "bool"),
    f("claimed", "bool"),
    f("image", "string", { optional: true, index: false }),
    f("popularity", "float"),
    f("synced_at", "int64")
  ],
  default_sorting_field: "popularity",
  token_separators: ["-", ".", "/", "_"]
})

export const poolsSchema = (prefix: string): CollectionSchema => ({
  name: `${prefix}pools`,
  fields: [
    f("address", "string"),
    f("chain_id", "int32", { facet: true }),
    f("symbols", "string"),
    f("names", "string"),
    f("token0_address", "string"),
    f("token0_symbol", "string", { index: false, optional: true }),
    f("token0_name", "string", { index: false, optional: true }),
    f("token1_address", "string"),
    f("token1_symbol", "string", { index: false, optional: true }),
    f("token1_name", "string", { index: false, optional: true }),
    f("fee", "int32"),
    f("tvl_usd", "float"),
    f("volume_24h_usd", "float"),
    f("swap_count", "int64"),
    f("created_at", "int64"),
    f("is_launch_pool", "bool"),
    f("launch_token", "string", { optional: true }),
    f("graduated", "bool"),
    f("popularity", "float"),
    f("synced_at", "int64")
  ],
  default_sorting_field: "popularity",
  token_separators: ["-", ".", "/", "_"]
})

/** Wire forms (Typesense documents are flat; optional fields are left out rather than null). */
export const toTypesenseToken = (t: TokenDocument, syncedAt: number): Record<string, unknown> => ({
  id: t.id,
  address: t.address,
  chain_id: t.chainId,
  symbol: t.symbol,
  name: t.name,
  ...(t.decimals === null ? {} : { decimals: t.decimals }),
  ...(t.creator === null ? {} : { creator: t.creator }),
  launched_at: Math.round(t.launchedAt ?? 0),
  ...(t.pool === null ? {} : { pool: t.pool }),
  is_launch: t.isLaunch,
  ...(t.priceUsd === null ? {} : { price_usd: t.priceUsd }),
  market_cap_usd: t.marketCapUsd,
  volume_24h_usd: t.volume24hUsd,
  liquidity_usd: t.liquidityUsd,
  holders: t.holders,
  graduated: t.graduated,
  claimed: t.claimed,
  ...(t.image === null ? {} : { image: t.image }),
  popularity: tokenPopularity(t),
  synced_at: syncedAt
})

export const toTypesensePool = (p: PoolDocument, syncedAt: number): Record<string, unknown> => ({
  id: p.id,
  address: p.address,
  chain_id: p.chainId,
  symbols: `${p.token0.symbol} ${p.token1.symbol}`,
  names: `${p.token0.name} ${p.token1.name}`,
  token0_address: p.token0.address,
  token0_symbol: p.token0.symbol,
  token0_name: p.token0.name,
  token1_address: p.token1.address,
  token1_symbol: p.token1.symbol,
  token1_name: p.token1.name,
  fee: p.fee,
  tvl_usd: p.tvlUsd,
  volume_24h_usd: p.volume24hUsd,
  swap_count: p.swapCount,
  created_at: Math.round(p.createdAt),
  is_launch_pool: p.isLaunchPool,
  ...(p.launchToken === null ? {} : { launch_token: p.launchToken }),
  graduated: p.graduated,
  popularity: poolPopularity(p),
  synced_at: syncedAt
})

const str = (v: unknown) => (typeof v === "string" ? v : "")
const num = (v: unknown) => (typeof v === "number" ? v : 0)
const opt = <A>(v: unknown, is: (v: unknown) => v is A): A | null => (is(v) ? v : null)
const isString = (v: unknown): v is string => typeof v === "string"
const isNumber = (v: unknown): v is number => typeof v === "number"

export const fromTypesenseToken = (d: Record<string, unknown>): TokenDocument =>
  new TokenDocument({
    id: str(d.id),
    address: str(d.address),
    chainId: num(d.chain_id),
    name: str(d.name),
    symbol: str(d.symbol),
    decimals: opt(d.decimals, isNumber),
    creator: opt(d.creator, isString),
    launchedAt: num(d.launched_at) === 0 ? null : num(d.launched_at),
    pool: opt(d.pool, isString),
    isLaunch: d.is_launch === true,
    priceUsd: opt(d.price_usd, isNumber),
    marketCapUsd: num(d.market_cap_usd),
    volume24hUsd: num(d.volume_24h_usd),
    liquidityUsd: num(d.liquidity_usd),
    holders: num(d.holders),
    graduated: d.graduated === true,
    claimed: d.claimed === true,
    image: opt(d.image, isString)
  })

export const fromTypesensePool = (d: Record<string, unknown>): PoolDocument =>
  new PoolDocument({
    id: str(d.id),
    address: str(d.address),
    chainId: num(d.chain_id),
    token0: { address: str(d.token0_address), symbol: str(d.token0_symbol), name: str(d.token0_name) },
    token1: { address: str(d.token1_address), symbol: str(d.token1_symbol), name: str(d.token1_name) },
    fee: num(d.fee),
    tvlUsd: num(d.tvl_usd),
    volume24hUsd: num(d.volume_24h_usd),
    swapCount: num(d.swap_count),
    createdAt: num(d.created_at),
    isLaunchPool: d.is_launch_pool === true,
    launchToken: opt(d.launch_token, isString),
    graduated: d.graduated === true
  })
