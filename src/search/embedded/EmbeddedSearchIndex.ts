import { Effect, Layer } from "effect"
import { SearchIndex } from "../SearchIndex.ts"
import type { PoolDocument, TokenDocument } from "../SearchDocument.ts"
import { MemoryIndex } from "./MemoryIndex.ts"

/**
 * The default backend: an in-process index (`MemoryIndex`) fed from Postgres by `SearchSync`. Chosen over
 * pg_trgm / full-text in Postgres by measurement (docs/BENCHMARKS.md, "bench:search"): autocomplete p99 stays
 * under the 5 ms target with 120,000 documents, which a trigram query plus a network round trip did not.
 * Each process that serves search holds its own copy (≈ 100 MB for 120,000 documents) and rebuilds it at start.
 */
export const makeEmbeddedSearchIndex = Effect.sync(() => {
  let index = new MemoryIndex()
  return SearchIndex.of({
    backend: "embedded",
    search: (request) =>
      Effect.sync(() => ({
        tokens: request.tokens === undefined ? undefined : index.searchTokens(request.tokens),
        pools: request.pools === undefined ? undefined : index.searchPools(request.pools)
      })),
    prepare: Effect.void,
    upsert: (tokens, pools) =>
      Effect.sync(() => {
        for (const t of tokens) index.tokens.upsert(t)
        for (const p of pools) index.pools.upsert(p)
      }),
    remove: (tokenIds, poolIds) =>
      Effect.sync(() => {
        for (const id of tokenIds) index.tokens.remove(id)
        for (const id of poolIds) index.pools.remove(id)
      }),
    rebuild: Effect.sync(() => {
      const tokens: Array<TokenDocument> = []
      const pools: Array<PoolDocument> = []
      return {
        add: (t, p) =>
          Effect.sync(() => {
            for (const d of t) tokens.push(d)
            for (const d of p) pools.push(d)
          }),
        commit: Effect.sync(() => {
          const next = new MemoryIndex()
          next.tokens.replaceAll(tokens)
          next.pools.replaceAll(pools)
          index = next
        })
      }
    }),
    counts: Effect.sync(() => ({ tokens: index.tokens.size, pools: index.pools.size })),
    ping: Effect.succeed(0)
  })
})

export const EmbeddedSearchIndexLive = Layer.effect(SearchIndex, makeEmbeddedSearchIndex)
