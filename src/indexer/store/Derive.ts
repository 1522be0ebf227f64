import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

/**
 * Derived tables (balances, pool state, ticks, positions, candles, counters) are folded from the event tables by SQL.
 *
 * Why this design (and not an undo journal): the event tables are the only truth; every derived row is a function
 * of them. Each statement below aggregates the events selected by a filter and MERGES the result into the derived
 * row (sums add, the latest value wins, open keeps the first, high/low widen). Two filters use the same statements:
 *   - forward, after a batch is inserted: the batch's block range → an incremental update, O(batch);
 *   - rollback, after the events above the common ancestor are deleted: the touched keys (pools, tokens; candles from
 *     the first affected day), whose derived rows were deleted or zeroed first → a recomputation from the remaining
 *     events.
 * A reorg costs work proportional to the touched keys only, and nothing extra is written on the hot path (a journal
 * doubles every write). The tables fed by every swap and transfer (balances, pool state, candles) are folded forward
 * in memory by the projection instead (project/Candles.ts, project/Deltas.ts: aggregating a batch of ~100k events
 * here cost more than inserting them) and merged with the same clauses (`*Merge` below), so the two paths share
 * their merge rules and the reorg tests check that they agree: the result equals a fresh index of the new chain. USD
 * sums are numeric, so the grouping into batches does not change them.
 */
export type Filter =
  | { readonly kind: "range"; readonly from: bigint; readonly to: bigint }
  | { readonly kind: "keys"; readonly keys: ReadonlyArray<string>; readonly since: number }

const ZERO = "0x0000000000000000000000000000000000000000"
const PERIODS = `(VALUES ('1h', interval '1 hour'), ('1d', interval '1 day')) AS per(period, step)`
export const BUCKET_ORIGIN = `TIMESTAMPTZ '2000-01-01 00:00:00+00'`

/** `$1` is the chain id; range → `$2..$3` blocks; keys → `$2` keys (candles: `$3` since, epoch seconds). */
const params = (chainId: number, f: Filter) =>
  f.kind === "range" ? [chainId, f.from.toString(), f.to.toString()] : [chainId, f.keys]
const where = (f: Filter, key: string, alias = "") =>
  f.kind === "range" ? `${alias}block_number BETWEEN $2::int8 AND $3::int8` : `${alias}${key} = ANY($2::text[])`

const run = (sql: SqlClient.SqlClient, text: string, values: ReadonlyArray<unknown>) =>
  sql.unsafe(text, values).pipe(Effect.asVoid)

/** How a (token, holder) balance change merges into the stored balance (shared with store/Folded.ts). */
export const balanceMerge = `ON CONFLICT (chain_id, token, holder) DO UPDATE SET balance = token_balances.balance + excluded.balance`

/** Balances and transfer counts of launched tokens (keys: tokens); the forward path folds them in memory instead. */
export const deriveTokens = (sql: SqlClient.SqlClient, chainId: number, f: Filter) => {
  const w = where(f, "token")
  return Effect.all(
    [
      run(
        sql,
        `
      INSERT INTO token_balances (chain_id, token, holder, balance)
      SELECT $1, token, holder, sum(delta) FROM (
        SELECT token, to_address AS holder, value AS delta FROM token_transfers WHERE chain_id = $1 AND ${w}
        UNION ALL
        SELECT token, from_address, -value FROM token_transfers WHERE chain_id = $1 AND ${w}
      ) t WHERE holder <> '${ZERO}'
      GROUP BY token, holder
      ${balanceMerge}`,
        params(chainId, f)
      ),
      run(
        sql,
        `
      UPDATE tokens t SET transfer_count = t.transfer_count + c.n
      FROM (SELECT token, count(*) AS n FROM token_transfers WHERE chain_id = $1 AND ${w} GROUP BY token) c
      WHERE t.chain_id = $1 AND t.address = c.token`,
        params(chainId, f)
      )
    ],
    { discard: true }
  )
}

