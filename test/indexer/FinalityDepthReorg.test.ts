import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { encodeFunctionData, parseEther } from "viem"
import { FuelVaultAbi } from "../../contracts/generated/index.ts"
import { rpcRequest } from "../../layers/Anvil.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { headOf, scopedSeededDevnet } from "./devnet.ts"
import { dumpTables, freshDump, indexerLayer } from "./harness.ts"

/**
 * A reorg of exactly FINALITY_DEPTH blocks replaces only blocks that are not final; its common ancestor is the block
 * at FINALITY_DEPTH below the head, the last final one (found by the chaos test, test/indexer/ChaosEquality.test.ts).
 * When that block was committed as final (the indexer caught up several blocks in one batch), its hash was not kept:
 * the walk back found no kept hash to match and the indexer stopped with ReorgTooDeep. The oldest kept block's parent
 * hash names it: that is the ancestor.
 */
const FINALITY_DEPTH = 2

layer(TestDatabase, { timeout: "180 seconds", excludeTestServices: true })("a reorg of FINALITY_DEPTH blocks", (it) => {
  it.effect(
    "after a batch that made the fork block final: rolled back to it, never stopped, the index equals a clean one",
    () =>
      Effect.gen(function* () {
        const { d, seeded } = yield* scopedSeededDevnet
        const rpc = (method: string, params: ReadonlyArray<unknown>) =>
          Effect.promise(() => rpcRequest(d.anvil.rpcUrl, method, params))
        const run = yield* Effect.gen(function* () {
          const status = yield* IndexerStatus
          yield* status.awaitBlock(yield* headOf(d), "60 seconds")
          // Ten blocks at once: the indexer commits them in one batch, the first eight as final.
          yield* rpc("anvil_mine", ["0xa"])
          const head = yield* headOf(d)
          yield* status.awaitBlock(head, "30 seconds")
          // The last FINALITY_DEPTH blocks replaced by blocks with fuel in them (their hashes change).
          const give = encodeFunctionData({ abi: FuelVaultAbi, functionName: "give", args: [seeded.b.token] })
          const txs = Array.from({ length: FINALITY_DEPTH }, (_, i) => [
            { from: d.accounts.giver, to: d.pad.fuelVault, data: give, value: `0x${parseEther("0.01").toString(16)}` },
            i
          ])
          yield* rpc("anvil_reorg", [FINALITY_DEPTH, txs])
          yield* rpc("evm_mine", [])
          const newHead = yield* headOf(d)
          const reached = yield* status.awaitBlock(newHead, "30 seconds")
          return { reached, newHead, dump: yield* dumpTables }
        }).pipe(
          Effect.provide(
            indexerLayer(d, { finalityDepth: FINALITY_DEPTH }).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)))
          )
        )
        assert.notStrictEqual(run.reached.phase, "stopped")
        assert.strictEqual(run.reached.reorgs, 1, "one rollback")
        const fresh = yield* freshDump(d, run.newHead)
        for (const table of Object.keys(fresh)) assert.strictEqual(run.dump[table], fresh[table], `table ${table}`)
      }).pipe(Effect.scoped),
    150_000
  )
})
