import { Context, Data, Effect, Layer, Option, type Scope } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { BlockHeader, TokenMetadata } from "../fetch/ChainReader.ts"
import { type BatchRows, eventTables, type Row } from "../project/Rows.ts"
import { addPool, emptyState, type ProjectionState } from "../project/State.ts"
import { bulkInsert } from "./Bulk.ts"
import {
  deriveCandles,
  derivePools,
  derivePositions,
  deriveTokens,
  refreshPoolSummaries,
  refreshTokenSummaries
} from "./Derive.ts"
import { upsertFolded } from "./Folded.ts"
import { insertSnapshots, type SnapshotValue } from "./Snapshots.ts"
import type { PoolSnapshot } from "../bootstrap/PoolReads.ts"

export interface Checkpoint {
  readonly blockNumber: bigint
  readonly hash: string
  readonly timestamp: bigint
}

export interface CommitInput {
  readonly rows: BatchRows
  readonly tokenMetadata: ReadonlyMap<string, TokenMetadata>
  readonly from: bigint
  readonly to: BlockHeader
  /** Headers of the batch's blocks that are not final yet (kept to find a common ancestor later). */
  readonly unfinalized: ReadonlyArray<BlockHeader>
  /** Stored hashes below this block are dropped (final). */
  readonly finalizedBelow: bigint
}

/**
 * Where a rollback ends: on a block the chain still has (it becomes the checkpoint), or before the start block: no
 * checkpoint, so the next batch starts at the start block and is not checked against a parent it never indexed.
 */
export type RollbackTarget =
  | { readonly _tag: "Block"; readonly header: BlockHeader }
  | { readonly _tag: "BeforeStart"; readonly startBlock: bigint }

/** The last block a rollback keeps (everything above it is deleted). */
export const rollbackKeeps = (target: RollbackTarget): bigint =>
  target._tag === "Block" ? target.header.number : target.startBlock - 1n

/** What a batch or a rollback changed, for the change event. */
export interface Touched {
  readonly pools: ReadonlyArray<string>
  readonly tokens: ReadonlyArray<string>
}

const rowsOf = <A>(rows: ReadonlyArray<unknown>) => rows as ReadonlyArray<A>

/**
 * The writer lock is gone: its connection dropped (the server released the lock, another process may hold it now).
 * Nothing was written; the indexer must stop and take the lock again before it writes anything.
 */
export class WriterLockLost extends Data.TaggedError("WriterLockLost")<{ readonly message: string }> {}

/** A write (commit or rollback): a database failure, or the writer lock gone (nothing written). */
export type WriteError = SqlError.SqlError | WriterLockLost

/** The backend that holds the writer lock, identified by pid and start time (a pid alone can be reused). */
interface LockHolder {
  readonly key: bigint
  readonly pid: number
  readonly backendStart: string
}

/**
 * The bigint advisory key as pg_locks shows it (classid = high 32 bits, objid = low 32 bits, objsubid 1), and the
 * commit section's key: the two-int form (objsubid 2, a separate key space) of the same number.
 */
const lockParts = (key: bigint) => ({
  classid: (BigInt.asUintN(64, key) >> 32n).toString(),
  objid: (key & 0xffffffffn).toString()
})
const commitSectionKey = (key: bigint) =>
  [Number(BigInt.asIntN(32, key >> 32n)), Number(BigInt.asIntN(32, key))] as const

/**
 * The store stage: one transaction per batch (event rows, new pools and tokens, the derived tables, the checkpoint and
 * the unfinalized block hashes), the rollback to a common ancestor, and the single-writer lock.
 */
