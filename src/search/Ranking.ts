import type { PoolDocument, TokenDocument } from "./SearchDocument.ts"

/**
 * The ranking, one formula for every route (documented in README "Search: ranking"):
 *
 *   token score = text + 0.5 × log10(1 + liquidityUsd + volume24hUsd)
 *   pool score  = 100 × tier + log10(1 + tvlUsd)      tier: 2 without typos, 1 with typos
 *   exact address: 1000 + popularity (always first); a pool of the token whose address was given: 500 + log10(1 + tvl)
 *
 * `text` is the mean over the query words of the best word score:
 *   4 the word equals the symbol · 3 it equals a word of the name or symbol · 2.5 exact prefix of the symbol ·
 *   2 exact prefix of a name word · 1 one typo · 0.5 two typos.
 *
 * The liquidity term lets a token with real liquidity beat a same-named copy with none ($10 M of liquidity adds
 * 3.5, so a liquid prefix match outranks an empty exact match, as a trader expects), while pools, per the issue,
 * rank by liquidity inside their text tier. Short queries (1–2 characters) get no typos and many equal text scores,
 * so liquidity decides among them.
 */
export const WORD_SCORE = { symbol: 4, exact: 3, symbolPrefix: 2.5, prefix: 2, typo1: 1, typo2: 0.5 } as const
export const POPULARITY_WEIGHT = 0.5
export const ADDRESS_SCORE = 1000
export const RELATED_ADDRESS_SCORE = 500

export const tokenPopularity = (t: Pick<TokenDocument, "liquidityUsd" | "volume24hUsd">) =>
  Math.log10(1 + Math.max(0, t.liquidityUsd) + Math.max(0, t.volume24hUsd))
export const poolPopularity = (p: Pick<PoolDocument, "tvlUsd">) => Math.log10(1 + Math.max(0, p.tvlUsd))

export const wordScore = (distance: number, exact: boolean, onSymbol: boolean, isSymbol: boolean): number => {
  if (distance === 1) return WORD_SCORE.typo1
  if (distance >= 2) return WORD_SCORE.typo2
  if (exact) return isSymbol ? WORD_SCORE.symbol : WORD_SCORE.exact
  return onSymbol ? WORD_SCORE.symbolPrefix : WORD_SCORE.prefix
}

export const tokenScore = (text: number, popularity: number) => text + POPULARITY_WEIGHT * popularity
export const poolScore = (typos: boolean, popularity: number) => 100 * (typos ? 1 : 2) + popularity
