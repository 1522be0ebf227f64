/**
 * What a filter's eth_getLogs range remembers of the provider's refusals of its size. A refused size is not asked
 * again for a while (under a hard cap every second request would be refused: the range doubles after each answer),
 * but not forever either: a plan's cap can be lifted, and one transient refusal must not halve the throughput for
 * good. After `probeAt` the range may grow past the ceiling again; a refusal of that probe sets the ceiling again and
 * doubles the wait, so a hard cap costs one refusal per wait (10 min, 20, 40, … up to a day with the defaults); an
 * answer above the ceiling forgets it.
 */
export interface RangeCeiling {
  /** The largest range to ask for until `probeAt`. */
  readonly blocks: number
  /** When (ms since the epoch) the range may grow past `blocks` again. */
  readonly probeAt: number
  /** The wait that set `probeAt`: the next refusal waits twice as long. */
  readonly waitMs: number
}

/** The longest wait between two probes of a refused size. */
export const MAX_PROBE_WAIT_MS = 24 * 3_600_000

/** The range a filter may ask for at `now` (no limit without a ceiling, or once its probe time has come). */
export const ceilingAt = (ceiling: RangeCeiling | undefined, now: number): number =>
  ceiling === undefined || now >= ceiling.probeAt ? Number.POSITIVE_INFINITY : ceiling.blocks

/**
 * After a refusal at `now`: the filter may ask for at most `smaller` blocks. A refusal while the ceiling holds (a cap
 * lowered further) keeps its wait; one after the probe time (the probe refused) doubles it.
 */
export const afterRefusal = (
  previous: RangeCeiling | undefined,
  smaller: number,
  now: number,
  firstWaitMs: number
): RangeCeiling => {
  if (previous === undefined) return { blocks: smaller, probeAt: now + firstWaitMs, waitMs: firstWaitMs }
  if (now < previous.probeAt) return { ...previous, blocks: Math.min(previous.blocks, smaller) }
  const waitMs = Math.min(MAX_PROBE_WAIT_MS, Math.max(firstWaitMs, previous.waitMs * 2))
  return { blocks: smaller, probeAt: now + waitMs, waitMs }
}

/** After an answer over `asked` blocks: a ceiling below it no longer holds (the cap was lifted or raised). */
export const afterAnswer = (ceiling: RangeCeiling | undefined, asked: number): RangeCeiling | undefined =>
  ceiling !== undefined && asked > ceiling.blocks ? undefined : ceiling