export class Store extends Context.Service<
  Store,
  {
    readonly checkpoint: Effect.Effect<Option.Option<Checkpoint>, SqlError.SqlError>
    readonly storedHash: (blockNumber: bigint) => Effect.Effect<Option.Option<string>, SqlError.SqlError>
    /** The parent hash kept with an unfinalized block (indexer_blocks), which names the block below it. */
    readonly storedParentHash: (blockNumber: bigint) => Effect.Effect<Option.Option<string>, SqlError.SqlError>
    readonly loadState: (
      weth: string,
      stablecoins: ReadonlyMap<string, number>,
      base: ReadonlyArray<string>
    ) => Effect.Effect<ProjectionState, SqlError.SqlError>
    readonly ensureTokens: (tokens: ReadonlyMap<string, TokenMetadata>) => Effect.Effect<void, SqlError.SqlError>
    readonly commit: (input: CommitInput) => Effect.Effect<Touched, WriteError>
    /** Which of `addresses` (lowercase) already have a row in `table`. */
    readonly known: (
      table: "pools" | "tokens",
      addresses: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlySet<string>, SqlError.SqlError>
    /** Pools read at `block` (bootstrap/Bootstrap.ts) written as indexed up to it, with their new tokens. */
    readonly bootstrap: (
      block: BlockHeader,
      snapshots: ReadonlyArray<PoolSnapshot>,
      tokenMetadata: ReadonlyMap<string, TokenMetadata>,
      values: ReadonlyMap<string, SnapshotValue>
    ) => Effect.Effect<void, WriteError>
    readonly rollback: (target: RollbackTarget) => Effect.Effect<Touched, WriteError>
    /**
     * Holds a session-level advisory lock for the scope; waits (polling) while another process holds it. Every commit
     * and rollback then proves the lock is still held (else fails with WriterLockLost and writes nothing).
     */
    readonly lock: (key: number, onWait: Effect.Effect<void>) => Effect.Effect<void, SqlError.SqlError, Scope.Scope>
  }
>()("app/indexer/Store") {
  static readonly layer = (chainId: number) => Layer.effect(Store, make(chainId))
}

const make = (chainId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    let holder: LockHolder | undefined

    /**
     * First statement of every writing transaction: proves that the lock connection still holds the writer lock.
     * It takes the commit section (a transaction-level advisory lock, released at commit) and then looks the lock up
     * in pg_locks by the holder's pid and backend start. A new holder passes the same section before it reads the
     * checkpoint (see `lock`), so a batch that passed this check is committed before another writer starts, and a
     * batch that did not pass writes nothing.
     */
    const fence = Effect.suspend(() => {
      if (holder === undefined) return Effect.void
      const { key, pid, backendStart } = holder
      const { classid, objid } = lockParts(key)
      const [k1, k2] = commitSectionKey(key)
      return sql<{ held: boolean }>`
      SELECT EXISTS (
        SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.classid = ${classid}::oid
          AND l.objid = ${objid}::oid AND l.pid = ${pid} AND a.backend_start = ${backendStart}::timestamptz
      ) AS held
      FROM (SELECT pg_advisory_xact_lock(${k1}::int4, ${k2}::int4)) section`.pipe(
        Effect.flatMap((rows) =>
          rows[0]?.held === true
            ? Effect.void
            : Effect.fail(
                new WriterLockLost({
                  message: `the writer lock (key ${key}) is no longer held by this indexer's connection (pid ${pid})`
                })
              )
        )
      )
    })

    const tokenRows = (
      metadata: ReadonlyMap<string, TokenMetadata>,
      firstBlock: (a: string) => bigint,
      isLaunch: (a: string) => boolean
    ): Array<Row> =>
      [...metadata].map(([address, m]) => ({
        chain_id: chainId,
        address,
        name: m.name.replaceAll("\u0000", ""),
        symbol: m.symbol.replaceAll("\u0000", ""),
        decimals: m.decimals,
        total_supply: m.totalSupply,
        is_launch: isLaunch(address),
        first_block: firstBlock(address)
      }))

    const loadState = (weth: string, stablecoins: ReadonlyMap<string, number>, base: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const state = emptyState(weth, stablecoins, base)
        const tokens = rowsOf<{ address: string; decimals: number; isLaunch: boolean }>(
          yield* sql`SELECT address, decimals, is_launch FROM tokens WHERE chain_id = ${chainId}`
        )
        for (const t of tokens) state.tokens.set(t.address, { decimals: t.decimals, isLaunch: t.isLaunch })
        const launches = rowsOf<{ token: string; pool: string }>(
          yield* sql`SELECT token, pool FROM launches WHERE chain_id = ${chainId}`
        )
        const launchOfPool = new Map(launches.map((l) => [l.pool, l.token]))
        // Registration order decides the reference pools, as it did when the pools were first seen.
        const pools = rowsOf<{
          address: string
          token0: string
          token1: string
          fee: number
          sqrtPriceX96: string | null
          reserve0: string | null
          reserve1: string | null
          tick: number | null
          liquidity: string | null
        }>(
          yield* sql`
        SELECT p.address, p.token0, p.token1, p.fee, s.sqrt_price_x96, s.reserve0, s.reserve1, s.tick, s.liquidity
        FROM pools p LEFT JOIN pool_states s ON s.chain_id = p.chain_id AND s.pool = p.address
        WHERE p.chain_id = ${chainId} ORDER BY p.block_number, p.log_index`
        )
        for (const p of pools) {
          addPool(
            state,
            {
              address: p.address,
              token0: p.token0,
              token1: p.token1,
              fee: p.fee,
              sqrtPriceX96: p.sqrtPriceX96 === null ? null : BigInt(p.sqrtPriceX96),
              reserve0: BigInt(p.reserve0 ?? 0),
              reserve1: BigInt(p.reserve1 ?? 0),
              tick: p.tick,
              liquidity: BigInt(p.liquidity ?? 0)
            },
            launchOfPool.get(p.address)
          )
        }
        const positions = rowsOf<{ tokenId: string; pool: string }>(
          yield* sql`SELECT DISTINCT token_id::text AS token_id, pool FROM position_events WHERE chain_id = ${chainId}`
        )
        for (const p of positions) state.positions.set(p.tokenId, p.pool)
        const config = rowsOf<{ args: Record<string, string> | string }>(
          yield* sql`
      SELECT args FROM registry_events WHERE chain_id = ${chainId} AND name = 'LaunchConfigUpdated'
      ORDER BY block_number DESC, log_index DESC LIMIT 1`
        )[0]
        if (config !== undefined) {
          const a = (typeof config.args === "string" ? JSON.parse(config.args) : config.args) as Record<
            string,
            string | number
          >
          state.launchConfig = {
            fee: Number(a.fee),
            tickLower: Number(a.tickLower),
            tickUpper: Number(a.tickUpper),
            sqrtPriceX96: BigInt(a.sqrtPriceX96!),
            sqrtPriceX96Inverted: BigInt(a.sqrtPriceX96Inverted!)
          }
        }
        return state
      })

    const commit = (input: CommitInput) => {
      const { rows } = input
      const isLaunch = new Set(rows.newTokens.filter((t) => t.isLaunch).map((t) => t.address))
      const firstBlocks = new Map(rows.newTokens.map((t) => [t.address, t.firstBlock]))
      const range = { kind: "range" as const, from: input.from, to: input.to.number }
      return sql.withTransaction(
        Effect.gen(function* () {
          yield* fence
          yield* bulkInsert(
            sql,
            "tokens",
            tokenRows(
              input.tokenMetadata,
              (a) => firstBlocks.get(a) ?? input.from,
              (a) => isLaunch.has(a)
            ),
            "ON CONFLICT (chain_id, address) DO NOTHING"
          )
          yield* bulkInsert(sql, "pools", rows.pools)
          yield* bulkInsert(
            sql,
            "pool_states",
            rows.pools.map((p) => ({ chain_id: chainId, pool: p.address, last_block: p.block_number }))
          )
          for (const table of eventTables) yield* bulkInsert(sql, table, rows.events[table])
          const touchedPools = [...rows.touchedPools]
          const poolTokens =
            touchedPools.length === 0
              ? []
              : rowsOf<{ token: string }>(
                  yield* sql`
        SELECT token0 AS token FROM pools WHERE chain_id = ${chainId} AND address = ANY(${touchedPools}::text[])
        UNION SELECT token1 FROM pools WHERE chain_id = ${chainId} AND address = ANY(${touchedPools}::text[])`
                ).map((r) => r.token)
          const touchedTokens = [...new Set([...rows.touchedTokens, ...poolTokens])]
          // Balances, pool states and candles come folded from the projection; ticks and positions (few events) are
          // still folded by SQL over the batch's range. Then the summaries that read them.
          yield* upsertFolded(sql, chainId, rows.folded)
          const ev = rows.events
          if (ev.mints.length + ev.burns.length + ev.position_events.length > 0)
            yield* derivePositions(sql, chainId, range)
          yield* refreshPoolSummaries(sql, chainId, touchedPools)
          yield* refreshTokenSummaries(sql, chainId, touchedTokens)
          yield* bulkInsert(
            sql,
            "indexer_blocks",
            input.unfinalized.map((b) => ({
              chain_id: chainId,
              number: b.number,
              hash: b.hash,
              parent_hash: b.parentHash,
              timestamp: Number(b.timestamp)
            })),
            "ON CONFLICT (chain_id, number) DO UPDATE SET hash = excluded.hash, parent_hash = excluded.parent_hash, timestamp = excluded.timestamp"
          )
          yield* sql`DELETE FROM indexer_blocks WHERE chain_id = ${chainId} AND number < ${input.finalizedBelow.toString()}::int8`
          yield* sql`
        INSERT INTO indexer_checkpoints (chain_id, block_number, block_hash, block_timestamp, updated_at)
        VALUES (${chainId}, ${input.to.number.toString()}::int8, ${input.to.hash}, to_timestamp(${Number(input.to.timestamp)}), now())
        ON CONFLICT (chain_id) DO UPDATE SET block_number = excluded.block_number, block_hash = excluded.block_hash,
          block_timestamp = excluded.block_timestamp, updated_at = excluded.updated_at`
          return { pools: touchedPools, tokens: touchedTokens }
        })
      )
    }

    const rollback = (target: RollbackTarget) =>
      sql.withTransaction(
        Effect.gen(function* () {
          yield* fence
          const a = rollbackKeeps(target).toString()
          const above = (table: string, column: string) =>
            `SELECT DISTINCT ${column} AS k FROM ${table} WHERE chain_id = $1 AND block_number > $2::int8`
          const keys = (text: string) =>
            sql
              .unsafe(text, [chainId, a])
              .pipe(Effect.map((rs) => (rs as ReadonlyArray<{ k: string }>).map((r) => r.k)))
          const touchedPools = yield* keys(
            ["swaps", "mints", "burns", "collects", "pool_initializations", "position_events", "pool_snapshots"]
              .map((t) => above(t, "pool"))
              .join(" UNION ")
          )
          const eventTokens = yield* keys(
            ["token_transfers", "fuel_events", "graduation_events"].map((t) => above(t, "token")).join(" UNION ")
          )
          const poolTokens =
            touchedPools.length === 0
              ? []
              : rowsOf<{ k: string }>(
                  yield* sql`
      SELECT token0 AS k FROM pools WHERE chain_id = ${chainId} AND address = ANY(${touchedPools}::text[])
      UNION SELECT token1 FROM pools WHERE chain_id = ${chainId} AND address = ANY(${touchedPools}::text[])`
                ).map((r) => r.k)
          const sinceRow = rowsOf<{ since: number | null }>(
            yield* sql`
      SELECT extract(epoch FROM date_bin('1 day', min(block_timestamp), TIMESTAMPTZ '2000-01-01 00:00:00+00'))::float8 AS since
      FROM swaps WHERE chain_id = ${chainId} AND block_number > ${a}::int8`
          )
          const since = sinceRow[0]?.since ?? null
          const deadPools = yield* keys(
            `SELECT address AS k FROM pools WHERE chain_id = $1 AND block_number > $2::int8`
          )
          const deadTokens = yield* keys(
            `SELECT address AS k FROM tokens WHERE chain_id = $1 AND first_block > $2::int8`
          )

          // A pool snapshot above the kept block goes with its pool (re-read at the next start: Bootstrap.ts).
          for (const table of [...eventTables, "pool_snapshots", "tick_snapshots"])
            yield* sql.unsafe(`DELETE FROM ${table} WHERE chain_id = $1 AND block_number > $2::int8`, [chainId, a])
          for (const table of ["pool_states", "ticks", "positions", "nft_positions", "pool_candles"]) {
            yield* sql.unsafe(`DELETE FROM ${table} WHERE chain_id = $1 AND pool = ANY($2::text[])`, [
              chainId,
              deadPools
            ])
          }
          yield* sql`DELETE FROM pools WHERE chain_id = ${chainId} AND block_number > ${a}::int8`
          for (const table of ["token_balances", "token_candles"]) {
            yield* sql.unsafe(`DELETE FROM ${table} WHERE chain_id = $1 AND token = ANY($2::text[])`, [
              chainId,
              deadTokens
            ])
          }
          yield* sql`DELETE FROM tokens WHERE chain_id = ${chainId} AND first_block > ${a}::int8`

          const dead = new Set([...deadPools, ...deadTokens])
          const pools = touchedPools.filter((p) => !dead.has(p))
          const tokens = [...new Set([...eventTokens, ...poolTokens])].filter((t) => !dead.has(t))
          // Zero the touched keys' derived rows, then fold all their remaining events again (see Derive.ts).
          yield* sql`DELETE FROM token_balances WHERE chain_id = ${chainId} AND token = ANY(${tokens}::text[])`
          yield* sql`UPDATE tokens SET transfer_count = 0 WHERE chain_id = ${chainId} AND address = ANY(${tokens}::text[])`
          for (const table of ["ticks", "positions", "nft_positions"]) {
            yield* sql.unsafe(`DELETE FROM ${table} WHERE chain_id = $1 AND pool = ANY($2::text[])`, [chainId, pools])
          }
          yield* sql`
      UPDATE pool_states ps SET sqrt_price_x96 = NULL, tick = NULL, liquidity = 0, reserve0 = 0, reserve1 = 0, volume0 = 0,
        volume1 = 0, fees0 = 0, fees1 = 0, volume_usd = 0, swap_count = 0, mint_count = 0, burn_count = 0, price = NULL,
        tvl_usd = NULL, last_block = p.block_number
      FROM pools p WHERE ps.chain_id = ${chainId} AND ps.pool = ANY(${pools}::text[]) AND p.chain_id = ps.chain_id AND p.address = ps.pool`
          yield* deriveTokens(sql, chainId, { kind: "keys", keys: tokens, since: 0 })
          yield* derivePools(sql, chainId, { kind: "keys", keys: pools, since: 0 })
          yield* refreshPoolSummaries(sql, chainId, pools)
          if (since !== null) {
            yield* sql`DELETE FROM pool_candles WHERE chain_id = ${chainId} AND pool = ANY(${pools}::text[]) AND bucket_start >= to_timestamp(${since})`
            yield* sql`DELETE FROM token_candles WHERE chain_id = ${chainId} AND token = ANY(${tokens}::text[]) AND bucket_start >= to_timestamp(${since})`
            yield* deriveCandles(sql, chainId, { kind: "keys", keys: pools, since }, tokens)
          }
          yield* refreshTokenSummaries(sql, chainId, tokens)
          yield* sql`DELETE FROM indexer_blocks WHERE chain_id = ${chainId} AND number > ${a}::int8`
          if (target._tag === "Block") {
            yield* sql`
        UPDATE indexer_checkpoints SET block_number = ${a}::int8, block_hash = ${target.header.hash},
          block_timestamp = to_timestamp(${Number(target.header.timestamp)}), updated_at = now()
        WHERE chain_id = ${chainId}`
          } else {
            yield* sql`DELETE FROM indexer_checkpoints WHERE chain_id = ${chainId}`
          }
          return { pools: [...new Set([...touchedPools])], tokens: [...new Set([...tokens, ...deadTokens])] }
        })
      )

    return Store.of({
      checkpoint: sql`SELECT block_number, block_hash, extract(epoch FROM block_timestamp)::int8 AS ts
                    FROM indexer_checkpoints WHERE chain_id = ${chainId}`.pipe(
        Effect.map((rs) => {
          const r = rs[0] as { blockNumber: bigint; blockHash: string; ts: bigint } | undefined
          return r === undefined
            ? Option.none()
            : Option.some({ blockNumber: BigInt(r.blockNumber), hash: r.blockHash, timestamp: BigInt(r.ts) })
        })
      ),
      storedParentHash: (n) =>
        sql`SELECT parent_hash FROM indexer_blocks WHERE chain_id = ${chainId} AND number = ${n.toString()}::int8`.pipe(
          Effect.map((rs) => Option.fromNullishOr((rs[0] as { parentHash: string } | undefined)?.parentHash))
        ),
      storedHash: (n) =>
        sql`SELECT hash FROM indexer_blocks WHERE chain_id = ${chainId} AND number = ${n.toString()}::int8
          UNION ALL SELECT block_hash FROM indexer_checkpoints WHERE chain_id = ${chainId} AND block_number = ${n.toString()}::int8`.pipe(
          Effect.map((rs) => Option.fromNullishOr((rs[0] as { hash: string } | undefined)?.hash))
        ),
      loadState,
      ensureTokens: (metadata) =>
        bulkInsert(
          sql,
          "tokens",
          tokenRows(
            metadata,
            () => 0n,
            () => false
          ),
          "ON CONFLICT (chain_id, address) DO NOTHING"
        ),
      commit,
      known: (table, addresses) =>
        addresses.length === 0
          ? Effect.succeed(new Set<string>())
          : sql
              .unsafe(`SELECT address FROM ${table} WHERE chain_id = $1 AND address = ANY($2::text[])`, [
                chainId,
                addresses
              ])
              .pipe(Effect.map((rs) => new Set((rs as ReadonlyArray<{ address: string }>).map((r) => r.address)))),
      bootstrap: (block, snapshots, tokenMetadata, values) =>
        sql.withTransaction(
          fence.pipe(
            Effect.andThen(
              insertSnapshots(
                sql,
                chainId,
                block,
                snapshots,
                tokenRows(
                  tokenMetadata,
                  () => block.number,
                  () => false
                ),
                values
              )
            )
          )
        ),
      rollback,
      lock: (key, onWait) =>
        Effect.gen(function* () {
          const k = BigInt(Math.trunc(key))
          const connection = yield* sql.reserve
          for (;;) {
            const rows = yield* connection.executeUnprepared(`SELECT pg_try_advisory_lock(${k}) AS ok`, [], undefined)
            if ((rows[0] as { ok: boolean }).ok) break
            yield* onWait
            yield* Effect.sleep("1 second")
          }
          yield* Effect.addFinalizer(() =>
            Effect.sync(() => {
              holder = undefined
            }).pipe(
              Effect.andThen(connection.executeUnprepared(`SELECT pg_advisory_unlock(${k})`, [], undefined)),
              Effect.ignore
            )
          )
          const [me] = (yield* connection.executeUnprepared(
            `SELECT pid, backend_start::text AS backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()`,
            [],
            undefined
          )) as ReadonlyArray<{ pid: number; backend_start?: string; backendStart?: string }>
          // Wait for a previous holder's batch that passed its fence to commit, so the checkpoint read next includes it.
          const [k1, k2] = commitSectionKey(k)
          yield* connection.executeUnprepared(`SELECT pg_advisory_lock(${k1}, ${k2})`, [], undefined)
          yield* connection.executeUnprepared(`SELECT pg_advisory_unlock(${k1}, ${k2})`, [], undefined)
          holder = { key: k, pid: Number(me!.pid), backendStart: (me!.backendStart ?? me!.backend_start)! }
        })
    })
  })
