import { Effect, type Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BadRequest, ServiceUnavailable } from "../platform/ApiError.ts"
import { cachedAnswer } from "../platform/http/ResponseCache.ts"
import { SearchApi } from "./SearchApi.ts"
import { SearchCache } from "./SearchCache.ts"
import { SearchConfig } from "./SearchConfig.ts"
import { SearchDocumentsRepo } from "./SearchDocumentsRepo.ts"
import {
  ChainSync,
  CombinedResults,
  DEFAULT_LIMIT,
  DEFAULT_SUGGESTIONS,
  IndexInfo,
  MAX_DEPTH,
  PoolHit,
  PoolResults,
  PoolSuggestion,
  SearchHealth,
  Suggestions,
  TokenHit,
  TokenResults,
  TokenSuggestion
} from "./SearchEndpoints.ts"
import { type SearchRequest, SearchIndex } from "./SearchIndex.ts"
import type { PoolPage, PoolSort, QueryBase, TokenPage, TokenSort } from "./SearchQuery.ts"
import { SearchSync } from "./SearchSync.ts"

interface RawQuery {
  readonly q?: string | undefined
  readonly chainId?: number | undefined
  readonly limit?: number | undefined
  readonly page?: number | undefined
  readonly launchpad?: "true" | "false" | undefined
  readonly graduated?: "true" | "false" | undefined
}

const bool = (v: "true" | "false" | undefined) => (v === undefined ? undefined : v === "true")

const queryBase = (raw: RawQuery, defaultLimit = DEFAULT_LIMIT) =>
  Effect.gen(function* () {
    const limit = raw.limit ?? defaultLimit
    const page = raw.page ?? 1
    if (page * limit > MAX_DEPTH) {
      return yield* new BadRequest({
        code: "PAGE_TOO_DEEP",
        message: `page × limit must be at most ${MAX_DEPTH} (got ${page} × ${limit}); refine the query instead`,
        details: { page, limit, maxDepth: MAX_DEPTH }
      })
    }
    const base: QueryBase = {
      q: raw.q ?? "",
      chainId: raw.chainId,
      launchpad: bool(raw.launchpad),
      graduated: bool(raw.graduated),
      limit,
      page
    }
    return base
  })

const tokenResults = (page: TokenPage, q: QueryBase) =>
  new TokenResults({
    items: page.hits.map((h) => new TokenHit({ token: h.document, score: h.score, match: h.match })),
    total: page.total,
    page: q.page,
    limit: q.limit,
    hasMore: page.total > q.page * q.limit && (q.page + 1) * q.limit <= MAX_DEPTH
  })
const poolResults = (page: PoolPage, q: QueryBase) =>
  new PoolResults({
    items: page.hits.map((h) => new PoolHit({ pool: h.document, score: h.score, match: h.match })),
    total: page.total,
    page: q.page,
    limit: q.limit,
    hasMore: page.total > q.page * q.limit && (q.page + 1) * q.limit <= MAX_DEPTH
  })

const EMPTY = { hits: [], total: 0 }

