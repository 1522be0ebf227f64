import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { defaultIndexerSettings, IndexerConfig, type IndexerSettings } from "../../src/indexer/IndexerConfig.ts"
import { Indexer, IndexerServicesLive } from "../../src/indexer/Indexer.ts"
import { IndexerSource } from "../../src/indexer/IndexerSource.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import type { Devnet } from "./devnet.ts"

/** The indexer's services over a devnet (no fiber), with the test settings of `indexerLayer`. */
export const indexerServicesOf = (
  d: Devnet,
  overrides: Partial<IndexerSettings> = {},
  source: Partial<Pick<IndexerSource["Service"], "reindexOnDeepReorg" | "client" | "heads" | "endpoints">> = {}
) =>
  IndexerServicesLive(31337).pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        IndexerSource.make({
          client: d.chain.public,
          chainId: 31337,
          startBlock: d.startBlock,
          contracts: d.contracts,
          baseTokens: [],
          ...source
        }),
        IndexerConfig.layerWith({
          ...defaultIndexerSettings(31337),
          finalityDepth: 32,
          pollIntervalMs: 50,
          ...overrides
        })
      )
    )
  )

/** The indexer fiber over a devnet, with test settings (fast polling, a finality window deep enough for the reorg tests). */
export const indexerLayer = (
  d: Devnet,
  overrides: Partial<IndexerSettings> = {},
  source: Partial<Pick<IndexerSource["Service"], "reindexOnDeepReorg" | "client" | "heads" | "endpoints">> = {}
) => Indexer.layer.pipe(Layer.provideMerge(indexerServicesOf(d, overrides, source)))

export const indexedTables = [
  "launches",
  "skipped_launches",
  "graduation_events",
  "fuel_events",
  "fee_claims",
  "registry_events",
  "token_transfers",
  "pools",
  "pool_initializations",
  "swaps",
  "mints",
  "burns",
  "collects",
  "position_events",
  "tokens",
  "token_balances",
  "pool_states",
  "ticks",
  "positions",
  "nft_positions",
  "pool_candles",
  "token_candles"
] as const

/** Every indexed table as sorted JSON text (plus the checkpoint), to compare two databases row for row. */
export const dumpTables = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const out: Record<string, string> = {}
  for (const table of indexedTables) {
    const rows = yield* sql.unsafe(
      `SELECT coalesce(json_agg(x ORDER BY x::text), '[]')::text AS j FROM (SELECT * FROM ${table}) x`
    )
    out[table] = (rows[0] as { j: string }).j
  }
  const cp = yield* sql.unsafe(`SELECT block_number::text || ':' || block_hash AS c FROM indexer_checkpoints`)
  out.checkpoint = (cp[0] as { c: string } | undefined)?.c ?? ""
  return out
})

/** Indexes a fresh database (Layer.fresh: not the file's memoized one) from the start block to `block` and dumps it. */
export const freshDump = (d: Devnet, block: bigint) =>
  Effect.gen(function* () {
    yield* (yield* IndexerStatus).awaitBlock(block, "60 seconds")
    return yield* dumpTables
  }).pipe(Effect.provide(indexerLayer(d).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)))))
