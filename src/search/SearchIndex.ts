import { Context, Data, type Effect } from "effect"
import type { PoolDocument, TokenDocument } from "./SearchDocument.ts"
import type { PoolPage, PoolQuery, TokenPage, TokenQuery } from "./SearchQuery.ts"

/** The search backend did not answer (Typesense down or erroring): the routes answer 503 SEARCH_UNAVAILABLE. */
export class SearchUnavailable extends Data.TaggedError("SearchUnavailable")<{ readonly message: string }> {}

export interface IndexCounts {
  readonly tokens: number
  readonly pools: number
}

/** One request may ask for tokens, pools or both (the combined route and autocomplete ask for both at once). */
export interface SearchRequest {
  readonly tokens?: TokenQuery | undefined
  readonly pools?: PoolQuery | undefined
}
export interface SearchResponse {
  readonly tokens?: TokenPage | undefined
  readonly pools?: PoolPage | undefined
}

/**
 * The search index, with two implementations chosen by config (`src/search/SearchLive.ts`): the embedded in-process index
 * (default) and Typesense (`TYPESENSE_URL`). Both take the same documents and the same queries; ranking rules are in
 * `Ranking.ts` (embedded) and `typesense/TypesenseQueries.ts` (the closest Typesense parameters).
 */
export class SearchIndex extends Context.Service<
  SearchIndex,
  {
    readonly backend: "embedded" | "typesense"
    readonly search: (request: SearchRequest) => Effect.Effect<SearchResponse, SearchUnavailable>
    /** Creates or migrates collections (Typesense); nothing to do in memory. */
    readonly prepare: Effect.Effect<void, SearchUnavailable>
    readonly upsert: (
      tokens: ReadonlyArray<TokenDocument>,
      pools: ReadonlyArray<PoolDocument>
    ) => Effect.Effect<void, SearchUnavailable>
    /** Removes documents by id (`<address>-<chainId>`). */
    readonly remove: (
      tokenIds: ReadonlyArray<string>,
      poolIds: ReadonlyArray<string>
    ) => Effect.Effect<void, SearchUnavailable>
    /**
     * Starts a full rebuild: documents sent through `upsert` until `commit` replace the whole index (embedded: a new
     * index swapped in at once; Typesense: documents not re-sent since `begin` are deleted at `commit`).
     */
    readonly rebuild: Effect.Effect<
      {
        readonly add: (
          tokens: ReadonlyArray<TokenDocument>,
          pools: ReadonlyArray<PoolDocument>
        ) => Effect.Effect<void, SearchUnavailable>
        readonly commit: Effect.Effect<void, SearchUnavailable>
      },
      SearchUnavailable
    >
    readonly counts: Effect.Effect<IndexCounts, SearchUnavailable>
    /** Round trip to the backend (in memory: always up). */
    readonly ping: Effect.Effect<number, SearchUnavailable>
  }
>()("app/search/SearchIndex") {}
