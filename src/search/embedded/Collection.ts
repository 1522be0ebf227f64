import { ADDRESS_SCORE, RELATED_ADDRESS_SCORE, wordScore } from "../Ranking.ts"
import type { Hit, MatchKind, QueryBase, ResultPage } from "../SearchQuery.ts"
import { TermDictionary } from "../text/TermDictionary.ts"
import { asAddress, terms, typoBudget } from "../text/Terms.ts"
import { Scratch } from "./Scratch.ts"
import { topK } from "./TopK.ts"

/** What a collection needs to know about its documents (tokens and pools differ only here). */
export interface CollectionSpec<D, S extends string> {
  readonly key: (d: D) => string
  readonly symbolText: (d: D) => string
  readonly nameText: (d: D) => string
  readonly address: (d: D) => string
  /** Addresses (lower-case) that lead to this document without being its own (a pool's tokens). */
  readonly related: (d: D) => ReadonlyArray<string>
  readonly popularity: (d: D) => number
  /** Final relevance from the mean word score, whether any word needed a typo, and the popularity. */
  readonly score: (text: number, typos: boolean, popularity: number) => number
  readonly passes: (d: D, q: QueryBase) => boolean
  /** The value a non-relevance sort orders by, descending. */
  readonly sortValue: (d: D, sort: Exclude<S, "relevance">) => number
}

const MAX_QUERY_WORDS = 8
/** Results deeper than this are never served (the routes' page × limit bound), so a cached list stops there. */
const CACHE_DEPTH = 1_000
const CACHE_ENTRIES = 2_000

/** The ranked result of a 1–2 character query, kept until a document with a term under that prefix changes. */
interface ShortResult {
  readonly ids: ReadonlyArray<number>
  readonly scores: ReadonlyArray<number>
  readonly matches: ReadonlyArray<MatchKind>
  readonly total: number
}
const NONE: ReadonlySet<number> = new Set()

const addTo = (map: Map<string, Set<number>>, key: string, id: number) => {
  let ids = map.get(key)
  if (ids === undefined) map.set(key, (ids = new Set()))
  ids.add(id)
}

/**
 * One in-memory collection (tokens or pools): documents in numbered slots, two term dictionaries (symbol words and
 * name words, so a match knows where it landed without a lookup), and address maps. A query scores into typed
 * scratch arrays indexed by slot (no per-query maps: a 1-character query touches tens of thousands of postings),
 * then keeps the best `page × limit` with a bounded heap. Writes and reads run on the one JavaScript thread, so a
 * reader never sees a half-written document.
 */
export class Collection<D, S extends string> {
  private docs: Array<D | undefined> = []
  private popularity: Array<number> = []
  private symbolCount: Array<number> = []
  private termsOf: Array<{ readonly symbol: ReadonlyArray<string>; readonly name: ReadonlyArray<string> }> = []
  private readonly slots = new Map<string, number>()
  private readonly free: Array<number> = []
  private symbols = new TermDictionary()
  private names = new TermDictionary()
  private readonly own = new Map<string, Set<number>>()
  private readonly related = new Map<string, Set<number>>()
  private readonly scratch = new Scratch()
  /**
   * 1–2 character queries match a large share of the index (every term under the prefix) yet there are few of them:
   * their ranked lists are cached per (prefix, filters, sort) and dropped when a document with a term under that
   * prefix is written. The rest of the index keeps its entries.
   */
  private readonly short = new Map<string, ShortResult>()
  private readonly shortByPrefix = new Map<string, Set<string>>()
  private readonly spec: CollectionSpec<D, S>

  constructor(spec: CollectionSpec<D, S>) {
    this.spec = spec
  }

  get size(): number {
    return this.slots.size
  }

  get termCount(): number {
    return this.symbols.size + this.names.size
  }

  get(key: string): D | undefined {
    const id = this.slots.get(key)
    return id === undefined ? undefined : this.docs[id]
  }

