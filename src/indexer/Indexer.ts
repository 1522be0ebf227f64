import { Cause, Context, Duration, Effect, Fiber, Layer, Option, Schedule } from "effect"
import { buildBatch, type BuiltBatch, fetchRange, type RangeLogs } from "./Batch.ts"
import { type BlockHeader, ChainReader } from "./fetch/ChainReader.ts"
import { IndexerConfig } from "./IndexerConfig.ts"
import { IndexerEvents } from "./IndexerEvents.ts"
import { baseTokensOf, IndexerSource } from "./IndexerSource.ts"
import { IndexerStatus } from "./IndexerStatus.ts"
import type { ProjectionState } from "./project/State.ts"
import { afterRollback, describeTarget, noRollback, repeatDelay, rollbackKey } from "./loop/RepeatedRollback.ts"
import { advanceProgress, type BackfillProgress } from "./loop/BackfillProgress.ts"
import { type Checkpoint, type CommitInput, type RollbackTarget, rollbackKeeps, Store, WriterLockLost } from "./store/Store.ts"

export class ReorgTooDeep extends Error {}

/** The innermost message of a failure (SqlError and RpcError wrap the driver's error). */
const describe = (cause: Cause.Cause<unknown>): string => {
  const parts: Array<string> = []
  let e: unknown = Cause.squash(cause)
  for (let i = 0; i < 4 && e !== undefined && e !== null; i++) {
    const m = (e as { message?: unknown }).message
    if (typeof m === "string" && m !== "" && !parts.includes(m)) parts.push(m)
    e = (e as { cause?: unknown }).cause
  }
  return (parts.join(": ") || Cause.pretty(cause)).slice(0, 1000)
}

/**
 * The chain follower: takes the writer lock, then loops forever: poll the head, check that the chain still extends
 * the checkpoint (else roll back to the common ancestor), index the next range (up to INDEXER_MAX_BLOCK_RANGE blocks)
 * in one transaction, publish what changed. At the head it polls every INDEXER_POLL_MS.
 */
