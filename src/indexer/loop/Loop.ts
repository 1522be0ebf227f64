import { Effect, Option } from "effect"
import { type BuiltBatch, buildBatch, fetchRange } from "../Batch.ts"
import { ChainReader } from "../fetch/ChainReader.ts"
import { IndexerConfig } from "../IndexerConfig.ts"
import { baseTokensOf, IndexerSource, stablecoinsOf } from "../IndexerSource.ts"
import type { ProjectionState } from "../project/State.ts"
import { type Checkpoint, type CommitInput, Store } from "../store/Store.ts"
import {
  type Batch,
  decideAtTip,
  decideRange,
  effectiveCheckpoint,
  headStillAhead,
  logsMatchHeaders,
  nextAhead,
  plan,
  type Step
} from "./Decision.ts"
import { makeFetchAhead, makePendingCommit } from "./InFlight.ts"
import type { Progress } from "./Progress.ts"
import { makeRollbacks } from "./Rollback.ts"

/** How long a node seen lagging widens the blocks read by hash (`readDepth`). */
export const LAG_MEMORY_MS = 300_000

/** The projection's in-memory state (pools, tokens, positions, the launch config), as committed plus the batch in flight. */
const makeProjection = Effect.gen(function* () {
  const store = yield* Store
  const source = yield* IndexerSource
  const weth = source.contracts.weth.toLowerCase()
  const load = store.loadState(weth, stablecoinsOf(source), baseTokensOf(source))
  const projection: { state: ProjectionState; readonly reload: Effect.Effect<void, Effect.Error<typeof load>> } = {
    state: yield* load,
    reload: Effect.map(load, (state) => {
      projection.state = state
    })
  }
  return projection
})

/**
 * The chain follower's step: read the head and the checkpoint, decide what to do (Decision.ts), apply it. `step`
 * answers whether to go on at once (false: at the head, wait for the next one). Two things overlap between steps: the
 * logs and the two headers of the next final range are fetched ahead, and a batch commits while the next one is built
 * (InFlight.ts).
 */
