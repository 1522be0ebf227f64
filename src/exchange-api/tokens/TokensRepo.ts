import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

export interface TokenRow {
  readonly address: string
  readonly name: string
  readonly symbol: string
  readonly decimals: number | null
  readonly totalSupply: string
  readonly isLaunch: boolean
  readonly firstBlock: string
  readonly holderCount: number
  readonly transferCount: string
  readonly priceUsd: number | null
  /** Price in WETH from the token's deepest WETH pool (1 for WETH itself); null without such a pool. */
  readonly priceEth: number | null
  /** Balance held by indexed pools and the burn addresses: not circulating. */
  readonly lockedSupply: string
  /** Raw amount of the token held by its indexed pools. */
  readonly pooledAmount: string
  readonly poolCount: number
  readonly volume24hUsd: number
  readonly volume1hUsd: number
  readonly swaps24h: number
  readonly fuelCount: number
  readonly fuelGiven: string
  readonly fuelWithdrawn: string
  readonly graduationConditionAt: Date | null
  readonly graduatedAt: Date | null
  readonly creator: string | null
  readonly launchPool: string | null
  readonly launchTx: string | null
  readonly launchedAt: Date | null
  readonly launchBlock: string | null
}

/** Addresses whose balance is out of circulation besides the pools (zero address, the common burn address). */
export const BURN_ADDRESSES = [
  "0x0000000000000000000000000000000000000000",
  "0x000000000000000000000000000000000000dead"
]

/**
 * An active LP position: a position-manager NFT (`tokenId` set) or a position held directly on the pool (`tokenId`
 * and the NFT's deposit/withdraw/collect totals null). Amounts are raw integers as decimal strings.
 */
export interface PositionRow {
  readonly tokenId: string | null
  readonly pool: string
  readonly owner: string
  readonly tickLower: number
  readonly tickUpper: number
  readonly liquidity: string
  readonly deposited0: string | null
  readonly deposited1: string | null
  readonly withdrawn0: string | null
  readonly withdrawn1: string | null
  readonly collected0: string | null
  readonly collected1: string | null
  readonly token0: string
  readonly token1: string
  readonly fee: number
  readonly sqrtPriceX96: string | null
  readonly tick: number | null
}

/** SQL of the token, stats and position routes. 24 h / 1 h windows end at the last indexed block's time. */
export class TokensRepo extends Context.Service<TokensRepo, ReturnType<typeof makeTokensRepo>>()(
  "app/exchange/TokensRepo"
) {
  static readonly layer = Layer.effect(
    TokensRepo,
    Effect.map(SqlClient.SqlClient, (sql) => makeTokensRepo(sql))
  )
}