  /** Replaces every document (start-up, full refresh): one bulk dictionary build. */
  replaceAll(documents: Iterable<D>): void {
    this.docs = []
    this.popularity = []
    this.symbolCount = []
    this.termsOf = []
    this.slots.clear()
    this.free.length = 0
    this.own.clear()
    this.related.clear()
    this.short.clear()
    this.shortByPrefix.clear()
    const symbolEntries: Array<readonly [string, number]> = []
    const nameEntries: Array<readonly [string, number]> = []
    for (const d of documents) {
      const id = this.place(d)
      for (const t of this.termsOf[id]!.symbol) symbolEntries.push([t, id])
      for (const t of this.termsOf[id]!.name) nameEntries.push([t, id])
    }
    this.symbols = TermDictionary.from(symbolEntries)
    this.names = TermDictionary.from(nameEntries)
  }

  upsert(d: D): void {
    this.remove(this.spec.key(d))
    const id = this.place(d)
    for (const t of this.termsOf[id]!.symbol) this.symbols.add(t, id)
    for (const t of this.termsOf[id]!.name) this.names.add(t, id)
  }

  remove(key: string): void {
    const id = this.slots.get(key)
    if (id === undefined) return
    const d = this.docs[id]!
    this.invalidate(id)
    for (const t of this.termsOf[id]!.symbol) this.symbols.remove(t, id)
    for (const t of this.termsOf[id]!.name) this.names.remove(t, id)
    this.own.get(this.spec.address(d))?.delete(id)
    for (const a of this.spec.related(d)) this.related.get(a)?.delete(id)
    this.docs[id] = undefined
    this.slots.delete(key)
    this.free.push(id)
  }

  private place(d: D): number {
    const id = this.free.pop() ?? this.docs.length
    this.docs[id] = d
    this.popularity[id] = this.spec.popularity(d)
    const symbol = terms(this.spec.symbolText(d))
    this.termsOf[id] = { symbol, name: terms(this.spec.nameText(d)).filter((t) => !symbol.includes(t)) }
    this.symbolCount[id] = symbol.length
    this.slots.set(this.spec.key(d), id)
    this.invalidate(id)
    addTo(this.own, this.spec.address(d), id)
    for (const a of this.spec.related(d)) addTo(this.related, a, id)
    return id
  }

  private invalidate(id: number): void {
    if (this.short.size === 0) return
    const { symbol, name } = this.termsOf[id]!
    for (const t of [...symbol, ...name]) {
      for (const prefix of [t.slice(0, 1), t.slice(0, 2)]) {
        const keys = this.shortByPrefix.get(prefix)
        if (keys === undefined) continue
        for (const key of keys) this.short.delete(key)
        this.shortByPrefix.delete(prefix)
      }
    }
  }

  search(query: QueryBase, sort: S | "relevance"): ResultPage<D> {
    const words = asAddress(query.q) === null ? terms(query.q, MAX_QUERY_WORDS) : []
    if (words.length === 1 && words[0]!.length <= 2) return this.searchShort(words[0]!, query, sort)
    const found = this.candidates(query, sort)
    const need = query.page * query.limit
    const { ids, score, match, sortValue } = found
    const compare =
      sort === "relevance"
        ? (a: number, b: number) => score[b]! - score[a]! || a - b
        : (a: number, b: number) => sortValue[b]! - sortValue[a]! || score[b]! - score[a]! || a - b
    const top = topK(ids, need, compare)
    const hits: Array<Hit<D>> = top.slice((query.page - 1) * query.limit).map((id) => ({
      document: this.docs[id]!,
      score: Math.round(score[id]! * 1000) / 1000,
      match: match[id]!
    }))
    return { hits, total: ids.length }
  }

