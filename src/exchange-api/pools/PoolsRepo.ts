import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/** One pool with its state, token metadata, 24 h figures and launchpad flags (every pool route reads this shape). */
export interface PoolRow {
  readonly address: string
  readonly token0: string
  readonly token1: string
  readonly fee: number
  readonly tickSpacing: number
  readonly createdBlock: string
  readonly createdAt: Date
  readonly createdTx: string
  readonly sqrtPriceX96: string | null
  readonly tick: number | null
  readonly liquidity: string | null
  readonly reserve0: string | null
  readonly reserve1: string | null
  readonly volume0: string | null
  readonly volume1: string | null
  readonly fees0: string | null
  readonly fees1: string | null
  readonly volumeUsdTotal: number | null
  readonly swapCount: string | null
  readonly mintCount: string | null
  readonly burnCount: string | null
  readonly price: number | null
  readonly tvlUsd: number | null
  readonly lastBlock: string | null
  readonly name0: string | null
  readonly symbol0: string | null
  readonly decimals0: number | null
  readonly priceUsd0: number | null
  readonly name1: string | null
  readonly symbol1: string | null
  readonly decimals1: number | null
  readonly priceUsd1: number | null
  readonly volume24hUsd: number
  readonly swaps24h: number
  readonly launchedToken: string | null
  readonly graduated: boolean
  readonly graduationConditionRecorded: boolean
}

export interface PoolFilter {
  readonly fee?: number | undefined
  /** Pools holding this token (either side). */
  readonly token?: string | undefined
  /** Pools of exactly this pair (either order). */
  readonly pair?: readonly [string, string] | undefined
  readonly minTvlUsd?: number | undefined
  readonly addresses?: ReadonlyArray<string> | undefined
}

export type PoolSort = "tvl" | "volume" | "created"

/**
 * SQL of the pool routes. "24 h" figures are over the last 24 hourly candles up to the last indexed block's time
 * (chain time, not wall-clock time: a devnet's clock may run ahead), so they cost one index range per pool.
 */
export class PoolsRepo extends Context.Service<PoolsRepo, ReturnType<typeof makePoolsRepo>>()(
  "app/exchange/PoolsRepo"
) {
  static readonly layer = Layer.effect(
    PoolsRepo,
    Effect.map(SqlClient.SqlClient, (sql) => makePoolsRepo(sql))
  )
}