export const makeLoop = (progress: Progress) =>
  Effect.gen(function* () {
    const source = yield* IndexerSource
    const settings = yield* IndexerConfig
    const reader = yield* ChainReader
    const store = yield* Store
    const { chainId, contracts } = source
    const projection = yield* makeProjection
    const rollbacks = yield* makeRollbacks(progress)
    const ahead = yield* makeFetchAhead
    const pending = yield* makePendingCommit

    /** The commit in flight's last block, else the stored checkpoint (one below the start block counts as none). */
    const checkpoint = Effect.suspend(() => {
      const tip = pending.tip()
      return tip !== null
        ? Effect.succeed(Option.some<Checkpoint>({ blockNumber: tip.number, hash: tip.hash, timestamp: tip.timestamp }))
        : Effect.map(store.checkpoint, (c) => effectiveCheckpoint(c, source.startBlock))
    })

    /**
     * A batch's blocks: INDEXER_RANGES_PER_BATCH eth_getLogs ranges of the densest filter (the reader asks for them at
     * once), so that header reads, commits and round trips are per several ranges.
     */
    const batchBlocks = Effect.map(reader.logRange, (r) => r * settings.rangesPerBatch)

    const decideNext = (head: bigint) =>
      Effect.gen(function* () {
        if ((pending.tip()?.number ?? -1n) >= head) yield* pending.settle
        const p = plan({
          checkpoint: yield* checkpoint,
          head,
          startBlock: source.startBlock,
          finalityDepth: settings.finalityDepth,
          rangeBlocks: yield* batchBlocks,
          ahead: ahead.range(),
          laggingBlocks: readDepth()
        })
        if (p._tag === "CheckTip")
          return decideAtTip(p, yield* reader.header(p.block), yield* store.storedHash(p.block))
        if (!p.fetchedAhead) yield* ahead.drop
        yield* progress.batchStarted(head, p.from)
        // A range fetched ahead is final: its two headers were read with its logs.
        const headers = p.fetchedAhead ? yield* ahead.headers : yield* reader.headers(p.headerNumbers)
        return decideRange(p, new Map(headers.map((h) => [h.number, h])))
      })

    const commit = (input: CommitInput, batch: BuiltBatch, head: bigint) =>
      store.commit(input).pipe(
        Effect.tap(() => rollbacks.committed),
        Effect.flatMap((touched) => progress.committed(input, batch, head, touched))
      )

    /** Applies a `Batch`: fetch (or take the logs fetched ahead), build, then commit while the next step starts. */
    const index = (b: Batch) =>
      Effect.gen(function* () {
        const fetched = yield* (
          b.fetchedAhead ? ahead.join : fetchRange(contracts, projection.state, b.from, b.to.number, b.unfinalized)
        ).pipe(
          Effect.map(Option.some),
          // A block of the range was replaced since its header was read (ChainReader's blockLogs): read them again.
          Effect.catchIf(
            (e) => e.kind === "replaced",
            (e) => Effect.as(Effect.logInfo(`indexer: ${e.message}; reading the headers again`), Option.none())
          )
        )
        if (Option.isNone(fetched)) return true
        const range = fetched.value
        const batch = yield* buildBatch(chainId, contracts, projection.state, range, b.to)
        if (!logsMatchHeaders(batch.logBlockHashes, b.headers)) {
          // The chain moved after the headers were read. Building changed the state: back to the committed one.
          yield* pending.settle
          yield* projection.reload
          return true
        }
        // The state holds this batch's children now: the next range can be fetched while this one commits.
        const next = nextAhead(b, yield* batchBlocks, settings.rpcConcurrency)
        if (next !== null)
          yield* ahead.start(
            next,
            fetchRange(contracts, projection.state, next.from, next.to),
            reader.headers(next.from === next.to ? [next.from] : [next.from, next.to])
          )
        yield* pending.settle
        const input: CommitInput = {
          rows: batch.rows,
          tokenMetadata: batch.tokenMetadata,
          from: b.from,
          to: b.to,
          unfinalized: b.unfinalized,
          finalizedBelow: b.finalBoundary
        }
        yield* pending.start(commit(input, batch, b.head), b.to)
        // At the head nothing follows to overlap with: commit now (head latency).
        if (b.to.number >= b.head) yield* pending.settle
        return b.to.number < b.head
      })

    const apply = (next: Step) => {
      switch (next._tag) {
        case "AtHead":
          return ahead.drop.pipe(Effect.andThen(progress.atHead(next)), Effect.as(false))
        case "Lagging":
          // The status keeps the highest head seen: a lagging answer does not make the chain shorter.
          return ahead.drop.pipe(
            Effect.andThen(
              Effect.logDebug(
                `indexer: the RPC answered head ${next.head}, below block ${next.checkpoint.blockNumber} already indexed; waiting`
              )
            ),
            Effect.andThen(
              progress.atHead({
                _tag: "AtHead",
                checkpoint: next.checkpoint,
                head: highestHead > next.checkpoint.blockNumber ? highestHead : next.checkpoint.blockNumber
              })
            ),
            Effect.as(false)
          )
        case "Reorg":
          return pending.settle.pipe(
            Effect.andThen(ahead.drop),
            Effect.andThen(rollbacks.apply(next)),
            Effect.andThen(projection.reload),
            Effect.as(true)
          )
        case "Reread":
          return ahead.drop.pipe(Effect.as(true))
        case "Batch":
          return index(next)
      }
    }

    /** The head seen by the last step: waiting at the head returns at once if a later one was announced meanwhile. */
    let lastHead = -1n
    /** The highest head any answer gave (a node behind a load balancer may answer a lower one later). */
    let highestHead = -1n
    /** When `lastHead` was read (0: read it at the next step). */
    let headReadAt = 0
    /** The largest lag a node behind the RPC showed (its head below the highest seen), and when; see `readDepth`. */
    let lagSeen = { blocks: 0, at: 0 }
    const noteHead = (head: bigint) => {
      if (head >= highestHead) return
      const now = Date.now()
      const blocks = Number(highestHead - head)
      if (blocks >= lagSeen.blocks || now - lagSeen.at >= LAG_MEMORY_MS) lagSeen = { blocks, at: now }
    }
    /**
     * The blocks near the head read by hash (and checked against their bloom) rather than by range: FINALITY_DEPTH,
     * and while a node behind the RPC was seen lagging in the last LAG_MEMORY_MS, twice its lag (measured against the
     * highest head read before it, which the chain may have passed since). A node that lacks a block answers a range
     * over it with no logs (or cut at its head): final or not, a block it may lack is not read by range.
     */
    const readDepth = () =>
      Date.now() - lagSeen.at < LAG_MEMORY_MS
        ? Math.max(settings.finalityDepth, 2 * lagSeen.blocks)
        : settings.finalityDepth

    /** The head for this step: the last one read while a backfill is still far below it (`headStillAhead`). */
    const currentHead = Effect.gen(function* () {
      const cursor = Option.match(yield* checkpoint, {
        onNone: () => source.startBlock - 1n,
        onSome: (c) => c.blockNumber
      })
      const still = headStillAhead({
        cursor,
        knownHead: lastHead,
        ageMs: Date.now() - headReadAt,
        rangeBlocks: yield* batchBlocks,
        ahead: ahead.range(),
        finalityDepth: readDepth()
      })
      if (still) return lastHead
      const head = yield* reader.head
      headReadAt = Date.now()
      noteHead(head)
      return head
    })
    return {
      step: Effect.gen(function* () {
        const head = yield* currentHead
        lastHead = head
        if (head > highestHead) highestHead = head
        return yield* apply(yield* decideNext(head))
      }),
      lastHead: () => lastHead,
      /** After a failed step: the commit in flight ended, nothing fetched ahead, the state the database's again. */
      recover: Effect.sync(() => {
        headReadAt = 0
      }).pipe(
        Effect.andThen(pending.settleQuietly),
        Effect.andThen(ahead.drop),
        Effect.andThen(Effect.ignore(projection.reload))
      ),
      /** When the loop stops: nothing of it left running. */
      stop: pending.settleQuietly.pipe(Effect.andThen(ahead.drop))
    }
  })
