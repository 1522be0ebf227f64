import { MAX_TERM_LENGTH } from "./Terms.ts"

/** A matched dictionary term and its edit distance to the query word (0 = exact or exact prefix). */
export interface TermMatch {
  readonly term: string
  readonly distance: number
}

/**
 * The terms of an index kept in a sorted array, each with the ids of the documents that contain it.
 *
 * Lookups walk the sorted array as an implicit trie: consecutive terms share a prefix, so the Levenshtein rows of
 * that prefix are reused, and a prefix whose row is already over the typo budget skips every term under it with one
 * binary search. That is the classic trie + Levenshtein-automaton search (what Typesense does on its own trie)
 * without a node per character: 100,000 terms cost one array, not millions of objects.
 */
export class TermDictionary {
  private sorted: Array<string> = []
  private readonly postings = new Map<string, Array<number>>()

  get size(): number {
    return this.sorted.length
  }

  add(term: string, id: number): void {
    let ids = this.postings.get(term)
    if (ids === undefined) {
      ids = []
      this.postings.set(term, ids)
      this.sorted.splice(this.lowerBound(term, 0), 0, term)
    }
    if (!ids.includes(id)) ids.push(id)
  }

  remove(term: string, id: number): void {
    const ids = this.postings.get(term)
    if (ids === undefined) return
    const at = ids.indexOf(id)
    if (at === -1) return
    // Order within a posting list does not matter: swap the last one in.
    ids[at] = ids[ids.length - 1]!
    ids.pop()
    if (ids.length === 0) {
      this.postings.delete(term)
      const at = this.lowerBound(term, 0)
      if (this.sorted[at] === term) this.sorted.splice(at, 1)
    }
  }

  /** Bulk load: much faster than `add` one by one (one sort instead of a splice per new term). */
  static from(entries: Iterable<readonly [string, number]>): TermDictionary {
    const dictionary = new TermDictionary()
    for (const [term, id] of entries) {
      let ids = dictionary.postings.get(term)
      if (ids === undefined) dictionary.postings.set(term, (ids = []))
      if (ids[ids.length - 1] !== id) ids.push(id)
    }
    dictionary.sorted = [...dictionary.postings.keys()].sort()
    return dictionary
  }

  documents(term: string): ReadonlyArray<number> {
    return this.postings.get(term) ?? EMPTY
  }

  /**
   * Terms within `budget` edits of `word`. `prefix`: the distance is to the closest prefix of the term (the word is
   * being typed); otherwise to the whole term. Exact matches (distance 0) are always included.
   */
  lookup(word: string, prefix: boolean, budget: number): Array<TermMatch> {
    if (word === "") return []
    if (budget === 0) {
      if (!prefix) return this.postings.has(word) ? [{ term: word, distance: 0 }] : []
      const from = this.lowerBound(word, 0)
      const to = this.prefixEnd(word, from)
      const out: Array<TermMatch> = []
      for (let i = from; i < to; i++) out.push({ term: this.sorted[i]!, distance: 0 })
      return out
    }
    return this.fuzzy(word, prefix, budget)
  }

  private fuzzy(word: string, prefix: boolean, budget: number): Array<TermMatch> {
    const m = word.length
    const terms = this.sorted
    const out: Array<TermMatch> = []
    // rows[d] = Levenshtein row of the query against the first d characters of the current term.
    const rows: Array<Int32Array> = []
    for (let d = 0; d <= MAX_TERM_LENGTH; d++) rows.push(new Int32Array(m + 1))
    for (let j = 0; j <= m; j++) rows[0]![j] = j
    // best[d] = smallest distance of the query to a prefix of length ≤ d (prefix mode).
    const best = new Int32Array(MAX_TERM_LENGTH + 1)
    best[0] = m
    let previous = ""
    let valid = 0 // rows[0..valid] belong to `previous`
    let i = 0
    while (i < terms.length) {
      const term = terms[i]!
      let depth = 0
      const limit = Math.min(valid, term.length, previous.length)
      while (depth < limit && term.charCodeAt(depth) === previous.charCodeAt(depth)) depth++
      let skipped = false
      for (let d = depth + 1; d <= term.length; d++) {
        const above = rows[d - 1]!
        const row = rows[d]!
        const c = term.charCodeAt(d - 1)
        row[0] = d
        let rowMin = d
        for (let j = 1; j <= m; j++) {
          const cost = word.charCodeAt(j - 1) === c ? 0 : 1
          const v = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost)
          row[j] = v
          if (v < rowMin) rowMin = v
        }
        best[d] = Math.min(best[d - 1]!, row[m]!)
        if (rowMin > budget) {
          // No extension of term[0..d) gets back within budget: every term under this prefix is decided at once.
          const end = this.prefixEnd(term.slice(0, d), i)
          if (prefix && best[d - 1]! <= budget)
            for (let k = i; k < end; k++) out.push({ term: terms[k]!, distance: best[d - 1]! })
          previous = term
          valid = d - 1
          i = end
          skipped = true
          break
        }
      }
      if (skipped) continue
      const distance = prefix ? best[term.length]! : rows[term.length]![m]!
      if (distance <= budget) out.push({ term, distance })
      previous = term
      valid = term.length
      i++
    }
    return out
  }

  /** First index ≥ `from` whose term is ≥ `term`. */
  private lowerBound(term: string, from: number): number {
    let lo = from
    let hi = this.sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.sorted[mid]! < term) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** First index ≥ `from` whose term does not start with `prefix` (terms from `from` on are ≥ prefix). */
  private prefixEnd(prefix: string, from: number): number {
    let lo = from
    let hi = this.sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.sorted[mid]!.startsWith(prefix) || this.sorted[mid]! < prefix) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

const EMPTY: ReadonlyArray<number> = []
