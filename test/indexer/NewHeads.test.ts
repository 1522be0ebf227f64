import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { subscribeNewHeads } from "../../layers/NewHeadsSocket.ts"
import { ChainReader } from "../../src/indexer/fetch/ChainReader.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { until } from "../support/until.ts"
import { ignite, startDevnet } from "./devnet.ts"
import { indexerLayer } from "./harness.ts"

layer(TestDatabase, { timeout: "120 seconds", excludeTestServices: true })("indexer new heads over WebSocket", (it) => {
  it.effect(
    "with new heads announced over a WebSocket the indexer wakes on anvil's newHeads: a new block is indexed though the poll interval is 10 minutes",
    () =>
      Effect.gen(function* () {
        const d = yield* Effect.promise(() => startDevnet())
        yield* Effect.addFinalizer(() => Effect.promise(() => d.anvil.stop()))
        // anvil serves JSON-RPC over WebSocket on the same port; requests stay on HTTP (the devnet's client).
        const heads = yield* subscribeNewHeads(d.anvil.rpcUrl.replace(/^http/, "ws"))

        yield* Effect.gen(function* () {
          assert.isTrue((yield* ChainReader).subscribedToHeads)
          const status = yield* IndexerStatus
          yield* status.awaitBlock(
            yield* Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 })),
            "30 seconds"
          )
          // The indexer is now waiting at the head; only a newHeads notification can wake it before 10 minutes.
          yield* Effect.promise(() => until("the newHeads subscription is live", heads.live))
          const launched = yield* Effect.promise(() => ignite(d, d.accounts.creatorA, "Woken"))
          const head = yield* Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))
          const reached = yield* status.awaitBlock(head, "30 seconds")
          assert.isTrue(reached.lastIndexedBlock! >= head)
          assert.isString(launched.token)
        }).pipe(Effect.provide(indexerLayer(d, { pollIntervalMs: 600_000 }, { heads })))
      }).pipe(Effect.scoped),
    120_000
  )
})
