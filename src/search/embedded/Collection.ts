import { ADDRESS_SCORE, RELATED_ADDRESS_SCORE, wordScore } from "../Ranking.ts"
import type { Hit, MatchKind, QueryBase, ResultPage } from "../SearchQuery.ts"
import { TermDictionary } from "../text/TermDictionary.ts"
import { asAddress, terms, typoBudget } from "../text/Terms.ts"
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

interface Candidate {
  readonly id: number
  readonly score: number
  readonly match: MatchKind
  readonly sortValue: number
}

const MAX_QUERY_WORDS = 8

/**
 * One in-memory collection (tokens or pools): documents in slots, a term dictionary over their symbol and name
 * words, and address maps. Writes replace a document's terms; reads never see a half-written document because the
 * index is only touched from one fiber at a time and JavaScript does not interleave synchronous code.
 */
export class Collection<D, S extends string> {
  private docs: Array<D | undefined> = []
  private popularity: Array<number> = []
  private symbolTerms: Array<ReadonlyArray<string>> = []
  private nameTerms: Array<ReadonlyArray<string>> = []
  private readonly slots = new Map<string, number>()
  private readonly free: Array<number> = []
  private dictionary = new TermDictionary()
  private readonly own = new Map<string, Set<number>>()
  private readonly related = new Map<string, Set<number>>()

  private readonly spec: CollectionSpec<D, S>

  constructor(spec: CollectionSpec<D, S>) {
    this.spec = spec
  }

  get size(): number {
    return this.slots.size
  }

  get termCount(): number {
    return this.dictionary.size
  }

  get(key: string): D | undefined {
    const id = this.slots.get(key)
    return id === undefined ? undefined : this.docs[id]
  }

  /** Replaces every document (start-up, full refresh): one bulk dictionary build. */
  replaceAll(documents: Iterable<D>): void {
    this.docs = []
    this.popularity = []
    this.symbolTerms = []
    this.nameTerms = []
    this.slots.clear()
    this.free.length = 0
    this.own.clear()
    this.related.clear()
    const entries: Array<readonly [string, number]> = []
    for (const d of documents) {
      const id = this.place(d)
      for (const t of this.symbolTerms[id]!) entries.push([t, id])
      for (const t of this.nameTerms[id]!) entries.push([t, id])
    }
    this.dictionary = TermDictionary.from(entries)
  }

  upsert(d: D): void {
    this.remove(this.spec.key(d))
    const id = this.place(d)
    for (const t of this.symbolTerms[id]!) this.dictionary.add(t, id)
    for (const t of this.nameTerms[id]!) this.dictionary.add(t, id)
  }

  remove(key: string): void {
    const id = this.slots.get(key)
    if (id === undefined) return
    const d = this.docs[id]!
    for (const t of this.symbolTerms[id]!) this.dictionary.remove(t, id)
    for (const t of this.nameTerms[id]!) this.dictionary.remove(t, id)
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
    this.symbolTerms[id] = symbol
    this.nameTerms[id] = terms(this.spec.nameText(d)).filter((t) => !symbol.includes(t))
    this.slots.set(this.spec.key(d), id)
    addTo(this.own, this.spec.address(d), id)
    for (const a of this.spec.related(d)) addTo(this.related, a, id)
    return id
  }

  search(query: QueryBase, sort: S | "relevance"): ResultPage<D> {
    const candidates = this.candidates(query, sort)
    const need = query.page * query.limit
    const compare = sort === "relevance" ? byScore : bySortValue
    const top = topK(candidates, need, compare)
    const hits: Array<Hit<D>> = top.slice((query.page - 1) * query.limit).map((c) => ({
      document: this.docs[c.id]!,
      score: Math.round(c.score * 1000) / 1000,
      match: c.match
    }))
    return { hits, total: candidates.length }
  }

  private candidates(query: QueryBase, sort: S | "relevance"): Array<Candidate> {
    const out: Array<Candidate> = []
    const add = (id: number, score: number, match: MatchKind) => {
      const d = this.docs[id]
      if (d === undefined || !this.spec.passes(d, query)) return
      const sortValue = sort === "relevance" ? 0 : this.spec.sortValue(d, sort as Exclude<S, "relevance">)
      out.push({ id, score, match, sortValue: match === "address" ? Infinity : sortValue })
    }
    const address = asAddress(query.q)
    if (address !== null) {
      // An address is looked up, never matched as text: a near-miss address finds nothing.
      const own = this.own.get(address) ?? NONE
      for (const id of own) add(id, ADDRESS_SCORE + this.popularity[id]!, "address")
      for (const id of this.related.get(address) ?? NONE) if (!own.has(id)) add(id, RELATED_ADDRESS_SCORE + this.popularity[id]!, "token")
      return out
    }
    const words = terms(query.q, MAX_QUERY_WORDS)
    if (words.length === 0) {
      if (query.q.trim() !== "") return out
      for (const id of this.slots.values()) add(id, this.spec.score(0, false, this.popularity[id]!), "all")
      return out
    }
    let acc: Map<number, WordHit> | undefined
    for (let w = 0; w < words.length; w++) {
      const hits = this.matchWord(words[w]!, w === words.length - 1)
      if (acc === undefined) acc = hits
      else {
        const next = new Map<number, WordHit>()
        for (const [id, h] of acc) {
          const other = hits.get(id)
          if (other !== undefined) {
            next.set(id, { score: h.score + other.score, distance: Math.max(h.distance, other.distance), exact: h.exact && other.exact })
          }
        }
        acc = next
      }
      if (acc.size === 0) return out
    }
    for (const [id, h] of acc!) {
      const typos = h.distance > 0
      add(id, this.spec.score(h.score / words.length, typos, this.popularity[id]!), typos ? "typo" : h.exact ? "exact" : "prefix")
    }
    return out
  }

  /** Documents matching one query word, each with its best word score. The last word is matched as a prefix. */
  private matchWord(word: string, prefix: boolean): Map<number, WordHit> {
    const out = new Map<number, WordHit>()
    for (const { term, distance } of this.dictionary.lookup(word, prefix, typoBudget(word))) {
      const exact = distance === 0 && term === word
      for (const id of this.dictionary.documents(term)) {
        const symbol = this.symbolTerms[id]!
        const score = wordScore(distance, exact, symbol.includes(term), symbol[0] === term && symbol.length === 1)
        const seen = out.get(id)
        if (seen === undefined || score > seen.score) out.set(id, { score, distance, exact })
      }
    }
    return out
  }
}

const NONE: ReadonlySet<number> = new Set()

const addTo = (map: Map<string, Set<number>>, key: string, id: number) => {
  let ids = map.get(key)
  if (ids === undefined) map.set(key, (ids = new Set()))
  ids.add(id)
}

interface WordHit {
  readonly score: number
  readonly distance: number
  readonly exact: boolean
}

const byScore = (a: Candidate, b: Candidate) => b.score - a.score || a.id - b.id
const bySortValue = (a: Candidate, b: Candidate) =>
  (b.sortValue === a.sortValue ? 0 : b.sortValue > a.sortValue ? 1 : -1) || b.score - a.score || a.id - b.id