export const runIndexer = Effect.gen(function*() {
  const source = yield* IndexerSource
  const settings = yield* IndexerConfig
  const reader = yield* ChainReader
  const store = yield* Store
  const status = yield* IndexerStatus
  const events = yield* IndexerEvents
  const { chainId, contracts } = source
  const weth = contracts.weth.toLowerCase()
  const stablecoin = contracts.stablecoin?.toLowerCase()
  const base = baseTokensOf(source)

  yield* status.update((s) => ({ ...s, phase: "waiting-for-lock" }))
  yield* store.lock(settings.lockKey, Effect.logInfo("indexer: another process holds the writer lock; waiting"))
  yield* status.update((s) => ({ ...s, phase: "starting" }))

  const head0 = yield* reader.head
  const metadata = new Map(yield* Effect.forEach(base, (t) => Effect.map(reader.tokenMetadata(t, head0), (m) => [t, m] as const)))
  yield* store.ensureTokens(metadata)
  let state: ProjectionState = yield* store.loadState(weth, stablecoin, base)
  const reload = Effect.gen(function*() {
    state = yield* store.loadState(weth, stablecoin, base)
  })
  const rate: Array<{ t: number; n: number }> = []
  // A backfill logs its progress every few seconds (src/indexer/loop/BackfillProgress.ts); null when at the head.
  let backfill: BackfillProgress | null = null

  // The next range's logs are fetched while this range is projected and committed (the node answers on another core;
  // a remote node's round trips are hidden), only where blocks are final: logs fetched before the range's headers could
  // miss a block that a reorg replaced. Dropped (interrupted) by anything that does not go on with exactly that range.
  let ahead: { readonly from: bigint; readonly to: bigint; readonly fiber: Fiber.Fiber<RangeLogs, unknown> } | null = null
  const dropAhead = Effect.suspend(() => {
    const a = ahead
    ahead = null
    return a === null ? Effect.void : Fiber.interrupt(a.fiber)
  })

  /**
   * The checkpoint; one below the start block counts as none. A rollback to before the start block deletes the
   * checkpoint, but an older version stored the block before the start block there, and a chain whose block 0 is not
   * its block 1's parent (anvil re-creating the genesis on a warm start) then failed the parent check forever.
   */
  const checkpoint = Effect.map(store.checkpoint, Option.filter((c: Checkpoint) => c.blockNumber >= source.startBlock))

  /**
   * Walks back from `from` comparing stored hashes with the chain's; the first match is the common ancestor. Past the
   * start block, every indexed block was replaced: back to before the start (nothing of it to check against).
   */
  const findAncestor = (from: bigint) => Effect.gen(function*() {
    for (let n = from; n >= source.startBlock; n--) {
      const stored = yield* store.storedHash(n)
      if (Option.isNone(stored)) {
        if (source.reindexOnDeepReorg) {
          yield* Effect.logWarning(`indexer: the chain no longer contains the indexed blocks below ${from}; re-indexing from the start block`)
          break
        }
        return yield* Effect.die(new ReorgTooDeep(`reorg deeper than FINALITY_DEPTH (${settings.finalityDepth}) below block ${from}`))
      }
      const remote = yield* reader.header(n)
      if (remote.hash === stored.value) return { _tag: "Block", header: remote } satisfies RollbackTarget
    }
    return { _tag: "BeforeStart", startBlock: source.startBlock } satisfies RollbackTarget
  })

  /** Rollbacks repeated without a commit in between wait longer each time (and say so in the status). */
  let rollbacks = noRollback
  const rollbackTo = (from: bigint, tip: bigint) => Effect.gen(function*() {
    yield* dropAhead
    const target: RollbackTarget = yield* findAncestor(from)
    rollbacks = afterRollback(rollbacks, rollbackKey(tip, target))
    if (rollbacks.repeats > 0) {
      const delay = repeatDelay(rollbacks.repeats)
      const message = `the rollback from ${tip} to ${describeTarget(target)} repeats without progress ` +
        `(${rollbacks.repeats + 1} times in a row): next attempt in ${Duration.format(delay)}`
      yield* Effect.logError(`indexer: ${message}`)
      yield* status.update((s) => ({ ...s, phase: "retrying", lastError: message }))
      yield* Effect.sleep(delay)
    }
    yield* Effect.logWarning(`indexer: reorg, rolling back from ${tip} to ${describeTarget(target)}`)
    const touched = yield* store.rollback(target)
    yield* reload
    const kept = target._tag === "Block" ? target.header : null
    yield* status.update((s) => ({ ...s, reorgs: s.reorgs + 1, lastIndexedBlock: kept?.number ?? null, lastIndexedTimestamp: kept?.timestamp ?? null }))
    yield* events.publish({ kind: "reorg", chainId, fromBlock: rollbackKeeps(target) + 1n, toBlock: tip, pools: touched.pools, tokens: touched.tokens, launches: [] })
  })

  // The commit of the last built batch runs while the next batch is fetched, decoded and projected (the projection
  // only needs the in-memory state, which already includes the batch in flight). It is joined before the next commit,
  // before any rollback and at the head; if it fails, the next batch is discarded and the state reloaded.
  let pending: { readonly fiber: Fiber.Fiber<void, unknown>; readonly to: BlockHeader } | null = null
  const settle = Effect.suspend(() => {
    const p = pending
    pending = null
    return p === null ? Effect.void : Fiber.join(p.fiber)
  })
  const settleQuietly = Effect.suspend(() => {
    const p = pending
    pending = null
    return p === null ? Effect.void : Effect.asVoid(Fiber.await(p.fiber))
  })

  const commitAndReport = (input: CommitInput, batch: BuiltBatch, head: bigint) => Effect.gen(function*() {
    const touched = yield* store.commit(input)
    rollbacks = noRollback
    const from = input.from
    const to = input.to.number
    const now = Date.now()
    rate.push({ t: now, n: batch.logCount })
    while (rate.length > 1 && now - rate[0]!.t > 10_000) rate.shift()
    const elapsed = Math.max(1, now - (rate[0]?.t ?? now)) / 1000
    yield* status.update((s) => ({
      ...s,
      lastIndexedBlock: to,
      lastIndexedTimestamp: input.to.timestamp,
      lagBlocks: head - to,
      eventsTotal: s.eventsTotal + batch.logCount,
      eventsPerSecond: rate.length > 1 ? Math.round(rate.slice(1).reduce((a, r) => a + r.n, 0) / elapsed) : batch.logCount,
      ready: s.ready || to >= head,
      phase: to >= head ? "following" : s.phase,
      lastError: null
    }))
    const progress = advanceProgress(backfill, { from, to, events: batch.logCount, head, now })
    backfill = progress.progress
    if (progress.line !== undefined) yield* Effect.logInfo(progress.line)
    // After the status: the change notifier (IndexerChangeFeed) sends the status with each change, and the last batch
    // of a backfill must say "following" (it said "backfilling" until the next block).
    yield* events.publish({ kind: "batch", chainId, fromBlock: from, toBlock: to, pools: touched.pools, tokens: touched.tokens, launches: batch.rows.newLaunches })
  })

  /** The last block of the range after `last`: the reader's current eth_getLogs range, not past the head. */
  const rangeEnd = (last: bigint, head: bigint) =>
    Effect.map(reader.logRange, (blocks) => (last + BigInt(blocks) < head ? last + BigInt(blocks) : head))

  /** The head seen by the last poll: waiting at the head returns at once if a later one was announced meanwhile. */
  let lastHead = -1n
  const step = Effect.gen(function*() {
    const head = yield* reader.head
    lastHead = head
    if (pending !== null && pending.to.number >= head) yield* settle
    const inFlight = pending
    const cp = inFlight === null
      ? yield* checkpoint
      : Option.some({ blockNumber: inFlight.to.number, hash: inFlight.to.hash, timestamp: inFlight.to.timestamp })
    const cursor = Option.match(cp, { onNone: () => source.startBlock - 1n, onSome: (c) => c.blockNumber })
    const finalBoundary = head - BigInt(settings.finalityDepth)

    if (Option.isSome(cp) && cursor >= head) {
      // At (or above) the head: the tip we indexed must still be on the chain.
      const tip = yield* reader.header(head < cursor ? head : cursor)
      const stored = yield* store.storedHash(tip.number)
      if (head < cursor || (Option.isSome(stored) && stored.value !== tip.hash)) return yield* rollbackTo(tip.number, cursor).pipe(Effect.as(true))
      yield* dropAhead
      const c = cp.value
      yield* status.update((s) => ({
        ...s, phase: "following", head, lagBlocks: 0n, ready: true, lastIndexedBlock: c.blockNumber, lastIndexedTimestamp: c.timestamp
      }))
      return false
    }
    const from = cursor + 1n
    // A batch is one eth_getLogs range: the reader's current one, which follows the chain's log density
    // (INDEXER_TARGET_LOGS per response), so dense stretches take small batches and sparse ones up to the max.
    // A range fetched ahead decides the batch's end (the reader's range may have changed since).
    // Still final against this head (an RPC behind a load balancer can answer with an older head).
    const fetched = ahead !== null && ahead.from === from && ahead.to <= finalBoundary ? ahead : null
    if (fetched === null) yield* dropAhead
    const to = fetched !== null ? fetched.to : yield* rangeEnd(cursor, head)
    yield* status.update((s) => ({ ...s, head, lagBlocks: head - cursor, phase: s.ready ? "following" : "backfilling" }))

    // Headers: the range's first and last, and every unfinalized one (their hashes are kept).
    const unfinalizedFrom = finalBoundary + 1n > from ? finalBoundary + 1n : from
    const numbers = new Set<bigint>([from, to])
    for (let n = unfinalizedFrom; n <= to; n++) numbers.add(n)
    const headers = new Map((yield* reader.headers([...numbers])).map((h) => [h.number, h]))
    const first = headers.get(from)!
    if (Option.isSome(cp) && first.parentHash !== cp.value.hash) {
      yield* settle
      return yield* rollbackTo(cursor, cursor).pipe(Effect.as(true))
    }
    const unfinalized: Array<BlockHeader> = []
    for (let n = unfinalizedFrom; n <= to; n++) {
      const h = headers.get(n)!
      const parent = headers.get(n - 1n)
      // The chain moved while we read: again.
      if (parent !== undefined && h.parentHash !== parent.hash) return yield* dropAhead.pipe(Effect.as(true))
      unfinalized.push(h)
    }
    const toHeader = headers.get(to)!

    ahead = null
    const range = fetched !== null ? yield* Fiber.join(fetched.fiber) : yield* fetchRange(contracts, state, from, to)
    const batch = yield* buildBatch(chainId, contracts, state, range, toHeader)
    // Logs of unfinalized blocks must come from the blocks whose hashes we keep.
    for (const [n, hash] of batch.logBlockHashes) {
      const h = headers.get(n)
      if (h !== undefined && h.hash !== hash) {
        yield* settle
        return yield* reload.pipe(Effect.as(true))
      }
    }
    // The next range, if it is final, while this one commits and the next step starts (the state has this batch's
    // children now).
    const nextTo = yield* rangeEnd(to, head)
    // INDEXER_RPC_CONCURRENCY 1 (a provider that takes one request at a time) also means no fetch ahead.
    if (to < head && nextTo <= finalBoundary && settings.rpcConcurrency > 1) {
      ahead = { from: to + 1n, to: nextTo, fiber: yield* Effect.forkChild(fetchRange(contracts, state, to + 1n, nextTo)) }
    }
    yield* settle
    const input: CommitInput = { rows: batch.rows, tokenMetadata: batch.tokenMetadata, from, to: toHeader, unfinalized, finalizedBelow: finalBoundary }
    pending = { fiber: yield* Effect.forkChild(commitAndReport(input, batch, head)), to: toHeader }
    // At the head nothing follows to overlap with: commit now (head latency).
    if (to >= head) yield* settle
    return to < head
  })

  for (;;) {
    const more = yield* step.pipe(
      Effect.catchCause((cause) => {
        if (Cause.hasDies(cause) && Cause.squash(cause) instanceof ReorgTooDeep) return Effect.failCause(cause)
        // Another process may be the writer now: stop here (the supervisor restarts, which waits for the lock).
        if (Cause.squash(cause) instanceof WriterLockLost) {
          return settleQuietly.pipe(
            Effect.andThen(dropAhead),
            Effect.andThen(status.update((s) => ({ ...s, phase: "retrying", lastError: describe(cause) }))),
            Effect.andThen(Effect.failCause(cause))
          )
        }
        const message = describe(cause)
        return Effect.logError(`indexer: batch failed, retrying: ${message}`).pipe(
          Effect.andThen(status.update((s) => ({ ...s, phase: "retrying", lastError: message }))),
          Effect.andThen(settleQuietly),
          Effect.andThen(dropAhead),
          Effect.andThen(reload.pipe(Effect.ignore)),
          Effect.andThen(Effect.sleep("1 second")),
          Effect.as(true)
        )
      })
    )
    if (!more) yield* reader.awaitNewHead(lastHead, settings.pollIntervalMs)
  }
})

