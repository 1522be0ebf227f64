/**
 * The log lines of a long backfill: every few seconds, how far it got (blocks done of the blocks to the head), how fast
 * events are indexed since the last line, and when it should reach the head at the block rate so far. Pure: the
 * indexer loop (src/indexer/loop/Progress.ts) feeds it each committed batch and logs the line it returns. A backfill shorter
 * than one interval (a warm start catching up a few blocks) prints nothing; one that printed a line also prints when it is done.
 * Rates are measured from the first batch's commit on (when that batch started is not known here), so the first batch
 * counts toward the blocks and events done, not toward the rates.
 */

export const BACKFILL_PROGRESS_EVERY_MS = 5_000

export interface BackfillProgress {
  /** First block of this backfill. */
  readonly fromBlock: bigint
  /** When its first batch was committed, and what that batch brought: the baseline of the rates. */
  readonly startedAt: number
  readonly firstTo: bigint
  readonly firstEvents: number
  readonly eventsTotal: number
  readonly lastLineAt: number
  readonly eventsSinceLine: number
  readonly linesPrinted: number
}

export interface CommittedBatch {
  readonly from: bigint
  readonly to: bigint
  readonly events: number
  /** The chain head the batch was planned against. */
  readonly head: bigint
  /** Milliseconds (Date.now()) when it was committed. */
  readonly now: number
}

export interface ProgressStep {
  /** The backfill going on after this batch; `null` at the head. */
  readonly progress: BackfillProgress | null
  readonly line: string | undefined
}

const count = (n: bigint | number) => n.toLocaleString("en-US")

/** `45s`, `3m 12s`, `2h 05m`. */
export const formatDuration = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`
}

/** The next state after a committed batch, and the line to log, if one is due. */
export const advanceProgress = (
  previous: BackfillProgress | null,
  batch: CommittedBatch,
  everyMs: number = BACKFILL_PROGRESS_EVERY_MS
): ProgressStep => {
  const p: BackfillProgress = previous ?? {
    fromBlock: batch.from,
    startedAt: batch.now,
    firstTo: batch.to,
    firstEvents: batch.events,
    eventsTotal: 0,
    lastLineAt: batch.now,
    eventsSinceLine: -batch.events,
    linesPrinted: 0
  }
  const eventsTotal = p.eventsTotal + batch.events
  const eventsSinceLine = p.eventsSinceLine + batch.events
  const done = batch.to - p.fromBlock + 1n
  const elapsedSeconds = (batch.now - p.startedAt) / 1000

  if (batch.to >= batch.head) {
    const line =
      p.linesPrinted === 0
        ? undefined
        : `indexer: backfill done: ${count(done)} blocks, ${count(eventsTotal)} events in ${formatDuration(
            elapsedSeconds
          )} (${count(Math.round((eventsTotal - p.firstEvents) / Math.max(elapsedSeconds, 0.001)))} events/s); following the head`
    return { progress: null, line }
  }

  const next = { ...p, eventsTotal, eventsSinceLine }
  if (batch.now - p.lastLineAt < everyMs) return { progress: next, line: undefined }

  const total = batch.head - p.fromBlock + 1n
  const percent = Number((done * 1000n) / total) / 10
  const eventsPerSecond = Math.round(eventsSinceLine / ((batch.now - p.lastLineAt) / 1000))
  const remaining = Number(batch.head - batch.to)
  const blocksPerSecond = Number(batch.to - p.firstTo) / Math.max(elapsedSeconds, 0.001)
  const line =
    `indexer: backfill ${count(done)}/${count(total)} blocks (${percent.toFixed(1)}%), ${count(eventsPerSecond)} events/s, ` +
    `ETA ${formatDuration(remaining / blocksPerSecond)}`
  return { progress: { ...next, lastLineAt: batch.now, eventsSinceLine: 0, linesPrinted: p.linesPrinted + 1 }, line }
}
