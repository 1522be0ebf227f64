import { assert, describe, it } from "@effect/vitest"
import {
  advanceProgress,
  type BackfillProgress,
  type CommittedBatch,
  formatDuration
} from "../../src/indexer/loop/BackfillProgress.ts"

/** Feeds batches in order and collects the lines logged. */
const run = (batches: ReadonlyArray<CommittedBatch>, everyMs = 5_000) => {
  let progress: BackfillProgress | null = null
  const lines: Array<string> = []
  for (const batch of batches) {
    const step = advanceProgress(progress, batch, everyMs)
    progress = step.progress
    if (step.line !== undefined) lines.push(step.line)
  }
  return { lines, progress }
}

/** A backfill of blocks 1..10,000 in batches of 1,000 blocks, one per `msPerBatch`, 2,000 events each. */
const backfill = (msPerBatch: number, head = 10_000n) =>
  Array.from(
    { length: Number(head / 1000n) },
    (_, i): CommittedBatch => ({
      from: BigInt(i * 1000 + 1),
      to: BigInt((i + 1) * 1000),
      events: 2_000,
      head,
      now: 1_000_000 + (i + 1) * msPerBatch
    })
  )

describe("backfill progress lines (src/indexer/loop/BackfillProgress.ts)", () => {
  it("a line every interval: blocks done of the total, events/s since the last line, ETA at the block rate so far", () => {
    // One batch per 2.5 s; rates from the first batch's commit on (400 blocks/s, 800 events/s): a line at the 3rd, 5th,
    // 7th and 9th batch; the ETA is the blocks left at 400 blocks/s (7,000 → 17.5 s).
    const { lines, progress } = run(backfill(2_500))
    assert.deepStrictEqual(lines, [
      "indexer: backfill 3,000/10,000 blocks (30.0%), 800 events/s, ETA 18s",
      "indexer: backfill 5,000/10,000 blocks (50.0%), 800 events/s, ETA 13s",
      "indexer: backfill 7,000/10,000 blocks (70.0%), 800 events/s, ETA 8s",
      "indexer: backfill 9,000/10,000 blocks (90.0%), 800 events/s, ETA 3s",
      "indexer: backfill done: 10,000 blocks, 20,000 events in 23s (800 events/s); following the head"
    ])
    assert.isNull(progress, "at the head there is no backfill")
  })

  it("a backfill shorter than one interval (a warm start catching up) logs nothing, not even that it is done", () => {
    assert.deepStrictEqual(run(backfill(100)).lines, [])
  })

  it("batches at the head are not a backfill; a later one counts from where it starts", () => {
    const atHead = { from: 10n, to: 10n, events: 5, head: 10n, now: 0 }
    assert.deepStrictEqual(advanceProgress(null, atHead), { progress: null, line: undefined })
    const late = run([
      atHead,
      { from: 11n, to: 110n, events: 10, head: 1_010n, now: 1_000 },
      { from: 111n, to: 510n, events: 40, head: 1_010n, now: 7_000 }
    ])
    assert.deepStrictEqual(late.lines, ["indexer: backfill 500/1,000 blocks (50.0%), 7 events/s, ETA 7s"])
    assert.strictEqual(late.progress?.fromBlock, 11n)
  })

  it("durations read as seconds, minutes or hours", () => {
    assert.deepStrictEqual([0, 45.4, 192, 3_600, 7_500, -1].map(formatDuration), [
      "0s",
      "45s",
      "3m 12s",
      "1h 00m",
      "2h 05m",
      "0s"
    ])
  })
})