/** Recomputes the per-token summary columns of the given tokens (cheap: each is an index lookup). */
export const refreshTokenSummaries = (sql: SqlClient.SqlClient, chainId: number, tokens: ReadonlyArray<string>) =>
  tokens.length === 0
    ? Effect.void
    : Effect.all(
        [
          run(sql, `DELETE FROM token_balances WHERE chain_id = $1 AND token = ANY($2::text[]) AND balance = 0`, [
            chainId,
            tokens
          ]),
          run(
            sql,
            `
      UPDATE tokens t SET
        holder_count = (SELECT count(*) FROM token_balances b WHERE b.chain_id = t.chain_id AND b.token = t.address),
        fuel_count = (SELECT count(*) FROM fuel_events f WHERE f.chain_id = t.chain_id AND f.token = t.address AND f.kind = 'given'),
        fuel_given = (SELECT coalesce(sum(amount), 0) FROM fuel_events f
                      WHERE f.chain_id = t.chain_id AND f.token = t.address AND f.kind = 'given'),
        fuel_withdrawn = (SELECT coalesce(sum(amount), 0) FROM fuel_events f
                          WHERE f.chain_id = t.chain_id AND f.token = t.address AND f.kind = 'withdrawn'),
        graduation_condition_at = (SELECT min(at) FROM graduation_events g
                                   WHERE g.chain_id = t.chain_id AND g.token = t.address AND g.step = 'condition_recorded'),
        graduated_at = (SELECT min(at) FROM graduation_events g
                        WHERE g.chain_id = t.chain_id AND g.token = t.address AND g.step = 'graduated'),
        price_usd = (
          SELECT CASE WHEN p.token0 = t.address THEN s.token0_price_usd ELSE s.token1_price_usd END
          FROM pools p CROSS JOIN LATERAL (
            SELECT * FROM (
              (SELECT block_number, log_index, token0_price_usd, token1_price_usd FROM swaps s
               WHERE s.chain_id = p.chain_id AND s.pool = p.address ORDER BY block_number DESC, log_index DESC LIMIT 1)
              UNION ALL
              (SELECT block_number, log_index, token0_price_usd, token1_price_usd FROM pool_snapshots s
               WHERE s.chain_id = p.chain_id AND s.pool = p.address)
            ) latest ORDER BY block_number DESC, log_index DESC LIMIT 1
          ) s
          WHERE p.chain_id = t.chain_id AND (p.token0 = t.address OR p.token1 = t.address)
          ORDER BY s.block_number DESC, s.log_index DESC LIMIT 1)
      WHERE t.chain_id = $1 AND t.address = ANY($2::text[])`,
            [chainId, tokens]
          )
        ],
        { discard: true, concurrency: 1 }
      )

/**
 * How a pool's counters, reserves and volumes of some events merge into its stored state (sums added, last block
 * widened). Shared with the in-memory fold (project/Deltas.ts, store/Folded.ts).
 */
export const poolStateMerge = `ON CONFLICT (chain_id, pool) DO UPDATE SET
        reserve0 = pool_states.reserve0 + excluded.reserve0, reserve1 = pool_states.reserve1 + excluded.reserve1,
        volume0 = pool_states.volume0 + excluded.volume0, volume1 = pool_states.volume1 + excluded.volume1,
        fees0 = pool_states.fees0 + excluded.fees0, fees1 = pool_states.fees1 + excluded.fees1,
        volume_usd = pool_states.volume_usd + excluded.volume_usd,
        swap_count = pool_states.swap_count + excluded.swap_count, mint_count = pool_states.mint_count + excluded.mint_count,
        burn_count = pool_states.burn_count + excluded.burn_count,
        last_block = greatest(pool_states.last_block, excluded.last_block)`

/** Everything derived from pool events (keys: pools): `derivePoolStates` then `derivePositions`. */
export const derivePools = (sql: SqlClient.SqlClient, chainId: number, f: Filter) =>
  Effect.all([derivePoolStates(sql, chainId, f), derivePositions(sql, chainId, f)], { discard: true, concurrency: 1 })

