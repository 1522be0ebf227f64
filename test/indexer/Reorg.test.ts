import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { branch, type Devnet, headOf, type Seeded, scopedSeededDevnet } from "./devnet.ts"
import { dumpTables, freshDump, indexerLayer } from "./harness.ts"

/** The file's seeded devnet, started with the layer and stopped with it (each test branches from its current head). */
class SeededDevnet extends Context.Service<SeededDevnet, { readonly d: Devnet; readonly seeded: Seeded }>()(
  "test/indexer/Reorg/SeededDevnet"
) {}

layer(Layer.merge(TestDatabase, Layer.effect(SeededDevnet, scopedSeededDevnet)), {
  timeout: "120 seconds",
  excludeTestServices: true
})("indexer reorgs (anvil evm_snapshot/evm_revert)", (it) => {
  for (const depth of [1, 5, 20]) {
    it.effect(
      `reorg of depth ${depth}: every table equals a fresh index of the new chain`,
      () =>
        Effect.gen(function* () {
          const { d, seeded: s } = yield* SeededDevnet
          const snapshot = yield* Effect.promise(() => d.chain.test.snapshot())
          const fork = yield* headOf(d)
          yield* Effect.promise(() => branch(d, s, depth, 0))
          const oldHead = yield* headOf(d)
          assert.strictEqual(oldHead, fork + BigInt(depth))

          const afterReorg = yield* Effect.gen(function* () {
            const status = yield* IndexerStatus
            yield* status.awaitBlock(oldHead, "60 seconds")
            const reorgsBefore = (yield* status.get).reorgs
            // The new branch: back to the fork, then one block more than the old one, with other transactions.
            yield* Effect.promise(() => d.chain.test.revert({ id: snapshot }))
            yield* Effect.promise(() => branch(d, s, depth + 1, depth + 3))
            const newHead = yield* headOf(d)
            yield* status.awaitBlock(newHead, "60 seconds")
            const st = yield* status.get
            assert.isAbove(st.reorgs, reorgsBefore, "the reorg was noticed")
            return { dump: yield* dumpTables, newHead }
          }).pipe(Effect.provide(indexerLayer(d)))

          const fresh = yield* freshDump(d, afterReorg.newHead)
          for (const table of Object.keys(fresh)) {
            assert.strictEqual(afterReorg.dump[table], fresh[table], `table ${table} after a reorg of depth ${depth}`)
          }
        }),
      120_000
    )
  }

  it.effect(
    "devnet: a reorg deeper than the kept hashes (a restarted devnet) rebuilds the index from the start block",
    () =>
      Effect.gen(function* () {
        const { d, seeded: s } = yield* SeededDevnet
        const snapshot = yield* Effect.promise(() => d.chain.test.snapshot())
        yield* Effect.promise(() => branch(d, s, 8, 1))
        const oldHead = yield* headOf(d)
        const afterReorg = yield* Effect.gen(function* () {
          const status = yield* IndexerStatus
          yield* status.awaitBlock(oldHead, "60 seconds")
          yield* Effect.promise(() => d.chain.test.revert({ id: snapshot }))
          yield* Effect.promise(() => branch(d, s, 9, 11))
          const newHead = yield* headOf(d)
          yield* status.awaitBlock(newHead, "60 seconds")
          assert.isAbove((yield* status.get).reorgs, 0)
          return { dump: yield* dumpTables, newHead }
        }).pipe(Effect.provide(indexerLayer(d, { finalityDepth: 2 }, { reindexOnDeepReorg: true })))
        const fresh = yield* freshDump(d, afterReorg.newHead)
        for (const table of Object.keys(fresh)) {
          assert.strictEqual(afterReorg.dump[table], fresh[table], `table ${table} after a deep reorg`)
        }
      }),
    120_000
  )
})
