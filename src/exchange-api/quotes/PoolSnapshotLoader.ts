import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Address, PoolDelta, PoolSnapshot, PoolState, TickState } from "../../../workers/routing/types.ts"

interface PoolRow {
  readonly address: Address
  readonly token0: Address
  readonly token1: Address
  readonly fee: number
  readonly tickSpacing: number
  readonly sqrtPriceX96: string
  readonly tick: number
  readonly liquidity: string
}

/**
 * Reads the router's pool state from the indexer's tables (pools, pool_states, ticks, tokens, indexer_checkpoints)
 * in one REPEATABLE READ transaction, so pools, ticks and the block number describe the same committed state.
 * No RPC: the indexer already folded slot0, in-range liquidity and liquidityNet per initialized tick from the logs.
 * Uninitialized pools (no sqrtPrice yet) are left out, and so are pools of a token without known decimals (the
 * indexer stores them NULL): such a token is then resolved on the chain and refused (TOKEN_DECIMALS_FETCH_FAILED).
 */
export class PoolSnapshotLoader extends Context.Service<
  PoolSnapshotLoader,
  {
    readonly load: (chainId: number) => Effect.Effect<PoolSnapshot>
    /** The current states of `pools` (all pools touched by a batch); those without a usable state are `removed`. */
    readonly delta: (chainId: number, pools: ReadonlyArray<string>) => Effect.Effect<PoolDelta>
    /** Unix seconds of the last indexed block read (the chain's clock for calldata deadlines; 0 before any read). */
    readonly blockTimestamp: () => number
  }
>()("app/quotes/PoolSnapshotLoader") {
  static readonly layer = Layer.effect(
    PoolSnapshotLoader,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      let blockTimestamp = 0

      const read = (chainId: number, only: ReadonlyArray<string> | undefined) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`
              const filter = only === undefined ? sql`` : sql`AND p.address IN ${sql.in(only)}`
              const rows = yield* sql<PoolRow>`
          SELECT p.address, p.token0, p.token1, p.fee, p.tick_spacing, s.sqrt_price_x96::text, s.tick, s.liquidity::text
          FROM pools p JOIN pool_states s ON s.chain_id = p.chain_id AND s.pool = p.address
          WHERE p.chain_id = ${chainId} AND s.sqrt_price_x96 IS NOT NULL ${filter}
            AND NOT EXISTS (SELECT 1 FROM tokens t WHERE t.chain_id = p.chain_id
                              AND t.address IN (p.token0, p.token1) AND t.decimals IS NULL)`
              const tickFilter = only === undefined ? sql`` : sql`AND pool IN ${sql.in(only)}`
              const ticks = yield* sql<{ pool: string; tick: number; liquidityNet: string }>`
          SELECT pool, tick, liquidity_net::text FROM ticks
          WHERE chain_id = ${chainId} ${tickFilter} ORDER BY pool, tick`
              const [checkpoint] = yield* sql<{ blockNumber: string; seconds: number }>`
          SELECT block_number::text, extract(epoch FROM block_timestamp)::float8 AS seconds
          FROM indexer_checkpoints WHERE chain_id = ${chainId}`
              if (checkpoint !== undefined) blockTimestamp = Math.max(blockTimestamp, checkpoint.seconds)
              const byPool = new Map<string, Array<TickState>>()
              for (const t of ticks) {
                const list = byPool.get(t.pool) ?? []
                list.push({ index: t.tick, liquidityNet: BigInt(t.liquidityNet) })
                byPool.set(t.pool, list)
              }
              const pools = rows.map(
                (r): PoolState => ({
                  address: r.address,
                  token0: r.token0,
                  token1: r.token1,
                  fee: r.fee,
                  tickSpacing: r.tickSpacing,
                  sqrtPriceX96: BigInt(r.sqrtPriceX96),
                  tick: r.tick,
                  liquidity: BigInt(r.liquidity),
                  ticks: byPool.get(r.address) ?? []
                })
              )
              return { pools, blockNumber: checkpoint === undefined ? 0n : BigInt(checkpoint.blockNumber) }
            })
          )
          .pipe(Effect.orDie)

      /** Tokens of a chain (all when `addresses` is undefined) as the routing core takes them. */
      const tokensOf = (chainId: number, addresses: ReadonlyArray<string> | undefined) =>
        Effect.gen(function* () {
          if (addresses !== undefined && addresses.length === 0) return []
          const only = addresses === undefined ? sql`` : sql`AND address IN ${sql.in(addresses)}`
          const rows = yield* sql<{ address: Address; decimals: number; symbol: string }>`
          SELECT address, decimals, symbol FROM tokens WHERE chain_id = ${chainId} AND decimals IS NOT NULL ${only}`
          return rows.map((t) => ({ address: t.address, decimals: t.decimals, symbol: t.symbol }))
        }).pipe(Effect.orDie)

      return PoolSnapshotLoader.of({
        blockTimestamp: () => blockTimestamp,
        load: Effect.fn("PoolSnapshotLoader.load")(function* (chainId: number) {
          const { pools, blockNumber } = yield* read(chainId, undefined)
          return { chainId, blockNumber, pools, tokens: yield* tokensOf(chainId, undefined) }
        }),
        delta: Effect.fn("PoolSnapshotLoader.delta")(function* (chainId: number, addresses: ReadonlyArray<string>) {
          const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))]
          if (wanted.length === 0) {
            const { blockNumber } = yield* read(chainId, ["0x"])
            return { chainId, blockNumber, pools: [], removed: [] }
          }
          const { pools, blockNumber } = yield* read(chainId, wanted)
          const present = new Set<string>(pools.map((p) => p.address))
          // The pools' tokens too: a pool of a token launched after the full load brings a token the state lacks.
          const tokens = yield* tokensOf(chainId, [...new Set(pools.flatMap((p) => [p.token0, p.token1]))])
          return {
            chainId,
            blockNumber,
            pools,
            removed: wanted.filter((a) => !present.has(a)) as Array<Address>,
            tokens
          }
        })
      })
    })
  )
}
