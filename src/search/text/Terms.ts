/**
 * How text is cut into searchable terms, the same for documents and queries: Unicode-normalised, accents dropped,
 * lower-case, split on anything that is not a letter or digit. `0x…` stays one term (an address or a prefix of one).
 */
const SPLIT = /[^\p{L}\p{N}]+/u

export const normalize = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()

/** Words of a text, in order, without duplicates; at most `max` (a query of 40 words is not a search). */
export const terms = (text: string, max = 16): Array<string> => {
  const out: Array<string> = []
  for (const word of normalize(text).split(SPLIT)) {
    if (word === "" || out.includes(word)) continue
    out.push(word.length > MAX_TERM_LENGTH ? word.slice(0, MAX_TERM_LENGTH) : word)
    if (out.length === max) break
  }
  return out
}

/** Terms longer than this are cut (a term is walked character by character by the typo search). */
export const MAX_TERM_LENGTH = 48

const ADDRESS = /^0x[0-9a-f]{40}$/
const ADDRESS_LIKE = /^0x[0-9a-f]*$/
const NUMERIC = /^[0-9]+$/

/** A full EVM address (any case) → its lower-case form, else null. */
export const asAddress = (q: string): string | null => {
  const t = q.trim().toLowerCase()
  return ADDRESS.test(t) ? t : null
}

/**
 * Typo budget of one query word: none for address-like (`0x…` hex) or numeric words (a near-miss address or number
 * is a different thing, never a typo), 1 from 4 characters, 2 from 7 (Typesense's defaults).
 */
export const typoBudget = (word: string): number => {
  if (ADDRESS_LIKE.test(word) || NUMERIC.test(word)) return 0
  return word.length >= 7 ? 2 : word.length >= 4 ? 1 : 0
}
