import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

export interface PoolEventRow {
  readonly kind: "swap" | "mint" | "burn"
  readonly blockNumber: string
  readonly logIndex: number
  readonly txHash: string
  readonly timestamp: Date
  readonly sender: string | null
  readonly recipient: string | null
  readonly owner: string | null
  readonly amount0: string
  readonly amount1: string
  readonly amountUsd: number | null
  readonly liquidity: string | null
  readonly tickLower: number | null
  readonly tickUpper: number | null
  readonly sqrtPriceX96: string | null
  readonly tick: number | null
  readonly price: number | null
}

/** Swaps, mints and burns of a pool, newest first, in keyset pages (`before` = the previous page's last item). */
export class PoolEventsRepo extends Context.Service<PoolEventsRepo, ReturnType<typeof makeRepo>>()(
  "app/exchange/PoolEventsRepo"
) {
  static readonly layer = Layer.effect(
    PoolEventsRepo,
    Effect.map(SqlClient.SqlClient, (sql) => makeRepo(sql))
  )
}

const makeRepo = (sql: SqlClient.SqlClient) => {
  const older = (before: { block: bigint; logIndex: number } | undefined) =>
    before === undefined
      ? sql`true`
      : sql`(block_number, log_index) < (${before.block.toString()}::bigint, ${before.logIndex})`

  const swaps = (
    chainId: number,
    pool: string,
    before: { block: bigint; logIndex: number } | undefined,
    limit: number
  ) => sql`
    SELECT 'swap' AS kind, block_number::text AS block_number, log_index, tx_hash, block_timestamp AS timestamp, sender, recipient,
      NULL::text AS owner, amount0::text AS amount0, amount1::text AS amount1, amount_usd, liquidity::text AS liquidity,
      NULL::int AS tick_lower, NULL::int AS tick_upper, sqrt_price_x96::text AS sqrt_price_x96, tick, price
    FROM swaps WHERE chain_id = ${chainId} AND pool = ${pool} AND ${older(before)}
    ORDER BY block_number DESC, log_index DESC LIMIT ${limit}`
  const mints = (
    chainId: number,
    pool: string,
    before: { block: bigint; logIndex: number } | undefined,
    limit: number
  ) => sql`
    SELECT 'mint' AS kind, block_number::text AS block_number, log_index, tx_hash, block_timestamp AS timestamp, sender, NULL::text AS recipient,
      owner, amount0::text AS amount0, amount1::text AS amount1, NULL::float8 AS amount_usd, amount::text AS liquidity,
      tick_lower, tick_upper, NULL::text AS sqrt_price_x96, NULL::int AS tick, NULL::float8 AS price
    FROM mints WHERE chain_id = ${chainId} AND pool = ${pool} AND ${older(before)}
    ORDER BY block_number DESC, log_index DESC LIMIT ${limit}`
  const burns = (
    chainId: number,
    pool: string,
    before: { block: bigint; logIndex: number } | undefined,
    limit: number
  ) => sql`
    SELECT 'burn' AS kind, block_number::text AS block_number, log_index, tx_hash, block_timestamp AS timestamp, NULL::text AS sender,
      NULL::text AS recipient, owner, amount0::text AS amount0, amount1::text AS amount1, NULL::float8 AS amount_usd,
      amount::text AS liquidity, tick_lower, tick_upper, NULL::text AS sqrt_price_x96, NULL::int AS tick, NULL::float8 AS price
    FROM burns WHERE chain_id = ${chainId} AND pool = ${pool} AND ${older(before)}
    ORDER BY block_number DESC, log_index DESC LIMIT ${limit}`

  return {
    swaps: (chainId: number, pool: string, before: { block: bigint; logIndex: number } | undefined, limit: number) =>
      sql<PoolEventRow>`${swaps(chainId, pool, before, limit)}`,
    /** Each kind contributes at most `limit` rows (index range scans), merged and cut to `limit`. */
    activity: (
      chainId: number,
      pool: string,
      kinds: ReadonlyArray<"swap" | "mint" | "burn">,
      before: { block: bigint; logIndex: number } | undefined,
      limit: number
    ) => {
      const parts = kinds.map((k) =>
        (k === "swap" ? swaps : k === "mint" ? mints : burns)(chainId, pool, before, limit)
      )
      const union = parts.slice(1).reduce((acc, part) => sql`${acc} UNION ALL (${part})`, sql`(${parts[0]!})`)
      return sql<PoolEventRow>`SELECT * FROM (${union}) x ORDER BY block_number::bigint DESC, log_index DESC LIMIT ${limit}`
    }
  }
}
