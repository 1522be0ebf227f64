import { Effect } from "effect"
import type { BuiltBatch } from "../Batch.ts"
import { IndexerEvents } from "../IndexerEvents.ts"
import { IndexerSource } from "../IndexerSource.ts"
import { IndexerStatus } from "../IndexerStatus.ts"
import { type CommitInput, type RollbackTarget, rollbackKeeps, type Touched } from "../store/Store.ts"
import { advanceProgress, type BackfillProgress } from "./BackfillProgress.ts"
import type { Step } from "./Decision.ts"

/** What the loop tells the outside: the status (GraphQL `_meta`, the exchange's indexer route) and the change feed. */
export const makeProgress = Effect.gen(function* () {
  const status = yield* IndexerStatus
  const events = yield* IndexerEvents
  const { chainId } = yield* IndexerSource
  // Logs committed over the last 10 s, for eventsPerSecond.
  const rate: Array<{ readonly t: number; readonly n: number }> = []
  const eventsPerSecond = (logCount: number) => {
    const now = Date.now()
    rate.push({ t: now, n: logCount })
    while (rate.length > 1 && now - rate[0]!.t > 10_000) rate.shift()
    const elapsed = Math.max(1, now - (rate[0]?.t ?? now)) / 1000
    return rate.length > 1 ? Math.round(rate.slice(1).reduce((a, r) => a + r.n, 0) / elapsed) : logCount
  }
  // A backfill logs its progress every few seconds (BackfillProgress.ts); null when at the head.
  let backfill: BackfillProgress | null = null

  return {
    atHead: (step: Extract<Step, { _tag: "AtHead" }>) =>
      status.update((s) => ({
        ...s,
        phase: "following",
        head: step.head,
        lagBlocks: 0n,
        ready: true,
        lastIndexedBlock: step.checkpoint.blockNumber,
        lastIndexedTimestamp: step.checkpoint.timestamp
      })),
    batchStarted: (head: bigint, from: bigint) =>
      status.update((s) => ({ ...s, head, lagBlocks: head - from + 1n, phase: s.ready ? "following" : "backfilling" })),
    committed: (input: CommitInput, batch: BuiltBatch, head: bigint, touched: Touched) =>
      Effect.gen(function* () {
        const to = input.to.number
        const perSecond = eventsPerSecond(batch.logCount)
        yield* status.update((s) => ({
          ...s,
          lastIndexedBlock: to,
          lastIndexedTimestamp: input.to.timestamp,
          lagBlocks: head - to,
          eventsTotal: s.eventsTotal + batch.logCount,
          eventsPerSecond: perSecond,
          ready: s.ready || to >= head,
          phase: to >= head ? "following" : s.phase,
          lastError: null
        }))
        const next = advanceProgress(backfill, { from: input.from, to, events: batch.logCount, head, now: Date.now() })
        backfill = next.progress
        if (next.line !== undefined) yield* Effect.logInfo(next.line)
        // After the status: the change notifier (IndexerChangeFeed) sends the status with each change, and the last
        // batch of a backfill must say "following" (it said "backfilling" until the next block).
        yield* events.publish({
          kind: "batch",
          chainId,
          fromBlock: input.from,
          toBlock: to,
          pools: touched.pools,
          tokens: touched.tokens,
          launches: batch.rows.newLaunches
        })
      }),
    rolledBack: (target: RollbackTarget, tip: bigint, touched: Touched) =>
      Effect.gen(function* () {
        const kept = target._tag === "Block" ? target.header : null
        yield* status.update((s) => ({
          ...s,
          reorgs: s.reorgs + 1,
          lastIndexedBlock: kept?.number ?? null,
          lastIndexedTimestamp: kept?.timestamp ?? null
        }))
        yield* events.publish({
          kind: "reorg",
          chainId,
          fromBlock: rollbackKeeps(target) + 1n,
          toBlock: tip,
          pools: touched.pools,
          tokens: touched.tokens,
          launches: []
        })
      }),
    failed: (message: string) => status.update((s) => ({ ...s, phase: "retrying", lastError: message })),
    stopped: (message: string) => status.update((s) => ({ ...s, phase: "stopped", lastError: message })),
    waitingForLock: status.update((s) => ({ ...s, phase: "waiting-for-lock" })),
    starting: status.update((s) => ({ ...s, phase: "starting" }))
  }
})

export type Progress = Effect.Success<typeof makeProgress>