/**
 * The loop already retries a failed batch; this restarts the whole indexer (state reloaded from the database) when
 * it dies of something unexpected or loses the writer lock, every 5 s. A reorg deeper than the kept block hashes is not retried: the index
 * and the chain disagree below finality, which needs an operator (or a fresh index), so it stops and says so.
 */
const supervised = runIndexer.pipe(
  // Each run holds the writer lock's connection for its own lifetime: released (unlocked) before a restart.
  Effect.scoped,
  Effect.catchCause((cause): Effect.Effect<never, Cause.Cause<unknown>> =>
    Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause as Cause.Cause<never>) : Effect.fail(cause)
  ),
  Effect.tapError((cause: Cause.Cause<unknown>) => Effect.logError(`indexer stopped: ${Cause.pretty(cause)}`)),
  Effect.retry({
    while: (cause: Cause.Cause<unknown>) => !(Cause.squash(cause) instanceof ReorgTooDeep),
    schedule: Schedule.spaced("5 seconds")
  }),
  Effect.ignore
)

/** The pipeline's services over an `IndexerSource` (and SqlClient); `runIndexer` needs exactly these. */
export const indexerServices = (chainId: number) =>
  Layer.mergeAll(ChainReader.layer, Store.layer(chainId)).pipe(
    Layer.provideMerge(Layer.mergeAll(IndexerStatus.layer(chainId), IndexerEvents.layer))
  )

/** Runs the indexer as a background fiber for the lifetime of the layer (interrupted when the layer's scope closes). */
export class Indexer extends Context.Service<Indexer, { readonly started: true }>()("app/indexer/Indexer") {
  static readonly layerFiber = Layer.effect(
    Indexer,
    Effect.gen(function*() {
      yield* Effect.forkScoped(supervised)
      return Indexer.of({ started: true })
    })
  )
}
