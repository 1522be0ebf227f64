import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { makePublicClient } from "../../layers/PublicClient.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { startRpcProxy } from "../support/RpcProxy.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { branch, headOf, scopedSeededDevnet } from "./devnet.ts"
import { dumpTables, freshDump, indexerLayer } from "./harness.ts"

/**
 * A load balancer over an up-to-date node and one 10 blocks behind, past FINALITY_DEPTH (2 here), which answers a
 * range over blocks it does not have yet as if they had no logs (test/support/RpcProxy.ts `lag` with `emptyLogs`).
 * Blocks the up-to-date node's head makes final are not all held by the lagging one: read by range, half of those
 * requests would come back empty. Once the indexer has seen the lagging node's head, blocks that close to the head are
 * read by hash and checked against their bloom (src/indexer/loop/Loop.ts `readDepth`).
 */
layer(TestDatabase, { timeout: "300 seconds", excludeTestServices: true })(
  "a node far behind a load balancer",
  (it) => {
    it.effect(
      "answering empty logs for blocks final at the chain's head loses no event: the index equals a clean one",
      () =>
        Effect.gen(function* () {
          const { d, seeded } = yield* scopedSeededDevnet
          const proxy = yield* Effect.acquireRelease(
            Effect.promise(() => startRpcProxy(d.anvil.rpcUrl, {})),
            (p) => Effect.promise(() => p.close())
          )
          const client = makePublicClient(31337, proxy.url, 2_000)
          const run = yield* Effect.gen(function* () {
            const status = yield* IndexerStatus
            yield* status.awaitBlock(yield* headOf(d), "60 seconds")
            proxy.faults.lag = { blocks: 10, emptyLogs: true }
            for (let round = 0; round < 3; round++) {
              // The indexer has been answered the lagging node's head (it polls the head every 50 ms at the head).
              const seen = proxy.counts.laggedHeads
              yield* Effect.void.pipe(
                Effect.repeat({
                  until: () => proxy.counts.laggedHeads >= seen + 2,
                  schedule: Schedule.spaced("20 millis")
                }),
                Effect.timeout("10 seconds")
              )
              // The RPC is down while 12 blocks are made, so the indexer reads them in one go: all but the last two
              // are final at the up-to-date node's head, and the lagging node holds at most two of them.
              proxy.faults.down = true
              yield* Effect.promise(() => branch(d, seeded, 12, round))
              proxy.faults.down = false
              yield* status.awaitBlock(yield* headOf(d), "60 seconds")
            }
            return { status: yield* status.get, dump: yield* dumpTables, head: yield* headOf(d) }
          }).pipe(
            Effect.provide(
              indexerLayer(d, { finalityDepth: 2 }, { client }).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)))
            )
          )
          assert.isAbove(proxy.counts.laggedHeads, 6, "the lagging node answered heads")
          assert.strictEqual(run.status.lastIndexedBlock, run.head)
          assert.strictEqual(run.status.reorgs, 0, "a lagging node is not a reorg")
          const fresh = yield* freshDump(d, run.head)
          assert.notStrictEqual(fresh.swaps, "[]")
          for (const table of Object.keys(fresh)) assert.strictEqual(run.dump[table], fresh[table], `table ${table}`)
        }).pipe(Effect.scoped),
      240_000
    )
  }
)
