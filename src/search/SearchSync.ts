import { Cause, Context, Effect, Layer, Option, Ref, Schedule, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { type IndexerChange, IndexerEvents } from "../indexer/IndexerEvents.ts"
import { type PoolDocument, type TokenDocument, tokenId } from "./SearchDocument.ts"
import { type ChangedKeys, SearchDocumentsRepo } from "./SearchDocumentsRepo.ts"
import { SearchConfig } from "./SearchConfig.ts"
import { SearchIndex } from "./SearchIndex.ts"
import type { SyncErrorCode } from "./SyncErrorCodes.ts"

export interface SyncStatus {
  /** The first full load (embedded) or catch-up (Typesense) finished: searches see the indexed data. */
  readonly ready: boolean
  /** Epoch ms of the last change applied to the index. */
  readonly lastUpdateAt: number | null
  /** Last indexer block whose changes the index holds, per chain. */
  readonly blocks: ReadonlyMap<number, bigint>
  readonly updates: number
  /** What failed last (cleared by the next successful start); a stable code, the message goes to the log only. */
  readonly lastError: SyncErrorCode | null
}

const errorCodeOf = {
  start: "SEARCH_START_FAILED",
  change: "SEARCH_CHANGE_FAILED",
  poll: "SEARCH_POLL_FAILED",
  refresh: "SEARCH_REFRESH_FAILED"
} as const

type Signal =
  | { readonly _tag: "change"; readonly change: IndexerChange }
  | { readonly _tag: "poll" }
  | { readonly _tag: "refresh" }

/**
 * Keeps the search index equal to the indexed tables:
 *   - at start, a full load (embedded; Typesense when it has no sync state) or a catch-up of the blocks changed since
 *     the recorded sync state (Typesense);
 *   - after each indexer commit in this process (IndexerEvents), the documents of the batch's tokens and pools (and of
 *     what they affect: a pool's tokens, a token's launch pool) are rebuilt from Postgres and upserted in one batch;
 *     keys that no longer exist (a reorg) are removed. So a launch or a swap is searchable one batch after its block;
 *   - every SEARCH_POLL_MS, claims, claim images and admin hides/unhides made since the last poll (client API
 *     writes, no indexer event) are applied, and the indexer checkpoint is read, for a search service running apart
 *     from the indexer:
 *     blocks it has not seen are caught up from the event tables (a checkpoint that went back, a reorg seen from
 *     outside, triggers a full rebuild);
 *   - every SEARCH_REFRESH_MS a full rebuild, so that 24 h volumes age without events.
 * Everything runs in one fiber, so index writes never interleave.
 */
export class SearchSync extends Context.Service<
  SearchSync,
  {
    readonly status: Effect.Effect<SyncStatus>
    /** Waits until the index holds block `block` of `chainId` (tests, the reindex command). */
    readonly awaitBlock: (chainId: number, block: bigint) => Effect.Effect<void>
    /** Full rebuild now (the reindex command; tests that write rows directly). */
    readonly rebuild: Effect.Effect<{ readonly tokens: number; readonly pools: number }>
    /**
     * Calls `listener` after each write to the index (documents upserted or removed, a rebuild committed), once the
     * write is done: the search answers computed before it may be stale (SearchCache drops them).
     */
    readonly onIndexChange: (listener: () => void) => void
  }
>()("app/search/SearchSync") {
  static readonly layer = Layer.effect(
    SearchSync,
    Effect.gen(function* () {
      const index = yield* SearchIndex
      const repo = yield* SearchDocumentsRepo
      const settings = yield* SearchConfig
      const events = yield* IndexerEvents
      const sql = yield* SqlClient.SqlClient
      const status = yield* Ref.make<SyncStatus>({
        ready: false,
        lastUpdateAt: null,
        blocks: new Map(),
        updates: 0,
        lastError: null
      })
      const persistent = index.backend !== "embedded"
      // Database time from which claims and hides are still to be applied (set when a full load starts).
      let listingsSince: string | null = null
      const listeners: Array<() => void> = []
      const changed = Effect.sync(() => {
        for (const listener of listeners) listener()
      })

      const setBlock = (chainId: number, block: bigint) =>
        Effect.gen(function* () {
          yield* Ref.update(status, (s) => ({
            ...s,
            blocks: new Map(s.blocks).set(chainId, block),
            lastUpdateAt: Date.now(),
            updates: s.updates + 1
          }))
          if (persistent) {
            yield* sql`INSERT INTO search_sync_state (backend, chain_id, block_number) VALUES (${index.backend}, ${chainId}, ${block.toString()})
                       ON CONFLICT (backend, chain_id) DO UPDATE SET block_number = excluded.block_number, synced_at = now()`.pipe(
              Effect.orDie
            )
          }
        })

      const rebuild = Effect.gen(function* () {
        listingsSince = (yield* repo.listingChanges(null)).now
        const checkpoints = yield* repo.checkpoints
        const run = yield* index.rebuild
        let tokens = 0
        let pools = 0
        const figures = yield* repo.tokenFigures
        let after: { chainId: number; address: string } | null = null
        for (;;) {
          const page: ReadonlyArray<TokenDocument> = yield* repo.allTokens(after, settings.batchSize, figures)
          if (page.length === 0) break
          yield* run.add(page, [])
          tokens += page.length
          after = { chainId: page.at(-1)!.chainId, address: page.at(-1)!.address }
        }
        after = null
        for (;;) {
          const page: ReadonlyArray<PoolDocument> = yield* repo.allPools(after, settings.batchSize)
          if (page.length === 0) break
          yield* run.add([], page)
          pools += page.length
          after = { chainId: page.at(-1)!.chainId, address: page.at(-1)!.address }
        }
        yield* run.commit
        yield* changed
        for (const cp of checkpoints) yield* setBlock(cp.chainId, cp.blockNumber)
        yield* Ref.update(status, (s) => ({ ...s, lastUpdateAt: Date.now() }))
        return { tokens, pools }
      })

      /** Rebuilds the documents of the changed keys; keys without a row any more are removed. */
      const apply = (changedKeys: ChangedKeys) =>
        changedKeys.tokens.length === 0 && changedKeys.pools.length === 0 ? Effect.void : applyKeys(changedKeys)
      const applyKeys = (changedKeys: ChangedKeys) =>
        Effect.gen(function* () {
          const keys = yield* repo.expand(changedKeys)
          const [tokens, pools] = yield* Effect.all([
            repo.tokens(keys.chainId, keys.tokens),
            repo.pools(keys.chainId, keys.pools)
          ])
          const foundTokens = new Set(tokens.map((t) => t.address))
          const foundPools = new Set(pools.map((p) => p.address))
          yield* index.upsert(tokens, pools)
          yield* index.remove(
            keys.tokens.filter((a) => !foundTokens.has(a)).map((a) => tokenId(a, keys.chainId)),
            keys.pools.filter((a) => !foundPools.has(a)).map((a) => tokenId(a, keys.chainId))
          )
        }).pipe(Effect.ensuring(changed))

      const known = (chainId: number) => Effect.map(Ref.get(status), (s) => s.blocks.get(chainId))

      const onChange = (change: IndexerChange) =>
        Effect.gen(function* () {
          const seen = yield* known(change.chainId)
          if (change.kind === "batch" && seen !== undefined && change.fromBlock > seen + 1n) {
            // A change was dropped (a slow subscriber loses the oldest): catch up the gap from the tables.
            return yield* catchUp(change.chainId, seen, change.toBlock)
          }
          if (change.kind === "batch" && seen !== undefined && change.toBlock <= seen) return
          yield* apply({
            chainId: change.chainId,
            tokens: [...new Set([...change.tokens, ...change.launches])],
            pools: change.pools
          })
          yield* setBlock(change.chainId, change.kind === "batch" ? change.toBlock : change.fromBlock - 1n)
        })

      const catchUp = (chainId: number, from: bigint, to: bigint) =>
        Effect.gen(function* () {
          yield* apply(yield* repo.changedBetween(chainId, from, to))
          yield* setBlock(chainId, to)
        })

      const poll = Effect.gen(function* () {
        const listings = yield* repo.listingChanges(listingsSince)
        for (const keys of listings.keys) yield* apply(keys)
        if (listings.keys.length > 0)
          yield* Ref.update(status, (s) => ({ ...s, lastUpdateAt: Date.now(), updates: s.updates + 1 }))
        listingsSince = listings.now
        for (const cp of yield* repo.checkpoints) {
          const seen = yield* known(cp.chainId)
          if (seen === undefined || cp.blockNumber < seen) {
            // First sight of a chain, or its checkpoint went back (a reorg committed by an indexer in another process).
            yield* rebuild
            return
          }
          if (cp.blockNumber > seen) yield* catchUp(cp.chainId, seen, cp.blockNumber)
        }
      })

      const start = Effect.gen(function* () {
        yield* index.prepare
        if (persistent) {
          const rows =
            (yield* sql`SELECT chain_id, block_number::text AS block_number FROM search_sync_state WHERE backend = ${index.backend}`.pipe(
              Effect.orDie
            )) as unknown as ReadonlyArray<{ chainId: number; blockNumber: string }>
          if (rows.length > 0) {
            for (const r of rows)
              yield* Ref.update(status, (s) => ({
                ...s,
                blocks: new Map(s.blocks).set(r.chainId, BigInt(r.blockNumber))
              }))
            yield* poll
          } else yield* rebuild
        } else yield* rebuild
        yield* Ref.update(status, (s) => ({ ...s, ready: true, lastError: null }))
      })

      const recordError = (step: keyof typeof errorCodeOf) => (cause: Cause.Cause<unknown>) =>
        Effect.gen(function* () {
          const what = step === "start" ? "start" : `applying ${step}`
          const message = `${what}: ${Cause.squash(cause) instanceof Error ? (Cause.squash(cause) as Error).message : Cause.pretty(cause)}`
          yield* Ref.update(status, (s) => ({ ...s, lastError: errorCodeOf[step] }))
          yield* Effect.logWarning(`search: ${message}`)
        })

      const handle = (signal: Signal) =>
        (signal._tag === "change" ? onChange(signal.change) : signal._tag === "poll" ? poll : rebuild).pipe(
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : recordError(signal._tag)(cause)
          )
        )

      const changes = yield* events.subscribe
      const signals = Stream.mergeAll(
        [
          Stream.map(changes, (change): Signal => ({ _tag: "change", change })),
          Stream.map(Stream.tick(`${settings.pollMs} millis`), (): Signal => ({ _tag: "poll" })),
          ...(settings.refreshMs > 0
            ? [
                Stream.map(
                  Stream.drop(Stream.tick(`${settings.refreshMs} millis`), 1),
                  (): Signal => ({ _tag: "refresh" })
                )
              ]
            : [])
        ],
        { concurrency: "unbounded" }
      )

      yield* Effect.forkScoped(
        Effect.gen(function* () {
          // The start is retried (Typesense may come up after us); until it succeeds searches answer 503.
          yield* start.pipe(Effect.tapCause(recordError("start")), Effect.retry(Schedule.spaced("2 seconds")))
          yield* Stream.runForEach(signals, handle)
        })
      )

      return SearchSync.of({
        status: Ref.get(status),
        awaitBlock: (chainId, block) =>
          Ref.get(status).pipe(
            Effect.repeat({
              until: (s) => s.ready && (s.blocks.get(chainId) ?? -1n) >= block,
              schedule: Schedule.spaced("20 millis")
            }),
            Effect.asVoid
          ),
        rebuild: rebuild.pipe(Effect.orDie),
        onIndexChange: (listener) => {
          listeners.push(listener)
        }
      })
    })
  )
}

export const isReady = (s: SyncStatus) => s.ready
export const blockOf = (s: SyncStatus, chainId: number) => Option.fromNullishOr(s.blocks.get(chainId))