/**
 * Pool counters, reserves and volumes, and slot0 (the last Swap or Initialize). A pool tracked from before the start
 * block starts from its snapshot (pool_snapshots: reserves and slot0 read at one block), as if it were its first event.
 */
export const derivePoolStates = (sql: SqlClient.SqlClient, chainId: number, f: Filter) => {
  const w = where(f, "pool")
  const ws = where(f, "pool", "s.")
  const p = params(chainId, f)
  return Effect.all(
    [
      run(
        sql,
        `
      INSERT INTO pool_states (chain_id, pool, reserve0, reserve1, volume0, volume1, fees0, fees1, volume_usd,
                               swap_count, mint_count, burn_count, last_block)
      SELECT $1, pool, sum(r0), sum(r1), sum(v0), sum(v1), sum(f0), sum(f1), coalesce(sum(vusd), 0),
             sum(sc), sum(mc), sum(bc), max(block_number)
      FROM (
        SELECT s.pool, s.amount0 AS r0, s.amount1 AS r1, abs(s.amount0) AS v0, abs(s.amount1) AS v1,
               CASE WHEN s.amount0 > 0 THEN div(s.amount0 * p.fee, 1000000) ELSE 0 END AS f0,
               CASE WHEN s.amount1 > 0 THEN div(s.amount1 * p.fee, 1000000) ELSE 0 END AS f1,
               s.amount_usd::numeric AS vusd, 1 AS sc, 0 AS mc, 0 AS bc, s.block_number
        FROM swaps s JOIN pools p ON p.chain_id = s.chain_id AND p.address = s.pool WHERE s.chain_id = $1 AND ${ws}
        UNION ALL SELECT pool, amount0, amount1, 0, 0, 0, 0, NULL, 0, 1, 0, block_number FROM mints WHERE chain_id = $1 AND ${w}
        UNION ALL SELECT pool, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 1, block_number FROM burns WHERE chain_id = $1 AND ${w}
        UNION ALL SELECT pool, -amount0, -amount1, 0, 0, 0, 0, NULL, 0, 0, 0, block_number FROM collects WHERE chain_id = $1 AND ${w}
        UNION ALL SELECT pool, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, block_number FROM pool_initializations WHERE chain_id = $1 AND ${w}
        UNION ALL SELECT pool, reserve0, reserve1, 0, 0, 0, 0, NULL, 0, 0, 0, block_number FROM pool_snapshots WHERE chain_id = $1 AND ${w}
      ) e GROUP BY pool
      ${poolStateMerge}`,
        p
      ),
      run(
        sql,
        `
      UPDATE pool_states ps SET sqrt_price_x96 = l.sqrt_price_x96, tick = l.tick
      FROM (
        SELECT DISTINCT ON (pool) pool, sqrt_price_x96, tick FROM (
          SELECT pool, sqrt_price_x96, tick, block_number, log_index FROM swaps WHERE chain_id = $1 AND ${w}
          UNION ALL
          SELECT pool, sqrt_price_x96, tick, block_number, log_index FROM pool_initializations WHERE chain_id = $1 AND ${w}
          UNION ALL
          SELECT pool, sqrt_price_x96, tick, block_number, log_index FROM pool_snapshots WHERE chain_id = $1 AND ${w}
        ) x ORDER BY pool, block_number DESC, log_index DESC
      ) l
      WHERE ps.chain_id = $1 AND ps.pool = l.pool`,
        p
      )
    ],
    { discard: true, concurrency: 1 }
  )
}

/**
 * Initialized ticks, pool-level positions and NFT positions (from mints, burns and position-manager events; the ticks
 * of a pool tracked from before the start block start from its tick_snapshots).
 */