  private searchShort(word: string, query: QueryBase, sort: S | "relevance"): ResultPage<D> {
    const key = `${word}|${query.chainId ?? ""}|${query.launchpad ?? ""}|${query.graduated ?? ""}|${sort}`
    let result = this.short.get(key)
    if (result === undefined) {
      const { ids, score, match, sortValue } = this.candidates(query, sort)
      const compare =
        sort === "relevance"
          ? (a: number, b: number) => score[b]! - score[a]! || a - b
          : (a: number, b: number) => sortValue[b]! - sortValue[a]! || score[b]! - score[a]! || a - b
      const top = topK(ids, CACHE_DEPTH, compare)
      result = {
        ids: top,
        scores: top.map((id) => score[id]!),
        matches: top.map((id) => match[id]!),
        total: ids.length
      }
      if (this.short.size >= CACHE_ENTRIES) this.short.delete(this.short.keys().next().value!)
      this.short.set(key, result)
      let keys = this.shortByPrefix.get(word)
      if (keys === undefined) this.shortByPrefix.set(word, (keys = new Set()))
      keys.add(key)
    }
    const from = (query.page - 1) * query.limit
    const hits: Array<Hit<D>> = []
    for (let i = from; i < Math.min(result.ids.length, from + query.limit); i++) {
      hits.push({
        document: this.docs[result.ids[i]!]!,
        score: Math.round(result.scores[i]! * 1000) / 1000,
        match: result.matches[i]!
      })
    }
    return { hits, total: result.total }
  }

  /** Matching slots (after filters) with their score, match kind and sort value in slot-indexed arrays. */
  private candidates(query: QueryBase, sort: S | "relevance") {
    const s = this.scratch
    s.ensure(this.docs.length)
    const ids: Array<number> = []
    const filtered = query.chainId !== undefined || query.launchpad !== undefined || query.graduated !== undefined
    const add = (id: number, score: number, match: MatchKind) => {
      const d = this.docs[id]
      if (d === undefined || (filtered && !this.spec.passes(d, query))) return
      s.score[id] = score
      s.match[id] = match
      s.sortValue[id] =
        match === "address"
          ? Infinity
          : sort === "relevance"
            ? 0
            : this.spec.sortValue(d, sort as Exclude<S, "relevance">)
      ids.push(id)
    }
    const out = { ids, score: s.score, match: s.match, sortValue: s.sortValue }
    const address = asAddress(query.q)
    if (address !== null) {
      // An address is looked up, never matched as text: a near-miss address finds nothing.
      const own = this.own.get(address) ?? NONE
      for (const id of own) add(id, ADDRESS_SCORE + this.popularity[id]!, "address")
      for (const id of this.related.get(address) ?? NONE)
        if (!own.has(id)) add(id, RELATED_ADDRESS_SCORE + this.popularity[id]!, "token")
      return out
    }
    const words = terms(query.q, MAX_QUERY_WORDS)
    if (words.length === 0) {
      if (query.q.trim() === "")
        for (const id of this.slots.values()) add(id, this.spec.score(0, false, this.popularity[id]!), "all")
      return out
    }
    const matched = s.begin()
    for (let w = 0; w < words.length; w++) {
      const word = words[w]!
      const prefix = w === words.length - 1
      const budget = typoBudget(word)
      const pass = s.beginWord()
      for (const dictionary of [this.symbols, this.names]) {
        const onSymbol = dictionary === this.symbols
        for (const { term, distance } of dictionary.lookup(word, prefix, budget)) {
          const exact = distance === 0 && term === word
          const postings = dictionary.documents(term)
          for (let i = 0; i < postings.length; i++) {
            const id = postings[i]!
            // Every word must match: from the second word on, only documents all earlier words matched.
            if (w > 0 && (s.stamp[id] !== matched || s.count[id] !== w)) continue
            const score = wordScore(distance, exact, onSymbol, exact && onSymbol && this.symbolCount[id] === 1)
            s.offer(id, pass, score, distance, exact)
          }
        }
      }
      s.foldWord(w, matched)
    }
    const n = words.length
    for (const id of s.touched) {
      if (s.count[id] !== n) continue
      const typos = s.distance[id]! > 0
      add(
        id,
        this.spec.score(s.total[id]! / n, typos, this.popularity[id]!),
        typos ? "typo" : s.exact[id] === 1 ? "exact" : "prefix"
      )
    }
    return out
  }
}
