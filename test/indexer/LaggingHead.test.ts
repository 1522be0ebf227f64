import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import type { PublicClient } from "viem"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { branch, headOf, scopedSeededDevnet } from "./devnet.ts"
import { dumpTables, freshDump, indexerLayer } from "./harness.ts"

/**
 * A load balancer over an up-to-date node and one `lag` blocks behind: every other eth_blockNumber answer is the
 * lagging node's. Below its head both nodes hold the same blocks, so headers and logs come from the real node.
 */
const loadBalancedWithLaggingNode = (client: PublicClient, lag: { blocks: bigint; answers: number; lagged: number }) =>
  new Proxy(client, {
    get(target, key, receiver) {
      if (key !== "getBlockNumber") return Reflect.get(target, key, receiver)
      return async () => {
        const head = await target.getBlockNumber({ cacheTime: 0 })
        if (lag.blocks === 0n || lag.answers++ % 2 === 0) return head
        lag.lagged++
        return head - lag.blocks
      }
    }
  }) as PublicClient

layer(TestDatabase, { timeout: "120 seconds", excludeTestServices: true })(
  "indexer behind a load balancer with a lagging node",
  (it) => {
    it.effect(
      "a head below the checkpoint, even past FINALITY_DEPTH, is waited out: no rollback, no stop, same tables as a fresh index",
      () =>
        Effect.gen(function* () {
          const { d, seeded: s } = yield* scopedSeededDevnet
          const lag = { blocks: 0n, answers: 0, lagged: 0 }
          const client = loadBalancedWithLaggingNode(d.chain.public, lag)
          const after = yield* Effect.gen(function* () {
            const status = yield* IndexerStatus
            yield* status.awaitBlock(yield* headOf(d), "60 seconds")
            // From now on every other answer is 20 blocks behind (FINALITY_DEPTH is 2: no hash is kept that deep).
            lag.blocks = 20n
            yield* Effect.promise(() => branch(d, s, 3, 1))
            const newHead = yield* headOf(d)
            yield* status.awaitBlock(newHead, "60 seconds")
            // More lagging answers while at the head (the loop polls every 50 ms).
            const seen = lag.lagged
            yield* Effect.void.pipe(
              Effect.repeat({ until: () => lag.lagged >= seen + 5, schedule: Schedule.spaced("20 millis") }),
              Effect.timeout("10 seconds")
            )
            return { status: yield* status.get, dump: yield* dumpTables, newHead }
          }).pipe(Effect.provide(indexerLayer(d, { finalityDepth: 2 }, { client })))

          assert.isAtLeast(lag.lagged, 5, "the indexer was answered lagging heads")
          assert.strictEqual(after.status.reorgs, 0, "a lagging head is not a reorg")
          assert.strictEqual(after.status.lastError, null)
          assert.strictEqual(after.status.lastIndexedBlock, after.newHead)
          const fresh = yield* freshDump(d, after.newHead)
          for (const table of Object.keys(fresh)) assert.strictEqual(after.dump[table], fresh[table], `table ${table}`)
        }).pipe(Effect.scoped),
      180_000
    )
  }
)