export const derivePositions = (sql: SqlClient.SqlClient, chainId: number, f: Filter) => {
  const w = where(f, "pool")
  const p = params(chainId, f)
  return Effect.all(
    [
      run(
        sql,
        `
      INSERT INTO ticks (chain_id, pool, tick, liquidity_gross, liquidity_net)
      SELECT $1, pool, tick, sum(gross), sum(net) FROM (
        SELECT pool, tick_lower AS tick, amount AS gross, amount AS net FROM mints WHERE chain_id = $1 AND ${w}
        UNION ALL SELECT pool, tick_upper, amount, -amount FROM mints WHERE chain_id = $1 AND ${w}
        UNION ALL SELECT pool, tick_lower, -amount, -amount FROM burns WHERE chain_id = $1 AND ${w}
        UNION ALL SELECT pool, tick_upper, -amount, amount FROM burns WHERE chain_id = $1 AND ${w}
        UNION ALL SELECT pool, tick, liquidity_gross, liquidity_net FROM tick_snapshots WHERE chain_id = $1 AND ${w}
      ) x GROUP BY pool, tick
      ON CONFLICT (chain_id, pool, tick) DO UPDATE SET
        liquidity_gross = ticks.liquidity_gross + excluded.liquidity_gross,
        liquidity_net = ticks.liquidity_net + excluded.liquidity_net`,
        p
      ),
      run(
        sql,
        `
      INSERT INTO positions (chain_id, pool, owner, tick_lower, tick_upper, liquidity, deposited0, deposited1, withdrawn0, withdrawn1)
      SELECT $1, pool, owner, tick_lower, tick_upper, sum(liq), sum(d0), sum(d1), sum(w0), sum(w1) FROM (
        SELECT pool, owner, tick_lower, tick_upper, amount AS liq, amount0 AS d0, amount1 AS d1, 0 AS w0, 0 AS w1
        FROM mints WHERE chain_id = $1 AND ${w}
        UNION ALL SELECT pool, owner, tick_lower, tick_upper, -amount, 0, 0, amount0, amount1 FROM burns WHERE chain_id = $1 AND ${w}
      ) x GROUP BY pool, owner, tick_lower, tick_upper
      ON CONFLICT (chain_id, pool, owner, tick_lower, tick_upper) DO UPDATE SET
        liquidity = positions.liquidity + excluded.liquidity,
        deposited0 = positions.deposited0 + excluded.deposited0, deposited1 = positions.deposited1 + excluded.deposited1,
        withdrawn0 = positions.withdrawn0 + excluded.withdrawn0, withdrawn1 = positions.withdrawn1 + excluded.withdrawn1`,
        p
      ),
      run(
        sql,
        `
      INSERT INTO nft_positions (chain_id, token_id, pool, owner, tick_lower, tick_upper, liquidity,
                                 deposited0, deposited1, withdrawn0, withdrawn1, collected0, collected1)
      SELECT $1, token_id, max(pool),
        coalesce((array_agg(to_address ORDER BY block_number DESC, log_index DESC) FILTER (WHERE kind = 'transfer'))[1], ''),
        coalesce(max(tick_lower), 0), coalesce(max(tick_upper), 0),
        coalesce(sum(liquidity) FILTER (WHERE kind = 'increase'), 0) - coalesce(sum(liquidity) FILTER (WHERE kind = 'decrease'), 0),
        coalesce(sum(amount0) FILTER (WHERE kind = 'increase'), 0), coalesce(sum(amount1) FILTER (WHERE kind = 'increase'), 0),
        coalesce(sum(amount0) FILTER (WHERE kind = 'decrease'), 0), coalesce(sum(amount1) FILTER (WHERE kind = 'decrease'), 0),
        coalesce(sum(amount0) FILTER (WHERE kind = 'collect'), 0), coalesce(sum(amount1) FILTER (WHERE kind = 'collect'), 0)
      FROM position_events WHERE chain_id = $1 AND ${w} GROUP BY token_id
      ON CONFLICT (chain_id, token_id) DO UPDATE SET
        owner = CASE WHEN excluded.owner = '' THEN nft_positions.owner ELSE excluded.owner END,
        liquidity = nft_positions.liquidity + excluded.liquidity,
        deposited0 = nft_positions.deposited0 + excluded.deposited0, deposited1 = nft_positions.deposited1 + excluded.deposited1,
        withdrawn0 = nft_positions.withdrawn0 + excluded.withdrawn0, withdrawn1 = nft_positions.withdrawn1 + excluded.withdrawn1,
        collected0 = nft_positions.collected0 + excluded.collected0, collected1 = nft_positions.collected1 + excluded.collected1`,
        p
      )
    ],
    { discard: true, concurrency: 1 }
  )
}