export const SearchHttp = HttpApiBuilder.group(
  SearchApi,
  "search",
  Effect.fn(function* (handlers) {
    const index = yield* SearchIndex
    const sync = yield* SearchSync
    const repo = yield* SearchDocumentsRepo
    const cache = yield* SearchCache
    const { cacheEnabled } = yield* SearchConfig

    /** A query route's answer through the SearchCache; with the cache off, the value itself (the plain HttpApi path). */
    const cached = <A, I>(schema: Schema.Codec<A, I>) => {
      const answer = cachedAnswer(cache, schema)
      return <E, R>(value: Effect.Effect<A, E, R>) => (cacheEnabled ? answer(value) : value)
    }

    const unavailable = (message: string) => new ServiceUnavailable({ code: "SEARCH_UNAVAILABLE", message })
    const ready = Effect.flatMap(sync.status, (s) =>
      s.ready
        ? Effect.void
        : Effect.fail(
            new ServiceUnavailable({
              code: "SEARCH_NOT_READY",
              message: `The search index is still loading${s.lastError === null ? "" : ` (${s.lastError})`}`
            })
          )
    )
    const run = (request: SearchRequest) =>
      ready.pipe(
        Effect.andThen(index.search(request)),
        Effect.catchTag("SearchUnavailable", (e) => Effect.fail(unavailable(e.message)))
      )

    return handlers
      .handle("search", ({ query }) =>
        cached(CombinedResults)(
          Effect.gen(function* () {
            const base = yield* queryBase(query)
            const sort = query.sort ?? "relevance"
            const r = yield* run({ tokens: { ...base, sort }, pools: { ...base, sort } })
            return new CombinedResults({
              query: base.q,
              tokens: tokenResults(r.tokens ?? EMPTY, base),
              pools: poolResults(r.pools ?? EMPTY, base)
            })
          })
        )
      )
      .handle("searchTokens", ({ query }) =>
        cached(TokenResults)(
          Effect.gen(function* () {
            const base = yield* queryBase(query)
            const sort: TokenSort = query.sort ?? "relevance"
            const r = yield* run({ tokens: { ...base, sort } })
            return tokenResults(r.tokens ?? EMPTY, base)
          })
        )
      )
      .handle("searchPools", ({ query }) =>
        cached(PoolResults)(
          Effect.gen(function* () {
            const base = yield* queryBase(query)
            const sort: PoolSort = query.sort ?? "relevance"
            const r = yield* run({ pools: { ...base, sort } })
            return poolResults(r.pools ?? EMPTY, base)
          })
        )
      )
      .handle("autocomplete", ({ query }) =>
        cached(Suggestions)(
          Effect.gen(function* () {
            const base = yield* queryBase(query, DEFAULT_SUGGESTIONS)
            const r = yield* run({ tokens: { ...base, sort: "relevance" }, pools: { ...base, sort: "relevance" } })
            return new Suggestions({
              query: base.q,
              tokens: (r.tokens ?? EMPTY).hits.map(
                ({ document: t, match }) =>
                  new TokenSuggestion({
                    id: t.id,
                    address: t.address,
                    chainId: t.chainId,
                    symbol: t.symbol,
                    name: t.name,
                    image: t.image,
                    priceUsd: t.priceUsd,
                    liquidityUsd: t.liquidityUsd,
                    match
                  })
              ),
              pools: (r.pools ?? EMPTY).hits.map(
                ({ document: p, match }) =>
                  new PoolSuggestion({
                    id: p.id,
                    address: p.address,
                    chainId: p.chainId,
                    fee: p.fee,
                    tvlUsd: p.tvlUsd,
                    match,
                    label: `${p.token0.symbol}/${p.token1.symbol} ${p.fee / 10_000}%`
                  })
              )
            })
          })
        )
      )
      .handle("searchHealth", () =>
        Effect.gen(function* () {
          yield* ready
          const latencyMs = yield* index.ping
          const documents = yield* index.counts
          return new SearchHealth({ status: "ok", backend: index.backend, latencyMs, documents })
        }).pipe(Effect.catchTag("SearchUnavailable", (e) => Effect.fail(unavailable(e.message))))
      )
      .handle("searchIndex", () =>
        Effect.gen(function* () {
          const s = yield* sync.status
          const documents = yield* index.counts.pipe(
            Effect.catchTag("SearchUnavailable", () => Effect.succeed({ tokens: 0, pools: 0 }))
          )
          const source = yield* repo.counts
          const checkpoints = yield* repo.checkpoints
          return new IndexInfo({
            backend: index.backend,
            ready: s.ready,
            documents,
            source,
            chains: checkpoints.map(
              (cp) =>
                new ChainSync({
                  chainId: cp.chainId,
                  searchBlock: s.blocks.get(cp.chainId)?.toString() ?? null,
                  indexerBlock: cp.blockNumber.toString()
                })
            ),
            lastUpdateAt: s.lastUpdateAt === null ? null : new Date(s.lastUpdateAt).toISOString(),
            updates: s.updates,
            lastError: s.lastError
          })
        })
      )
  })
)
