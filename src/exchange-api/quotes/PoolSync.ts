import { Effect, Layer, Queue, Stream } from "effect"
import { Chain } from "../../platform/Chain.ts"
import { quoteChainFrom } from "./QuoteChains.ts"
import { IndexerChangeFeed } from "../../indexer/IndexerChangeFeed.ts"
import { IndexerEvents } from "../../indexer/IndexerEvents.ts"
import { PoolSnapshotLoader } from "./PoolSnapshotLoader.ts"
import { RouteFinder } from "./RouteFinder.ts"

type Change =
  | { readonly kind: "batch"; readonly toBlock: bigint; readonly pools: ReadonlyArray<string> | undefined }
  | { readonly kind: "reorg" }

/**
 * Keeps the RouteFinder's pool state current: the full snapshot at start, then, for each committed indexer batch,
 * a delta of the pools the batch touched (in-process IndexerEvents, which name them) or a full reload (the NOTIFY
 * feed of an indexer in another process, which only counts them; and every reorg). Changes are applied one at a
 * time in order; a batch at or below the state's block is skipped (both feeds report the same batch in one process).
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
    yield* full

    const queue = yield* Queue.unbounded<Change>()
    const local = yield* events.subscribe
    yield* Effect.forkScoped(
      Stream.runForEach(local, (c) =>
        c.chainId === chainId
          ? Queue.offer(
              queue,
              c.kind === "reorg" ? { kind: "reorg" } : { kind: "batch", toBlock: c.toBlock, pools: c.pools }
            )
          : Effect.void
      )
    )
    feed.onChange((m) => {
      if (m.chainId !== chainId) return
      Queue.offerUnsafe(
        queue,
        m.kind === "reorg" ? { kind: "reorg" } : { kind: "batch", toBlock: BigInt(m.toBlock), pools: undefined }
      )
    })
    // Messages sent while LISTEN was down are lost: reload on every reconnect.
    feed.onConnect(() => void Queue.offerUnsafe(queue, { kind: "reorg" }))

    const handle = (change: Change) =>
      Effect.gen(function* () {
        const block = finder.current()?.blockNumber ?? -1n
        if (change.kind === "reorg") return yield* full
        if (change.toBlock <= block) return
        if (change.pools === undefined) return yield* full
        yield* finder.apply(yield* loader.delta(chainId, change.pools))
      }).pipe(Effect.catchCause((cause) => Effect.logWarning("quotes: pool state update failed", cause)))

    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(queue), handle)))
  })
)