const makePoolsRepo = (sql: SqlClient.SqlClient) => {
  const asOf = (chainId: number) =>
    sql`coalesce((SELECT block_timestamp FROM indexer_checkpoints WHERE chain_id = ${chainId}), now())`

  const where = (chainId: number, f: PoolFilter) => {
    const parts = [sql`p.chain_id = ${chainId}`]
    if (f.fee !== undefined) parts.push(sql`p.fee = ${f.fee}`)
    if (f.token !== undefined) parts.push(sql`(p.token0 = ${f.token} OR p.token1 = ${f.token})`)
    if (f.pair !== undefined) {
      const [a, b] = f.pair
      parts.push(sql`((p.token0 = ${a} AND p.token1 = ${b}) OR (p.token0 = ${b} AND p.token1 = ${a}))`)
    }
    if (f.minTvlUsd !== undefined) parts.push(sql`coalesce(s.tvl_usd, 0) >= ${f.minTvlUsd}`)
    if (f.addresses !== undefined)
      parts.push(f.addresses.length === 0 ? sql`false` : sql`p.address IN ${sql.in(f.addresses)}`)
    return sql.and(parts)
  }

  const select = (chainId: number) => sql`
    SELECT p.address, p.token0, p.token1, p.fee, p.tick_spacing, p.block_number::text AS created_block,
      p.block_timestamp AS created_at, p.tx_hash AS created_tx,
      s.sqrt_price_x96::text AS sqrt_price_x96, s.tick, s.liquidity::text AS liquidity, s.reserve0::text AS reserve0,
      s.reserve1::text AS reserve1, s.volume0::text AS volume0, s.volume1::text AS volume1, s.fees0::text AS fees0,
      s.fees1::text AS fees1, s.volume_usd::float8 AS volume_usd_total, s.swap_count::text AS swap_count,
      s.mint_count::text AS mint_count, s.burn_count::text AS burn_count, s.price, s.tvl_usd, s.last_block::text AS last_block,
      t0.name AS name0, t0.symbol AS symbol0, t0.decimals AS decimals0, t0.price_usd AS price_usd0,
      t1.name AS name1, t1.symbol AS symbol1, t1.decimals AS decimals1, t1.price_usd AS price_usd1,
      coalesce(v.volume_usd, 0)::float8 AS volume24h_usd, coalesce(v.swaps, 0)::int AS swaps24h,
      l.token AS launched_token, (tl.graduated_at IS NOT NULL) AS graduated,
      (tl.graduation_condition_at IS NOT NULL) AS graduation_condition_recorded
    FROM pools p
    LEFT JOIN pool_states s ON s.chain_id = p.chain_id AND s.pool = p.address
    LEFT JOIN tokens t0 ON t0.chain_id = p.chain_id AND t0.address = p.token0
    LEFT JOIN tokens t1 ON t1.chain_id = p.chain_id AND t1.address = p.token1
    LEFT JOIN LATERAL (
      SELECT sum(c.volume_usd) AS volume_usd, sum(c.swap_count) AS swaps FROM pool_candles c
      WHERE c.chain_id = p.chain_id AND c.pool = p.address AND c.period = '1h'
        AND c.bucket_start >= date_trunc('hour', ${asOf(chainId)}) - interval '23 hours'
    ) v ON true
    LEFT JOIN launches l ON l.chain_id = p.chain_id AND l.pool = p.address
    LEFT JOIN tokens tl ON tl.chain_id = l.chain_id AND tl.address = l.token`

  const orderBy = (sort: PoolSort, order: "asc" | "desc") => {
    const dir = order === "asc" ? sql`ASC` : sql`DESC`
    const column =
      sort === "tvl" ? sql`coalesce(tvl_usd, 0)` : sort === "volume" ? sql`volume24h_usd` : sql`created_block::numeric`
    return sql`ORDER BY ${column} ${dir}, address`
  }

  return {
    /** The quote allowlist of a chain (`quote_allowlist`, src/exchange-api/quotes/Allowlist.ts): /pools/admitted applies it. */
    quoteAllowlist: (chainId: number) =>
      sql<{ address: string }>`SELECT address FROM quote_allowlist WHERE chain_id = ${chainId}`.pipe(
        Effect.map((r) => r.map((x) => x.address))
      ),
    list: (chainId: number, filter: PoolFilter, sort: PoolSort, order: "asc" | "desc", limit: number, offset: number) =>
      Effect.all(
        {
          rows: sql<PoolRow>`SELECT * FROM (${select(chainId)} WHERE ${where(chainId, filter)}) x ${orderBy(sort, order)}
          LIMIT ${limit} OFFSET ${offset}`,
          total: sql<{ n: number }>`SELECT count(*)::int AS n FROM pools p
          LEFT JOIN pool_states s ON s.chain_id = p.chain_id AND s.pool = p.address WHERE ${where(chainId, filter)}`.pipe(
            Effect.map((r) => r[0]!.n)
          )
        },
        { concurrency: 2 }
      ),

    byAddress: (chainId: number, address: string) =>
      sql<PoolRow>`${select(chainId)} WHERE p.chain_id = ${chainId} AND p.address = ${address}`.pipe(
        Effect.map((r) => r[0])
      ),

    /** Aggregates across all pools of the chain. */
    metrics: (chainId: number) =>
      sql<{
        pools: number
        initialized: number
        tvlUsd: number | null
        volume24hUsd: number | null
        fees24hUsd: number | null
        swaps24h: number
        volumeUsdTotal: number | null
        swapsTotal: string
      }>`
        SELECT count(*)::int AS pools, count(s.sqrt_price_x96)::int AS initialized, sum(s.tvl_usd) AS tvl_usd,
          coalesce(sum(v.volume_usd), 0)::float8 AS volume24h_usd, coalesce(sum(v.volume_usd * p.fee / 1e6), 0)::float8 AS fees24h_usd,
          coalesce(sum(v.swaps), 0)::int AS swaps24h, coalesce(sum(s.volume_usd), 0)::float8 AS volume_usd_total,
          coalesce(sum(s.swap_count), 0)::text AS swaps_total
        FROM pools p
        LEFT JOIN pool_states s ON s.chain_id = p.chain_id AND s.pool = p.address
        LEFT JOIN LATERAL (
          SELECT sum(c.volume_usd) AS volume_usd, sum(c.swap_count) AS swaps FROM pool_candles c
          WHERE c.chain_id = p.chain_id AND c.pool = p.address AND c.period = '1h'
            AND c.bucket_start >= date_trunc('hour', ${asOf(chainId)}) - interval '23 hours'
        ) v ON true
        WHERE p.chain_id = ${chainId}`.pipe(Effect.map((r) => r[0]!)),

    feeTiers: (chainId: number) =>
      sql<{ fee: number; pools: number; tvlUsd: number | null }>`
        SELECT p.fee, count(*)::int AS pools, sum(s.tvl_usd) AS tvl_usd FROM pools p
        LEFT JOIN pool_states s ON s.chain_id = p.chain_id AND s.pool = p.address
        WHERE p.chain_id = ${chainId} GROUP BY p.fee ORDER BY p.fee`,

    candles: (chainId: number, pool: string, period: "1h" | "1d", from: Date, to: Date) =>
      sql<{
        bucketStart: Date
        open: number
        high: number
        low: number
        close: number
        volume0: string
        volume1: string
        volumeUsd: number | null
        tvlUsd: number | null
        swapCount: number
      }>`
        SELECT bucket_start, open, high, low, close, volume0::text AS volume0, volume1::text AS volume1,
          volume_usd::float8 AS volume_usd, tvl_usd, swap_count
        FROM pool_candles WHERE chain_id = ${chainId} AND pool = ${pool} AND period = ${period}
          AND bucket_start >= ${from} AND bucket_start <= ${to}
        ORDER BY bucket_start LIMIT 2000`,

    asOf: (chainId: number) => sql<{ t: Date }>`SELECT ${asOf(chainId)} AS t`.pipe(Effect.map((r) => r[0]!.t)),

    ticks: (chainId: number, pool: string) =>
      sql<{ tick: number; liquidityGross: string; liquidityNet: string; liquidityActive: string }>`
        SELECT tick, liquidity_gross::text AS liquidity_gross, liquidity_net::text AS liquidity_net,
          (sum(liquidity_net) OVER (ORDER BY tick))::text AS liquidity_active
        FROM ticks WHERE chain_id = ${chainId} AND pool = ${pool} ORDER BY tick`
  }
}
