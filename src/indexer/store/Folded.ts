import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Folded } from "../project/Rows.ts"
import { bulkInsert } from "./Bulk.ts"
import { balanceMerge, poolCandleMerge, poolStateMerge, tokenCandleMerge } from "./Derive.ts"

/**
 * Merges a batch's derived rows folded in memory by the projection (one row per pool, token, holder or candle bucket)
 * into the stored ones, with the merge rules of Derive.ts: a few small upserts instead of aggregating the batch's
 * events in SQL (for candles, `array_agg(... ORDER BY)` over every swap of the batch).
 */
export const upsertFolded = (sql: SqlClient.SqlClient, chainId: number, folded: Folded) =>
  Effect.all(
    [
      bulkInsert(sql, "token_balances", folded.balances, balanceMerge),
      folded.transferCounts.length === 0
        ? Effect.void
        : sql.unsafe(
            `
      UPDATE tokens t SET transfer_count = t.transfer_count + c.n
      FROM unnest($2::text[], $3::int8[]) AS c(token, n)
      WHERE t.chain_id = $1 AND t.address = c.token`,
            [
              chainId,
              folded.transferCounts.map((c) => c.token as string),
              folded.transferCounts.map((c) => BigInt(c.n as number))
            ]
          ),
      // slot0 is replaced only for pools whose slot0 the batch moved (a Swap or an Initialize).
      bulkInsert(
        sql,
        "pool_states",
        folded.poolStates,
        `${poolStateMerge},
        sqrt_price_x96 = coalesce(excluded.sqrt_price_x96, pool_states.sqrt_price_x96),
        tick = CASE WHEN excluded.sqrt_price_x96 IS NULL THEN pool_states.tick ELSE excluded.tick END`
      ),
      bulkInsert(sql, "pool_candles", folded.poolCandles, poolCandleMerge),
      bulkInsert(sql, "token_candles", folded.tokenCandles, tokenCandleMerge)
    ],
    { discard: true, concurrency: 1 }
  )
