import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, ServiceUnavailable } from "../platform/ApiError.ts"
import { McpExclude } from "../platform/McpAnnotations.ts"
import { PoolDocument, TokenDocument } from "./SearchDocument.ts"
import { PoolSorts, TokenSorts } from "./SearchQuery.ts"
import { SyncErrorCodes } from "./SyncErrorCodes.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100
export const DEFAULT_SUGGESTIONS = 8
export const MAX_SUGGESTIONS = 20
/** Results past this depth (page × limit) are not served: refine the query instead (Typesense pages the same way). */
export const MAX_DEPTH = 1_000

const Q = Schema.String.check(Schema.isMaxLength(200))
const flag = (description: string) => Schema.optional(Schema.Literals(["true", "false"])).annotate({ description })
const base = {
  chainId: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0))).annotate({
    description: "Only this chain (default: every indexed chain)"
  }),
  limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_LIMIT }))).annotate({
    description: `Results per page, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT})`
  }),
  page: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0))).annotate({
    description: `1-based page (default 1); page × limit ≤ ${MAX_DEPTH}, deeper → 400 PAGE_TOO_DEEP`
  }),
  launchpad: flag("true: only launchpad tokens / launch pools; false: only the others"),
  graduated: flag("true: only graduated launch tokens (pools of them); false: only the others")
}
const qRequired = Q.check(Schema.isMinLength(1)).annotate({
  description: "Text (symbol, name, words of them; the last word is a prefix) or a full 0x address (any case)"
})
const qOptional = Schema.optional(Q).annotate({
  description: "As for /search; absent or empty lists everything, in `sort` order"
})
const tokenSort = Schema.optional(Schema.Literals(TokenSorts)).annotate({
  description:
    "relevance (default: text match + liquidity, see the description), liquidity, volume (24 h), marketCap, holders, newest"
})
const poolSort = Schema.optional(Schema.Literals(PoolSorts)).annotate({
  description: "relevance (default: text tier, then TVL), liquidity (TVL), volume (24 h), newest"
})

export const MatchKindSchema = Schema.Literals(["address", "token", "exact", "prefix", "typo", "all"]).annotate({
  description:
    "address: the query is its address · token: the query is one of its tokens' address (pools) · exact: every " +
    "word equals a word of it · prefix: the last word is a prefix, no typos · typo: within the typo budget · all: empty query"
})

export class TokenHit extends Schema.Class<TokenHit>("TokenHit")({
  token: TokenDocument,
  score: Schema.Number.annotate({ description: "Relevance score (higher first); see the route description" }),
  match: MatchKindSchema
}) {}
export class PoolHit extends Schema.Class<PoolHit>("PoolHit")({
  pool: PoolDocument,
  score: Schema.Number,
  match: MatchKindSchema
}) {}

const pageFields = {
  total: Schema.Int.annotate({ description: "Matches over all pages" }),
  page: Schema.Int,
  limit: Schema.Int,
  hasMore: Schema.Boolean.annotate({ description: "A next page exists (and is within the depth limit)" })
}
export class TokenResults extends Schema.Class<TokenResults>("TokenResults")({
  items: Schema.Array(TokenHit),
  ...pageFields
}) {}
export class PoolResults extends Schema.Class<PoolResults>("PoolResults")({
  items: Schema.Array(PoolHit),
  ...pageFields
}) {}
export class CombinedResults extends Schema.Class<CombinedResults>("CombinedResults")({
  query: Schema.String,
  tokens: TokenResults,
  pools: PoolResults
}) {}

export class TokenSuggestion extends Schema.Class<TokenSuggestion>("TokenSuggestion")({
  id: Schema.String,
  address: Schema.String,
  chainId: Schema.Int,
  symbol: Schema.String,
  name: Schema.String,
  image: Schema.NullOr(Schema.String),
  priceUsd: Schema.NullOr(Schema.Number),
  liquidityUsd: Schema.Number,
  match: MatchKindSchema
}) {}
export class PoolSuggestion extends Schema.Class<PoolSuggestion>("PoolSuggestion")({
  id: Schema.String,
  address: Schema.String,
  chainId: Schema.Int,
  label: Schema.String.annotate({ description: "`SYMBOL0/SYMBOL1 fee%`" }),
  fee: Schema.Int,
  tvlUsd: Schema.Number,
  match: MatchKindSchema
}) {}
export class Suggestions extends Schema.Class<Suggestions>("Suggestions")({
  query: Schema.String,
  tokens: Schema.Array(TokenSuggestion),
  pools: Schema.Array(PoolSuggestion)
}) {}

const DocumentCounts = Schema.Struct({ tokens: Schema.Int, pools: Schema.Int }).annotate({
  identifier: "DocumentCounts"
})

export class SearchHealth extends Schema.Class<SearchHealth>("SearchHealth")({
  status: Schema.Literals(["ok"]),
  backend: Schema.Literals(["embedded", "typesense"]),
  latencyMs: Schema.Number.annotate({ description: "Round trip to the backend (0 in process)" }),
  documents: DocumentCounts
}) {}

