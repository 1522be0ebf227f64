import { poolPopularity, poolScore, tokenPopularity, tokenScore } from "../Ranking.ts"
import type { PoolDocument, TokenDocument } from "../SearchDocument.ts"
import type { PoolSort, PoolQuery, QueryBase, ResultPage, TokenQuery, TokenSort } from "../SearchQuery.ts"
import { Collection } from "./Collection.ts"

const common = <D extends { readonly chainId: number }>(d: D, q: QueryBase, launch: boolean, graduated: boolean) =>
  (q.chainId === undefined || d.chainId === q.chainId) &&
  (q.launchpad === undefined || launch === q.launchpad) &&
  (q.graduated === undefined || graduated === q.graduated)

const tokens = () =>
  new Collection<TokenDocument, TokenSort>({
    key: (t) => t.id,
    symbolText: (t) => t.symbol,
    nameText: (t) => t.name,
    address: (t) => t.address,
    related: () => [],
    popularity: tokenPopularity,
    score: (text, _typos, popularity) => tokenScore(text, popularity),
    passes: (t, q) => common(t, q, t.isLaunch, t.graduated),
    sortValue: (t, sort) => {
      switch (sort) {
        case "liquidity":
          return t.liquidityUsd
        case "volume":
          return t.volume24hUsd
        case "marketCap":
          return t.marketCapUsd
        case "holders":
          return t.holders
        case "newest":
          return t.launchedAt ?? -Infinity
      }
    }
  })

const pools = () =>
  new Collection<PoolDocument, PoolSort>({
    key: (p) => p.id,
    symbolText: (p) => `${p.token0.symbol} ${p.token1.symbol}`,
    nameText: (p) => `${p.token0.name} ${p.token1.name}`,
    address: (p) => p.address,
    related: (p) => [p.token0.address, p.token1.address],
    popularity: poolPopularity,
    score: (_text, typos, popularity) => poolScore(typos, popularity),
    passes: (p, q) => common(p, q, p.isLaunchPool, p.graduated),
    sortValue: (p, sort) => {
      switch (sort) {
        case "liquidity":
          return p.tvlUsd
        case "volume":
          return p.volume24hUsd
        case "newest":
          return p.createdAt
      }
    }
  })

/** The embedded search index: tokens and pools in memory, fed from Postgres (see `EmbeddedSearchIndex`). */
export class MemoryIndex {
  readonly tokens = tokens()
  readonly pools = pools()

  searchTokens(q: TokenQuery): ResultPage<TokenDocument> {
    return this.tokens.search(q, q.sort)
  }

  searchPools(q: PoolQuery): ResultPage<PoolDocument> {
    return this.pools.search(q, q.sort)
  }
}
