import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { encodeFunctionData, parseEther } from "viem"
import { FuelVaultAbi } from "../../contracts/generated/index.ts"
import { rpcRequest } from "../../layers/Anvil.ts"
import { makePublicClient } from "../../layers/PublicClient.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { startRpcProxy } from "../support/RpcProxy.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { until } from "../support/until.ts"
import { headOf, scopedSeededDevnet } from "./devnet.ts"
import { dumpTables, freshDump, indexerLayer } from "./harness.ts"

/**
 * A block near the head is replaced between the read of its header and the read of its logs by hash (found by the
 * chaos test, test/indexer/ChaosEquality.test.ts): the node answers "unknown block" for the old hash, for good. The
 * indexer used to retry that request as a transient failure (20 times, backing off up to 10 s: minutes behind the
 * head); it must see that the block at that height changed and read the headers again.
 */
layer(TestDatabase, { timeout: "180 seconds", excludeTestServices: true })(
  "logs of a block replaced meanwhile",
  (it) => {
    it.effect(
      "the old hash is asked once, the new block is indexed without a rollback, the index equals a clean one",
      () =>
        Effect.gen(function* () {
          const { d, seeded } = yield* scopedSeededDevnet
          const proxy = yield* Effect.acquireRelease(
            Effect.promise(() => startRpcProxy(d.anvil.rpcUrl)),
            (p) => Effect.promise(() => p.close())
          )
          const client = makePublicClient(31337, proxy.url, 2_000)
          const run = yield* Effect.gen(function* () {
            const status = yield* IndexerStatus
            yield* status.awaitBlock(yield* headOf(d), "60 seconds")
            proxy.faults.reorgBeforeLogsByHash = { depth: 1 }
            // A block with a log the indexer follows (fuel), sent without waiting for a receipt: the proxy drops it.
            const data = encodeFunctionData({ abi: FuelVaultAbi, functionName: "give", args: [seeded.b.token] })
            yield* Effect.promise(() =>
              rpcRequest(d.anvil.rpcUrl, "eth_sendTransaction", [
                {
                  from: d.accounts.giver,
                  to: d.pad.fuelVault,
                  data,
                  value: `0x${parseEther("0.01").toString(16)}`,
                  gas: "0x7a120"
                }
              ])
            )
            yield* Effect.promise(() =>
              until(
                "the block was replaced before its logs were read",
                () => proxy.counts.replacedBeforeLogs.length > 0,
                30_000
              )
            )
            const head = yield* headOf(d)
            const reached = yield* status.awaitBlock(head, "30 seconds")
            return { reached, head, dump: yield* dumpTables }
          }).pipe(
            Effect.provide(
              indexerLayer(d, { finalityDepth: 2 }, { client }).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)))
            )
          )
          const replaced = proxy.counts.replacedBeforeLogs[0]!
          assert.strictEqual(proxy.counts.logsByHash[replaced], 1, "the replaced block's logs were asked once")
          assert.strictEqual(run.reached.reorgs, 0, "nothing indexed was replaced: no rollback")
          const fresh = yield* freshDump(d, run.head)
          for (const table of Object.keys(fresh)) assert.strictEqual(run.dump[table], fresh[table], `table ${table}`)
        }).pipe(Effect.scoped),
      150_000
    )
  }
)
