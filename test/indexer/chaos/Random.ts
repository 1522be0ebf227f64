/**
 * A seeded pseudo-random sequence (mulberry32) for the chaos test, so that a failing run's choices (the activity, the
 * faults and their order) are replayed from its printed CHAOS_SEED. Timing still differs between runs.
 */
export interface Random {
  /** In [0, 1). */
  readonly next: () => number
  /** An integer in [0, n). */
  readonly int: (n: number) => number
  readonly pick: <A>(items: ReadonlyArray<A>) => A
}

export const seededRandom = (seed: number): Random => {
  let state = seed | 0
  const next = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  return {
    next,
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from nothing")
      return items[int(items.length)]!
    }
  }
}
