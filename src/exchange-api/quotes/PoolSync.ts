import { Effect, Layer, Queue, Stream } from "effect"
import { Chain } from "../../platform/Chain.ts"
import { quoteChainFrom } from "./QuoteChains.ts"
import { IndexerChangeFeed, PROCESS_ORIGIN } from "../../indexer/IndexerChangeFeed.ts"
import { IndexerEvents } from "../../indexer/IndexerEvents.ts"
import { PoolSnapshotLoader } from "./PoolSnapshotLoader.ts"
import { RouteFinder } from "./RouteFinder.ts"

/**
 * The pools a batch or rollback touched (undefined when that is not known: reload all) and the block the state is at
 * once they are read: the batch's last block, or the block a rollback kept.
 */
interface Change {
  readonly pools: ReadonlyArray<string> | undefined
  readonly block: bigint
}

const blockAfter = (c: { readonly kind: "batch" | "reorg"; readonly fromBlock: bigint; readonly toBlock: bigint }) =>
  c.kind === "batch" ? c.toBlock : c.fromBlock - 1n

/**
 * Keeps the RouteFinder's pool state current: the full snapshot at start, then, for each committed indexer batch or
 * rollback, a delta of the pools it touched, read from PostgreSQL. The pools are named by the in-process
 * IndexerEvents, and by the NOTIFY feed of an indexer in another process when the list fits in the payload
 * (src/indexer/IndexerChangeFeed.ts); otherwise, and on every LISTEN (re)connect (messages may have been lost), a
 * full reload. A rollback's touched pools are every pool with an event above the kept block (src/indexer/store/Store.ts
 * `rollback`): their states are read again as the rollback left them, and a pool the rollback deleted comes back in
 * `removed`. Changes are applied one at a time in order, each read as the database is when its turn comes (a later
 * batch's pools may already show their newer state: its own delta follows), and the state's block becomes the
 * change's block. A NOTIFY from this very process is
 * skipped: its indexer reported the change on IndexerEvents. (Skipping a batch at or below the state's block, as
 * before, lost a batch whose pools were not in the delta that read its block.)
 */
export const PoolSyncLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const chain = yield* Chain
    const loader = yield* PoolSnapshotLoader
    const finder = yield* RouteFinder
    const events = yield* IndexerEvents
    const feed = yield* IndexerChangeFeed
    const quoteChain = quoteChainFrom(chain.deployments)
    const chainId = chain.chainId

    const full = Effect.flatMap(loader.load(chainId), (s) => finder.load(s, quoteChain.routing))

    // Listening before the first load: a change committed while it reads is queued, not lost (applied after it).
    const queue = yield* Queue.unbounded<Change>()
    const local = yield* events.subscribe
    yield* Effect.forkScoped(
      Stream.runForEach(local, (c) =>
        c.chainId === chainId ? Queue.offer(queue, { pools: c.pools, block: blockAfter(c) }) : Effect.void
      )
    )
    feed.onChange((m) => {
      // An indexer in this process reported it on IndexerEvents already.
      if (m.chainId !== chainId || m.origin === PROCESS_ORIGIN) return
      const block = blockAfter({ kind: m.kind, fromBlock: BigInt(m.fromBlock), toBlock: BigInt(m.toBlock) })
      Queue.offerUnsafe(queue, { pools: m.poolAddresses, block })
    })
    // Messages sent while LISTEN was down are lost: reload on every reconnect.
    feed.onConnect(() => void Queue.offerUnsafe(queue, { pools: undefined, block: 0n }))

    yield* full

    const handle = (change: Change) =>
      Effect.gen(function* () {
        if (change.pools === undefined) return yield* full
        const delta = yield* loader.delta(chainId, change.pools)
        // The change's block, not the one read: the checkpoint may already be past batches whose own deltas have not
        // been applied yet, and a quote at block N must include every pool change up to N.
        yield* finder.apply({ ...delta, blockNumber: change.block })
      }).pipe(Effect.catchCause((cause) => Effect.logWarning("quotes: pool state update failed", cause)))

    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(queue), handle)))
  })
)
