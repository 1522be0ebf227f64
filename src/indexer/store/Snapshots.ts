import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { BlockHeader } from "../fetch/ChainReader.ts"
import type { PoolSnapshot } from "../bootstrap/PoolReads.ts"
import type { Row } from "../project/Rows.ts"
import { bulkInsert } from "./Bulk.ts"
import { derivePools, refreshPoolSummaries, refreshTokenSummaries } from "./Derive.ts"

/** A snapshot's tokens' USD prices and TVL at its block (null without a USD path). */
export interface SnapshotValue {
  readonly usd0: number | null
  readonly usd1: number | null
  readonly tvlUsd: number | null
}

/** The snapshot is the state at the end of its block: after every log of that block. */
export const SNAPSHOT_LOG_INDEX = 2_147_483_647
const NO_TRANSACTION = `0x${"0".repeat(64)}`

/**
 * Writes pools read at one block (Bootstrap.ts) as if they had been indexed up to it: the `pools` rows (at that
 * block), their snapshots (pool_snapshots, tick_snapshots), then the derived rows folded from them (pool_states,
 * ticks) and the summaries. Tokens rows come first (`tokens`, already in the caller's shape), so that prices have
 * their decimals. Runs inside the caller's transaction.
 */
export const insertSnapshots = (
  sql: SqlClient.SqlClient,
  chainId: number,
  block: BlockHeader,
  snapshots: ReadonlyArray<PoolSnapshot>,
  tokens: ReadonlyArray<Row>,
  values: ReadonlyMap<string, SnapshotValue>
) =>
  Effect.gen(function* () {
    const meta = {
      chain_id: chainId,
      block_number: block.number,
      log_index: SNAPSHOT_LOG_INDEX,
      tx_hash: NO_TRANSACTION,
      block_timestamp: Number(block.timestamp)
    }
    yield* bulkInsert(sql, "tokens", tokens, "ON CONFLICT (chain_id, address) DO NOTHING")
    yield* bulkInsert(
      sql,
      "pools",
      snapshots.map((p) => ({
        ...meta,
        address: p.address,
        token0: p.token0,
        token1: p.token1,
        fee: p.fee,
        tick_spacing: p.tickSpacing
      }))
    )
    yield* bulkInsert(
      sql,
      "pool_snapshots",
      snapshots.map((p) => ({
        ...meta,
        pool: p.address,
        sqrt_price_x96: p.sqrtPriceX96,
        tick: p.tick,
        liquidity: p.liquidity,
        reserve0: p.reserve0,
        reserve1: p.reserve1,
        token0_price_usd: values.get(p.address)?.usd0 ?? null,
        token1_price_usd: values.get(p.address)?.usd1 ?? null,
        tvl_usd: values.get(p.address)?.tvlUsd ?? null
      }))
    )
    yield* bulkInsert(
      sql,
      "tick_snapshots",
      snapshots.flatMap((p) =>
        p.ticks.map((t) => ({
          chain_id: chainId,
          pool: p.address,
          block_number: block.number,
          tick: t.tick,
          liquidity_gross: t.liquidityGross,
          liquidity_net: t.liquidityNet
        }))
      )
    )
    const pools = snapshots.map((p) => p.address)
    const filter = { kind: "keys" as const, keys: pools, since: 0 }
    // Statistics of the rows just written (this transaction's own rows count): on a fresh index the planner otherwise
    // sees empty tables and runs the per-pool subqueries of the summaries as scans, 173 s instead of 1.3 s at 10,000
    // pools and 80,000 ticks (docs/BENCHMARKS.md, "Bootstrap").
    yield* sql`ANALYZE tokens, pools, pool_snapshots, tick_snapshots`
    yield* derivePools(sql, chainId, filter)
    yield* sql`ANALYZE pool_states, ticks`
    yield* refreshPoolSummaries(sql, chainId, pools)
    yield* refreshTokenSummaries(sql, chainId, [...new Set(snapshots.flatMap((p) => [p.token0, p.token1]))])
  })