/**
 * After ticks and slot0: in-range liquidity (Σ liquidityNet of ticks ≤ current tick), price, and TVL of the pools (the
 * one recorded with the pool's latest Swap, Mint, Burn or Collect: liquidity changes move it too).
 */
export const refreshPoolSummaries = (sql: SqlClient.SqlClient, chainId: number, pools: ReadonlyArray<string>) =>
  pools.length === 0
    ? Effect.void
    : Effect.all(
        [
          run(sql, `DELETE FROM ticks WHERE chain_id = $1 AND pool = ANY($2::text[]) AND liquidity_gross = 0`, [
            chainId,
            pools
          ]),
          run(
            sql,
            `
      UPDATE pool_states ps SET
        liquidity = coalesce((SELECT sum(liquidity_net) FROM ticks t
                              WHERE t.chain_id = ps.chain_id AND t.pool = ps.pool AND t.tick <= ps.tick), 0),
        price = CASE WHEN ps.sqrt_price_x96 IS NULL THEN NULL
                ELSE power(ps.sqrt_price_x96::float8 / (2::float8 ^ 96), 2) * power(10::float8, t0.decimals - t1.decimals) END,
        tvl_usd = (SELECT tvl_usd FROM (${["swaps", "mints", "burns", "collects", "pool_snapshots"]
          .map(
            (e) => `
                     (SELECT block_number, log_index, tvl_usd FROM ${e} e WHERE e.chain_id = ps.chain_id AND e.pool = ps.pool
                      ORDER BY block_number DESC, log_index DESC LIMIT 1)`
          )
          .join(" UNION ALL ")}
                   ) latest ORDER BY block_number DESC, log_index DESC LIMIT 1)
      FROM pools p
        JOIN tokens t0 ON t0.chain_id = p.chain_id AND t0.address = p.token0
        JOIN tokens t1 ON t1.chain_id = p.chain_id AND t1.address = p.token1
      WHERE ps.chain_id = $1 AND ps.pool = ANY($2::text[]) AND p.chain_id = ps.chain_id AND p.address = ps.pool`,
            [chainId, pools]
          )
        ],
        { discard: true, concurrency: 1 }
      )

const usdSumMerge = (table: string) =>
  `volume_usd = CASE WHEN ${table}.volume_usd IS NULL AND excluded.volume_usd IS NULL THEN NULL
                ELSE coalesce(${table}.volume_usd, 0) + coalesce(excluded.volume_usd, 0) END`

/**
 * How a candle row of some swaps merges into the stored row of the same bucket (earlier swaps): open kept, high/low
 * widened, close and TVL replaced, sums added. Shared by this SQL and the candles folded in memory (store/Folded.ts).
 */
export const poolCandleMerge = `ON CONFLICT (chain_id, pool, period, bucket_start) DO UPDATE SET
        high = greatest(pool_candles.high, excluded.high), low = least(pool_candles.low, excluded.low),
        close = excluded.close, volume0 = pool_candles.volume0 + excluded.volume0,
        volume1 = pool_candles.volume1 + excluded.volume1, ${usdSumMerge("pool_candles")},
        tvl_usd = excluded.tvl_usd, swap_count = pool_candles.swap_count + excluded.swap_count`
/** As `poolCandleMerge`; token prices may be null (no USD path), so open and close keep the known value. */
export const tokenCandleMerge = `ON CONFLICT (chain_id, token, period, bucket_start) DO UPDATE SET
        open = coalesce(token_candles.open, excluded.open),
        high = greatest(token_candles.high, excluded.high), low = least(token_candles.low, excluded.low),
        close = coalesce(excluded.close, token_candles.close), volume = token_candles.volume + excluded.volume,
        ${usdSumMerge("token_candles")}, swap_count = token_candles.swap_count + excluded.swap_count`