export class ChainSync extends Schema.Class<ChainSync>("ChainSync")({
  chainId: Schema.Int,
  searchBlock: Schema.NullOr(Schema.String).annotate({
    description: "Last indexer block whose changes the index holds"
  }),
  indexerBlock: Schema.String.annotate({ description: "The indexer checkpoint (last committed block)" })
}) {}

export class IndexInfo extends Schema.Class<IndexInfo>("IndexInfo")({
  backend: Schema.Literals(["embedded", "typesense"]),
  ready: Schema.Boolean,
  documents: DocumentCounts.annotate({ description: "Documents in the search index" }),
  source: DocumentCounts.annotate({ description: "Token and pool rows in Postgres (what the index is built from)" }),
  chains: Schema.Array(ChainSync),
  lastUpdateAt: Schema.NullOr(Schema.String).annotate({ description: "ISO time of the last change applied" }),
  updates: Schema.Int.annotate({ description: "Changes applied since start" }),
  lastError: Schema.NullOr(Schema.Literals(SyncErrorCodes)).annotate({
    description:
      "The step that failed last, as a stable code (the error itself is in the service's log); null once the index started"
  })
}) {}

const RANKING =
  "Ranking: an exact address (42 characters, any case) is looked up, never matched as text: that token or pool comes " +
  "first (a pool search also lists the pools of a token whose address is given), and a near-miss address matches " +
  "nothing. Otherwise every word must match a word of the symbol or name (pools: of both tokens); the last word as a " +
  "prefix. Typos: none below 4 characters, 1 from 4, 2 from 7, never in hex (`0x…`) or numeric words. Token score = " +
  "text + 0.5 × log10(1 + liquidityUsd + volume24hUsd), text = mean word score (4 equals the symbol, 3 equals a word, " +
  "2.5 symbol prefix, 2 name prefix, 1 one typo, 0.5 two typos). Pools: matches without typos before those with, each " +
  "by TVL. 1–2 character queries have no typos, so liquidity orders their prefix matches."

const errors = [BadRequest, ServiceUnavailable]

/** The search service's routes (GET, no credentials), under `/api/v1`. */
export class SearchGroup extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.get("search", "/api/v1/search", {
      query: {
        q: qRequired,
        ...base,
        limit: base.limit,
        sort: Schema.optional(Schema.Literals(["relevance", "liquidity", "volume", "newest"])).annotate({
          description: "Applied to both lists"
        })
      },
      success: CombinedResults,
      error: errors
    }).annotateMerge(
      doc(
        "Search tokens and pools",
        `Tokens and pools for one query, each list ranked and paged on its own (same page and limit). ${RANKING}`
      )
    ),
    HttpApiEndpoint.get("searchTokens", "/api/v1/search/tokens", {
      query: { q: qOptional, ...base, sort: tokenSort },
      success: TokenResults,
      error: errors
    }).annotateMerge(doc("Search tokens", RANKING)),
    HttpApiEndpoint.get("searchPools", "/api/v1/search/pools", {
      query: { q: qOptional, ...base, sort: poolSort },
      success: PoolResults,
      error: errors
    }).annotateMerge(doc("Search pools", `A token's address lists its pools by TVL. ${RANKING}`)),
    HttpApiEndpoint.get("autocomplete", "/api/v1/autocomplete", {
      query: {
        q: qRequired,
        chainId: base.chainId,
        limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_SUGGESTIONS }))).annotate({
          description: `Suggestions per list, 1–${MAX_SUGGESTIONS} (default ${DEFAULT_SUGGESTIONS})`
        })
      },
      success: Suggestions,
      error: errors
    }).annotateMerge(
      doc(
        "Autocomplete",
        `Prefix completion as the user types: the same matching and ranking as /search, small records. ${RANKING}`
      )
    ),
    HttpApiEndpoint.get("searchHealth", "/api/v1/search/health", {
      success: SearchHealth,
      error: ServiceUnavailable
    })
      .annotateMerge(
        doc(
          "Search health",
          "200 when the index is loaded and its backend answers; 503 SEARCH_NOT_READY while the first load runs, " +
            "503 SEARCH_UNAVAILABLE when Typesense does not answer. (Process liveness: /api/health.)"
        )
      )
      .annotate(McpExclude, true), // operators' probe, not an agent's tool

    HttpApiEndpoint.get("searchIndex", "/api/v1/search/index", {
      success: IndexInfo,
      error: ServiceUnavailable
    })
      .annotateMerge(
        doc(
          "Index introspection",
          "Backend, document counts (index vs Postgres), per chain the block the index holds vs the indexer checkpoint, last update, last error."
        )
      )
      .annotate(McpExclude, true) // operators' introspection, not an agent's tool
  )
  .annotateMerge(OpenApi.annotations({ description: "Token and pool search, autocomplete" })) {}
