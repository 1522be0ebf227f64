import type { MatchKind } from "../SearchQuery.ts"

/**
 * Per-query working memory of a collection, indexed by document slot and reused across queries: generation stamps
 * say which slots the current query (and word) has touched, so nothing is cleared between queries.
 */
export class Scratch {
  /** Query generation that last touched the slot. */
  stamp = new Uint32Array(0)
  /** Words matched so far by the slot (every word must match). */
  count = new Uint8Array(0)
  /** Sum of word scores, worst typo distance, all words exact. */
  total = new Float64Array(0)
  distance = new Uint8Array(0)
  exact = new Uint8Array(0)
  /** Best score of the current word per slot. */
  wordStamp = new Uint32Array(0)
  wordScore = new Float64Array(0)
  wordDistance = new Uint8Array(0)
  wordExact = new Uint8Array(0)
  /** Results of the query: score, match kind, sort value per slot. */
  score = new Float64Array(0)
  sortValue = new Float64Array(0)
  match: Array<MatchKind> = []
  touched: Array<number> = []
  private wordTouched: Array<number> = []
  private generation = 0
  private wordGeneration = 0

  ensure(size: number): void {
    if (this.stamp.length >= size) return
    const n = Math.max(size, this.stamp.length * 2, 1024)
    const grow = <T extends Uint32Array | Uint8Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(n)
      b.set(a as any)
      return b
    }
    this.stamp = grow(this.stamp, (k) => new Uint32Array(k))
    this.count = grow(this.count, (k) => new Uint8Array(k))
    this.total = grow(this.total, (k) => new Float64Array(k))
    this.distance = grow(this.distance, (k) => new Uint8Array(k))
    this.exact = grow(this.exact, (k) => new Uint8Array(k))
    this.wordStamp = grow(this.wordStamp, (k) => new Uint32Array(k))
    this.wordScore = grow(this.wordScore, (k) => new Float64Array(k))
    this.wordDistance = grow(this.wordDistance, (k) => new Uint8Array(k))
    this.wordExact = grow(this.wordExact, (k) => new Uint8Array(k))
    this.score = grow(this.score, (k) => new Float64Array(k))
    this.sortValue = grow(this.sortValue, (k) => new Float64Array(k))
  }

  /** Starts a query; returns its generation. */
  begin(): number {
    this.touched = []
    return ++this.generation
  }

  beginWord(): number {
    this.wordTouched = []
    return ++this.wordGeneration
  }

  /** A posting of the current word: keeps the slot's best score for this word. */
  offer(id: number, pass: number, score: number, distance: number, exact: boolean): void {
    if (this.wordStamp[id] !== pass) {
      this.wordStamp[id] = pass
      this.wordScore[id] = score
      this.wordDistance[id] = distance
      this.wordExact[id] = exact ? 1 : 0
      this.wordTouched.push(id)
    } else if (score > this.wordScore[id]!) {
      this.wordScore[id] = score
      this.wordDistance[id] = distance
      this.wordExact[id] = exact ? 1 : 0
    }
  }

  /** Adds the current word's best scores to the query totals of the slots it matched. */
  foldWord(w: number, generation: number): void {
    for (const id of this.wordTouched) {
      if (w === 0) {
        this.stamp[id] = generation
        this.count[id] = 1
        this.total[id] = this.wordScore[id]!
        this.distance[id] = this.wordDistance[id]!
        this.exact[id] = this.wordExact[id]!
        this.touched.push(id)
      } else {
        this.count[id] = w + 1
        this.total[id] = this.total[id]! + this.wordScore[id]!
        this.distance[id] = Math.max(this.distance[id]!, this.wordDistance[id]!)
        this.exact[id] = this.exact[id]! & this.wordExact[id]!
      }
    }
  }
}