const makeTokensRepo = (sql: SqlClient.SqlClient) => {
  const asOf = (chainId: number) =>
    sql`coalesce((SELECT block_timestamp FROM indexer_checkpoints WHERE chain_id = ${chainId}), now())`

  const select = (chainId: number, weth: string) => sql`
    SELECT t.address, t.name, t.symbol, t.decimals, t.total_supply::text AS total_supply, t.is_launch,
      t.first_block::text AS first_block, t.holder_count, t.transfer_count::text AS transfer_count, t.price_usd,
      CASE WHEN t.address = ${weth} THEN 1::float8 ELSE we.price_eth END AS price_eth,
      (coalesce(lk.pooled, 0) + coalesce(bn.burned, 0))::text AS locked_supply, coalesce(lk.pooled, 0)::text AS pooled_amount,
      coalesce(lk.pools, 0)::int AS pool_count,
      coalesce(v.volume24h, 0)::float8 AS volume24h_usd, coalesce(v.volume1h, 0)::float8 AS volume1h_usd,
      coalesce(v.swaps24h, 0)::int AS swaps24h,
      t.fuel_count, t.fuel_given::text AS fuel_given, t.fuel_withdrawn::text AS fuel_withdrawn,
      t.graduation_condition_at, t.graduated_at,
      l.creator, l.pool AS launch_pool, l.tx_hash AS launch_tx, l.block_timestamp AS launched_at, l.block_number::text AS launch_block
    FROM tokens t
    LEFT JOIN launches l ON l.chain_id = t.chain_id AND l.token = t.address
    LEFT JOIN LATERAL (
      SELECT CASE WHEN p.token0 = t.address THEN s.price ELSE 1 / nullif(s.price, 0) END AS price_eth
      FROM pools p JOIN pool_states s ON s.chain_id = p.chain_id AND s.pool = p.address
      WHERE p.chain_id = t.chain_id AND s.liquidity > 0 AND s.price IS NOT NULL
        AND ((p.token0 = t.address AND p.token1 = ${weth}) OR (p.token1 = t.address AND p.token0 = ${weth}))
      ORDER BY s.liquidity DESC LIMIT 1
    ) we ON true
    LEFT JOIN LATERAL (
      SELECT sum(CASE WHEN p.token0 = t.address THEN s.reserve0 ELSE s.reserve1 END) AS pooled, count(*) AS pools
      FROM pools p LEFT JOIN pool_states s ON s.chain_id = p.chain_id AND s.pool = p.address
      WHERE p.chain_id = t.chain_id AND (p.token0 = t.address OR p.token1 = t.address)
    ) lk ON true
    LEFT JOIN LATERAL (
      SELECT sum(b.balance) AS burned FROM token_balances b
      WHERE b.chain_id = t.chain_id AND b.token = t.address AND b.holder IN ${sql.in(BURN_ADDRESSES)}
    ) bn ON true
    LEFT JOIN LATERAL (
      SELECT sum(c.volume_usd) AS volume24h, sum(c.swap_count) AS swaps24h,
        sum(c.volume_usd) FILTER (WHERE c.bucket_start >= date_trunc('hour', ${asOf(chainId)})) AS volume1h
      FROM token_candles c
      WHERE c.chain_id = t.chain_id AND c.token = t.address AND c.period = '1h'
        AND c.bucket_start >= date_trunc('hour', ${asOf(chainId)}) - interval '23 hours'
    ) v ON true`

  /** The client API's listings tables (token_metadata, token_hides) are a separate feature: read them only if present. */
  const hasListings = sql<{ ok: boolean }>`
    SELECT to_regclass('token_metadata') IS NOT NULL AND to_regclass('token_hides') IS NOT NULL AS ok`.pipe(
    Effect.map((r) => r[0]!.ok)
  )

  /** Active positions of both kinds with their pool's tokens, fee and price state (unordered; see `positions`). */
  const activePositions = (
    chainId: number,
    by: { readonly owner: string } | { readonly pool: string },
    positionManager: string
  ) => sql`
    SELECT m.*, p.token0, p.token1, p.fee, s.sqrt_price_x96, s.tick
    FROM (
      SELECT n.token_id, n.pool, n.owner, n.tick_lower, n.tick_upper, n.liquidity, n.deposited0, n.deposited1,
        n.withdrawn0, n.withdrawn1, n.collected0, n.collected1
      FROM nft_positions n
      WHERE n.chain_id = ${chainId} AND n.liquidity > 0
        AND ${"owner" in by ? sql`n.owner = ${by.owner}` : sql`n.pool = ${by.pool}`}
      UNION ALL
      SELECT NULL, x.pool, x.owner, x.tick_lower, x.tick_upper, x.liquidity, NULL, NULL, NULL, NULL, NULL, NULL
      FROM positions x
      WHERE x.chain_id = ${chainId} AND x.liquidity > 0 AND x.owner <> ${positionManager}
        AND ${"owner" in by ? sql`x.owner = ${by.owner}` : sql`x.pool = ${by.pool}`}
    ) m
    JOIN pools p ON p.chain_id = ${chainId} AND p.address = m.pool
    LEFT JOIN pool_states s ON s.chain_id = ${chainId} AND s.pool = m.pool`

  return {
    hasListings,
    /** Claim state per token (address → state); only call when `hasListings`. */
    claims: (chainId: number, addresses: ReadonlyArray<string>) =>
      addresses.length === 0
        ? Effect.succeed(new Map<string, { claimed: boolean; hidden: boolean }>())
        : sql<{ address: string; claimed: boolean; hidden: boolean }>`
          SELECT t.address,
            EXISTS (SELECT 1 FROM token_metadata m WHERE m.chain_id = t.chain_id AND m.token_address = t.address) AS claimed,
            EXISTS (SELECT 1 FROM token_hides h WHERE h.chain_id = t.chain_id AND h.token_address = t.address) AS hidden
          FROM tokens t WHERE t.chain_id = ${chainId} AND t.address IN ${sql.in(addresses)}`.pipe(
            Effect.map((rows) => new Map(rows.map((r) => [r.address, { claimed: r.claimed, hidden: r.hidden }])))
          ),
    asOf: (chainId: number) => sql<{ t: Date }>`SELECT ${asOf(chainId)} AS t`.pipe(Effect.map((r) => r[0]!.t)),

    byAddresses: (chainId: number, weth: string, addresses: ReadonlyArray<string>) =>
      addresses.length === 0
        ? Effect.succeed([] as ReadonlyArray<TokenRow>)
        : sql<TokenRow>`${select(chainId, weth)} WHERE t.chain_id = ${chainId} AND t.address IN ${sql.in(addresses)}`,

    /** Launched tokens with activity in the last 24 h, by score (see TokensApi `listTrending`). */
    trending: (chainId: number, weth: string, limit: number) =>
      sql<TokenRow & { score: number }>`
        SELECT x.*, (x.volume24h_usd + 3 * x.volume1h_usd)::float8 AS score FROM (${select(chainId, weth)}
          WHERE t.chain_id = ${chainId} AND t.is_launch) x
        WHERE x.swaps24h > 0
        ORDER BY score DESC, x.swaps24h DESC, x.first_block::bigint DESC, x.address LIMIT ${limit}`,

    /** Hourly or daily candles, with the token's TVL carried forward from its pools' last candles at each bucket. */
    candles: (chainId: number, token: string, period: "1h" | "1d", from: Date, to: Date) =>
      sql<{
        bucketStart: Date
        open: number | null
        high: number | null
        low: number | null
        close: number | null
        volume: string
        volumeUsd: number | null
        swapCount: number
        tvlUsd: number | null
      }>`
        SELECT c.bucket_start, c.open, c.high, c.low, c.close, c.volume::text AS volume, c.volume_usd::float8 AS volume_usd,
          c.swap_count, tv.tvl_usd
        FROM token_candles c
        LEFT JOIN LATERAL (
          SELECT sum(last.tvl_usd) AS tvl_usd FROM pools p
          CROSS JOIN LATERAL (
            SELECT pc.tvl_usd FROM pool_candles pc
            WHERE pc.chain_id = p.chain_id AND pc.pool = p.address AND pc.period = ${period} AND pc.bucket_start <= c.bucket_start
            ORDER BY pc.bucket_start DESC LIMIT 1
          ) last
          WHERE p.chain_id = c.chain_id AND (p.token0 = c.token OR p.token1 = c.token)
        ) tv ON true
        WHERE c.chain_id = ${chainId} AND c.token = ${token} AND c.period = ${period}
          AND c.bucket_start >= ${from} AND c.bucket_start <= ${to}
        ORDER BY c.bucket_start LIMIT 2000`,

    /** Minute buckets computed from the swaps themselves (no minute candles are stored): USD price of the token. */
    minuteCandles: (chainId: number, token: string, from: Date, to: Date) =>
      sql<{
        bucketStart: Date
        open: number | null
        high: number | null
        low: number | null
        close: number | null
        volume: string
        volumeUsd: number | null
        swapCount: number
        tvlUsd: number | null
      }>`
        SELECT date_trunc('minute', w.block_timestamp) AS bucket_start,
          (array_agg(CASE WHEN p.token0 = ${token} THEN w.token0_price_usd ELSE w.token1_price_usd END ORDER BY w.block_number, w.log_index))[1] AS open,
          max(CASE WHEN p.token0 = ${token} THEN w.token0_price_usd ELSE w.token1_price_usd END) AS high,
          min(CASE WHEN p.token0 = ${token} THEN w.token0_price_usd ELSE w.token1_price_usd END) AS low,
          (array_agg(CASE WHEN p.token0 = ${token} THEN w.token0_price_usd ELSE w.token1_price_usd END ORDER BY w.block_number DESC, w.log_index DESC))[1] AS close,
          sum(abs(CASE WHEN p.token0 = ${token} THEN w.amount0 ELSE w.amount1 END))::text AS volume,
          sum(w.amount_usd)::float8 AS volume_usd, count(*)::int AS swap_count, NULL::float8 AS tvl_usd
        FROM swaps w JOIN pools p ON p.chain_id = w.chain_id AND p.address = w.pool
        WHERE w.chain_id = ${chainId} AND (p.token0 = ${token} OR p.token1 = ${token})
          AND w.block_timestamp >= ${from} AND w.block_timestamp <= ${to}
        GROUP BY 1 ORDER BY 1 LIMIT 2000`,

    /** Chain-wide figures for /stats/global. */
    global: (chainId: number) =>
      sql<{ tokens: number; launches: number; graduated: number; holders: string }>`
        SELECT count(*)::int AS tokens, count(*) FILTER (WHERE is_launch)::int AS launches,
          count(*) FILTER (WHERE graduated_at IS NOT NULL)::int AS graduated, coalesce(sum(holder_count), 0)::text AS holders
        FROM tokens WHERE chain_id = ${chainId}`.pipe(Effect.map((r) => r[0]!)),

    /** Daily volume/fees/swaps across all pools (from daily pool candles). */
    globalDaily: (chainId: number, from: Date) =>
      sql<{ bucketStart: Date; volumeUsd: number | null; feesUsd: number | null; swapCount: number }>`
        SELECT c.bucket_start, sum(c.volume_usd)::float8 AS volume_usd, sum(c.volume_usd * p.fee / 1e6)::float8 AS fees_usd,
          sum(c.swap_count)::int AS swap_count
        FROM pool_candles c JOIN pools p ON p.chain_id = c.chain_id AND p.address = c.pool
        WHERE c.chain_id = ${chainId} AND c.period = '1d' AND c.bucket_start >= ${from}
        GROUP BY c.bucket_start ORDER BY c.bucket_start`,

    /**
     * One page of the active positions (liquidity > 0) of an owner or of a pool: position-manager NFTs and positions
     * held directly on the pool (owner ≠ the position manager; `tokenId` null) as one list, with `total` = both kinds
     * together (also when the page is past the end). Order: liquidity, largest first; then NFTs by token id; then direct
     * positions (after NFTs of equal liquidity) by their key pool, owner, tickLower, tickUpper. A total order, so offset
     * pages neither repeat nor skip a position.
     */
    positions: (
      chainId: number,
      by: { readonly owner: string } | { readonly pool: string },
      positionManager: string,
      limit: number,
      offset: number
    ) =>
      Effect.gen(function* () {
        const active = activePositions(chainId, by, positionManager)
        const rows = yield* sql<PositionRow & { total: number }>`
          WITH a AS (${active})
          SELECT a.token_id::text AS token_id, a.pool, a.owner, a.tick_lower, a.tick_upper, a.liquidity::text AS liquidity,
            a.deposited0::text AS deposited0, a.deposited1::text AS deposited1, a.withdrawn0::text AS withdrawn0,
            a.withdrawn1::text AS withdrawn1, a.collected0::text AS collected0, a.collected1::text AS collected1,
            a.token0, a.token1, a.fee, a.sqrt_price_x96::text AS sqrt_price_x96, a.tick, (count(*) OVER ())::int AS total
          FROM a
          ORDER BY a.liquidity DESC, a.token_id ASC NULLS LAST, a.pool, a.owner, a.tick_lower, a.tick_upper
          LIMIT ${limit} OFFSET ${offset}`
        // count(*) OVER () has no row to ride on when the offset is past the end: count separately then.
        const total =
          rows[0]?.total ??
          (offset === 0
            ? 0
            : (yield* sql<{ total: number }>`WITH a AS (${active}) SELECT count(*)::int AS total FROM a`)[0]!.total)
        return { rows, total }
      })
  }
}
