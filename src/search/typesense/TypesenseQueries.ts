import type { PoolQuery, QueryBase, TokenQuery } from "../SearchQuery.ts"
import { asAddress, terms, typoBudget } from "../text/Terms.ts"

/** One entry of a Typesense `multi_search` request (documented search parameters). */
export type SearchParams = Record<string, string | number | boolean>

/** Filter values are quoted with backticks so that `0x…` and ids with `-` are taken literally. */
const quote = (v: string) => "`" + v.replace(/`/g, "") + "`"

const filters = (q: QueryBase, launchField: string, extra: ReadonlyArray<string> = []) => {
  const parts = [...extra]
  if (q.chainId !== undefined) parts.push(`chain_id:=${q.chainId}`)
  if (q.launchpad !== undefined) parts.push(`${launchField}:=${q.launchpad}`)
  if (q.graduated !== undefined) parts.push(`graduated:=${q.graduated}`)
  return parts.join(" && ")
}

/**
 * The typo rules of the issue in Typesense terms: 1 typo from 4 characters (`min_len_1typo`), 2 from 7
 * (`min_len_2typo`); typo matches are added even when exact ones exist (`typo_tokens_threshold` = the depth asked
 * for; Typesense's default 1 would hide "PEPPE" once "PEPE" matched); every word must match (`drop_tokens_threshold`
 * 0). Typesense sets typos per query, not per word, so a query with a hex or numeric word gets none at all.
 */
const textParams = (q: QueryBase): SearchParams => {
  const words = terms(q.q, 8)
  const typos = words.some((w) => typoBudget(w) === 0 && /^(0x[0-9a-f]*|[0-9]+)$/.test(w)) ? 0 : 2
  return {
    q: words.join(" "),
    prefix: true,
    num_typos: typos,
    min_len_1typo: 4,
    min_len_2typo: 7,
    typo_tokens_threshold: Math.max(q.page * q.limit, 100),
    drop_tokens_threshold: 0
  }
}

const paging = (q: QueryBase) => ({ page: q.page, per_page: q.limit })

const tokenSortBy: Record<Exclude<TokenQuery["sort"], "relevance">, string> = {
  liquidity: "liquidity_usd:desc",
  volume: "volume_24h_usd:desc",
  marketCap: "market_cap_usd:desc",
  holders: "holders:desc",
  newest: "launched_at:desc"
}
const poolSortBy: Record<Exclude<PoolQuery["sort"], "relevance">, string> = {
  liquidity: "tvl_usd:desc",
  volume: "volume_24h_usd:desc",
  newest: "created_at:desc"
}

/**
 * Token search. Relevance: `_text_match` in 10 buckets, then popularity (log10(1 + liquidity + volume), the same
 * figure as the embedded ranking); symbol matches weigh twice name matches. An address is a filter, not a query.
 */
export const tokenSearch = (collection: string, q: TokenQuery): SearchParams => {
  const address = asAddress(q.q)
  const sortBy = q.sort === "relevance" ? null : tokenSortBy[q.sort]
  if (address !== null) {
    return { collection, q: "*", filter_by: filters(q, "is_launch", [`address:=${quote(address)}`]), ...paging(q) }
  }
  if (q.q.trim() === "") {
    return {
      collection,
      q: "*",
      ...optionalFilter(filters(q, "is_launch")),
      sort_by: sortBy ?? "popularity:desc",
      ...paging(q)
    }
  }
  return {
    collection,
    ...textParams(q),
    query_by: "symbol,name",
    query_by_weights: "2,1",
    ...optionalFilter(filters(q, "is_launch")),
    sort_by: sortBy === null ? "_text_match(buckets: 10):desc,popularity:desc" : `${sortBy},_text_match:desc`,
    ...paging(q)
  }
}

/** Pool search. Relevance: text match (2 buckets: without and with typos, approximately), then TVL. */
export const poolSearch = (collection: string, q: PoolQuery): SearchParams => {
  const address = asAddress(q.q)
  const sortBy = q.sort === "relevance" ? null : poolSortBy[q.sort]
  if (address !== null) {
    const a = quote(address)
    return {
      collection,
      q: "*",
      filter_by: filters(q, "is_launch_pool", [`(address:=${a} || token0_address:=${a} || token1_address:=${a})`]),
      sort_by: "tvl_usd:desc",
      ...paging(q)
    }
  }
  if (q.q.trim() === "") {
    return {
      collection,
      q: "*",
      ...optionalFilter(filters(q, "is_launch_pool")),
      sort_by: sortBy ?? "tvl_usd:desc",
      ...paging(q)
    }
  }
  return {
    collection,
    ...textParams(q),
    query_by: "symbols,names",
    query_by_weights: "2,1",
    ...optionalFilter(filters(q, "is_launch_pool")),
    sort_by: sortBy === null ? "_text_match(buckets: 2):desc,tvl_usd:desc" : `${sortBy},_text_match:desc`,
    ...paging(q)
  }
}

const optionalFilter = (filter: string): SearchParams => (filter === "" ? {} : { filter_by: filter })
