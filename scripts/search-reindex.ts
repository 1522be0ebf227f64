/**
 * `npm run search:reindex`: rebuilds the search index from the indexed tables, with progress.
 *   - Typesense (TYPESENSE_URL set): collections created or migrated, every document re-imported in batches
 *     (SEARCH_BATCH_SIZE), documents not re-sent deleted, and the sync state recorded so that search services
 *     continue from the indexer checkpoint seen at the start of the run.
 *   - embedded (no TYPESENSE_URL): the index lives inside each search process and is rebuilt at its start, so this
 *     only builds the documents and an index in memory as a check, and prints the counts and timings.
 * Database: DATABASE_URL, else the embedded PostgreSQL under DATA_DIR (as npm start).
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { SearchIndexLive } from "../src/search/SearchLive.ts"
import { DatabaseLive } from "../layers/Sql.ts"
import type { PoolDocument, TokenDocument } from "../src/search/SearchDocument.ts"
import { SearchConfig } from "../src/search/SearchConfig.ts"
import { SearchDocumentsRepo } from "../src/search/SearchDocumentsRepo.ts"
import { SearchIndex } from "../src/search/SearchIndex.ts"

const program = Effect.gen(function* () {
  const index = yield* SearchIndex
  const repo = yield* SearchDocumentsRepo
  const settings = yield* SearchConfig
  const sql = yield* SqlClient.SqlClient
  const started = performance.now()
  console.log(
    `search:reindex: backend ${index.backend}${index.backend === "embedded" ? " (in-process: a check only, see the header of this script)" : ""}`
  )
  yield* index.prepare
  const checkpoints = yield* repo.checkpoints
  const totals = yield* repo.counts
  const run = yield* index.rebuild
  let phaseStart = performance.now()
  const progress = (what: string, done: number, total: number) => {
    const seconds = (performance.now() - phaseStart) / 1000
    console.log(
      `  ${what.padEnd(6)} ${String(done).padStart(9)} / ${total} (${total === 0 ? 100 : Math.floor((done / total) * 100)} %), ${(done / Math.max(seconds, 0.001)).toFixed(0)} documents/s`
    )
  }
  let done = 0
  const figures = yield* repo.tokenFigures
  for (let after: { chainId: number; address: string } | null = null; ; ) {
    const page: ReadonlyArray<TokenDocument> = yield* repo.allTokens(after, settings.batchSize, figures)
    if (page.length === 0) break
    yield* run.add(page, [])
    done += page.length
    progress("tokens", done, totals.tokens)
    after = { chainId: page.at(-1)!.chainId, address: page.at(-1)!.address }
  }
  done = 0
  phaseStart = performance.now()
  for (let after: { chainId: number; address: string } | null = null; ; ) {
    const page: ReadonlyArray<PoolDocument> = yield* repo.allPools(after, settings.batchSize)
    if (page.length === 0) break
    yield* run.add([], page)
    done += page.length
    progress("pools", done, totals.pools)
    after = { chainId: page.at(-1)!.chainId, address: page.at(-1)!.address }
  }
  yield* run.commit
  if (index.backend !== "embedded") {
    for (const cp of checkpoints) {
      yield* sql`INSERT INTO search_sync_state (backend, chain_id, block_number) VALUES (${index.backend}, ${cp.chainId}, ${cp.blockNumber.toString()})
                 ON CONFLICT (backend, chain_id) DO UPDATE SET block_number = excluded.block_number, synced_at = now()`
    }
  }
  const counts = yield* index.counts
  console.log(
    `search:reindex: done in ${((performance.now() - started) / 1000).toFixed(1)} s; index holds ${counts.tokens} tokens, ${counts.pools} pools` +
      `; checkpoints ${checkpoints.map((c) => `${c.chainId}@${c.blockNumber}`).join(", ") || "none"}`
  )
})

program.pipe(
  Effect.provide(
    Layer.mergeAll(SearchIndexLive, SearchDocumentsRepo.layer).pipe(
      Layer.provideMerge(Layer.mergeAll(SearchConfig.layer, DatabaseLive)),
      Layer.provide(NodeServices.layer)
    )
  ),
  NodeRuntime.runMain
)