/**
 * Hourly and daily candles per pool and per token (keys: pools and tokens, from `since`), from the swaps in SQL: the
 * recomputation after a reorg. The forward path folds them in memory instead (project/Candles.ts).
 */
export const deriveCandles = (
  sql: SqlClient.SqlClient,
  chainId: number,
  f: Filter,
  tokens: ReadonlyArray<string> = []
) => {
  const poolWhere =
    f.kind === "range" ? where(f, "pool", "s.") : `s.pool = ANY($2::text[]) AND s.block_timestamp >= to_timestamp($3)`
  const tokenParams = f.kind === "range" ? params(chainId, f) : [chainId, tokens, f.since]
  if (f.kind === "keys" && f.keys.length === 0 && tokens.length === 0) return Effect.void
  const tokenWhere =
    f.kind === "range"
      ? where(f, "pool", "s.")
      : `s.block_timestamp >= to_timestamp($3) AND (p.token0 = ANY($2::text[]) OR p.token1 = ANY($2::text[]))`
  const tokenFilter = f.kind === "range" ? "" : `WHERE x.token = ANY($2::text[])`
  return Effect.all(
    [
      run(
        sql,
        `
      INSERT INTO pool_candles (chain_id, pool, period, bucket_start, open, high, low, close, volume0, volume1,
                                volume_usd, tvl_usd, swap_count)
      SELECT $1, s.pool, per.period, date_bin(per.step, s.block_timestamp, ${BUCKET_ORIGIN}) AS bucket,
        (array_agg(s.price ORDER BY s.block_number, s.log_index))[1], max(s.price), min(s.price),
        (array_agg(s.price ORDER BY s.block_number DESC, s.log_index DESC))[1],
        sum(abs(s.amount0)), sum(abs(s.amount1)), sum(s.amount_usd::numeric),
        (array_agg(s.tvl_usd ORDER BY s.block_number DESC, s.log_index DESC))[1], count(*)
      FROM swaps s CROSS JOIN ${PERIODS}
      WHERE s.chain_id = $1 AND ${poolWhere}
      GROUP BY s.pool, per.period, bucket
      ${poolCandleMerge}`,
        f.kind === "range" ? params(chainId, f) : [chainId, f.keys, f.since]
      ),
      run(
        sql,
        `
      INSERT INTO token_candles (chain_id, token, period, bucket_start, open, high, low, close, volume, volume_usd, swap_count)
      SELECT $1, x.token, per.period, date_bin(per.step, x.block_timestamp, ${BUCKET_ORIGIN}) AS bucket,
        (array_agg(x.price_usd ORDER BY x.block_number, x.log_index) FILTER (WHERE x.price_usd IS NOT NULL))[1],
        max(x.price_usd), min(x.price_usd),
        (array_agg(x.price_usd ORDER BY x.block_number DESC, x.log_index DESC) FILTER (WHERE x.price_usd IS NOT NULL))[1],
        sum(x.volume), sum(x.amount_usd::numeric), count(*)
      FROM (
        SELECT p.token0 AS token, s.token0_price_usd AS price_usd, abs(s.amount0) AS volume, s.amount_usd,
               s.block_number, s.log_index, s.block_timestamp
        FROM swaps s JOIN pools p ON p.chain_id = s.chain_id AND p.address = s.pool WHERE s.chain_id = $1 AND ${tokenWhere}
        UNION ALL
        SELECT p.token1, s.token1_price_usd, abs(s.amount1), s.amount_usd, s.block_number, s.log_index, s.block_timestamp
        FROM swaps s JOIN pools p ON p.chain_id = s.chain_id AND p.address = s.pool WHERE s.chain_id = $1 AND ${tokenWhere}
      ) x CROSS JOIN ${PERIODS}
      ${tokenFilter}
      GROUP BY x.token, per.period, bucket
      ${tokenCandleMerge}`,
        tokenParams
      )
    ],
    { discard: true, concurrency: 1 }
  )
}
