import type { PoolDocument, TokenDocument } from "./SearchDocument.ts"

export const TokenSorts = ["relevance", "liquidity", "volume", "marketCap", "holders", "newest"] as const
export type TokenSort = (typeof TokenSorts)[number]
export const PoolSorts = ["relevance", "liquidity", "volume", "newest"] as const
export type PoolSort = (typeof PoolSorts)[number]

/** Shared by every search route. `q` empty lists everything that passes the filters, in `sort` order. */
export interface QueryBase {
  readonly q: string
  readonly chainId?: number | undefined
  /** true: only launchpad tokens / launch pools; false: only the others. */
  readonly launchpad?: boolean | undefined
  /** true: only graduated launch tokens (pools of them); false: only not graduated. */
  readonly graduated?: boolean | undefined
  readonly limit: number
  /** 1-based. */
  readonly page: number
}
export interface TokenQuery extends QueryBase {
  readonly sort: TokenSort
}
export interface PoolQuery extends QueryBase {
  readonly sort: PoolSort
}

/**
 * How a hit matched: `address` the query is its address; `token` (pools) the query is the address of one of its
 * tokens; `exact` every word equals a term; `prefix` the last word is a prefix, no typos; `typo` within the typo
 * budget; `all` empty query.
 */
export type MatchKind = "address" | "token" | "exact" | "prefix" | "typo" | "all"

export interface Hit<D> {
  readonly document: D
  readonly score: number
  readonly match: MatchKind
}

export interface ResultPage<D> {
  readonly hits: ReadonlyArray<Hit<D>>
  /** Matches passing the filters (all pages). */
  readonly total: number
}

export type TokenPage = ResultPage<TokenDocument>
export type PoolPage = ResultPage<PoolDocument>
