import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { branch, type Devnet, headOf, type Seeded, seed, startDevnet, warmRestart } from "./devnet.ts"
import { dumpTables, freshDump, indexerLayer } from "./harness.ts"

/** The seeded devnet after a warm start (anvil restarted with --load-state), for the suite's scope. */
class WarmDevnet extends Context.Service<WarmDevnet, { readonly d: Devnet; readonly s: Seeded }>()(
  "test/indexer/WarmDevnet"
) {
  static readonly layer = Layer.effect(
    WarmDevnet,
    Effect.gen(function* () {
      const dir = yield* Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "fire-warm-reorg-"))),
        (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
      )
      const cold = yield* Effect.acquireRelease(
        Effect.promise(() => startDevnet()),
        (d) => Effect.promise(() => d.anvil.stop())
      )
      const s = yield* Effect.promise(() => seed(cold))
      const d = yield* Effect.acquireRelease(
        Effect.promise(() => warmRestart(cold, dir, { replaceGenesis: true })),
        (d) => Effect.promise(() => d.anvil.stop())
      )
      return WarmDevnet.of({ d, s })
    })
  )
}

const block = (d: Devnet, blockNumber: bigint) => Effect.promise(() => d.chain.public.getBlock({ blockNumber }))

/** The embedded devnet's setting: a reorg deeper than the kept hashes re-indexes from the start block. */
const devnetIndexer = (d: Devnet) => indexerLayer(d, { finalityDepth: 2 }, { reindexOnDeepReorg: true })

layer(Layer.mergeAll(TestDatabase, WarmDevnet.layer), { timeout: "180 seconds", excludeTestServices: true })(
  "indexer on a warm-started devnet (anvil --load-state)",
  (it) => {
    it.effect(
      "a reorg deeper than FINALITY_DEPTH re-indexes from the start block once: equal to a fresh index of the new chain",
      () =>
        Effect.gen(function* () {
          const { d, s } = yield* WarmDevnet
          // What made a rollback to block 0 repeat forever: the loaded genesis is not block 1's parent.
          assert.notStrictEqual(
            (yield* block(d, 1n)).parentHash,
            (yield* block(d, 0n)).hash,
            "warm start: block 0 is re-created"
          )

          const snapshot = yield* Effect.promise(() => d.chain.test.snapshot())
          yield* Effect.promise(() => branch(d, s, 8, 1))
          const oldHead = yield* headOf(d)
          const after = yield* Effect.gen(function* () {
            const status = yield* IndexerStatus
            yield* status.awaitBlock(oldHead, "60 seconds")
            // Undo 8 blocks (FINALITY_DEPTH is 2: their hashes are gone), then a longer branch with other transactions.
            yield* Effect.promise(() => d.chain.test.revert({ id: snapshot }))
            yield* Effect.promise(() => branch(d, s, 9, 11))
            const newHead = yield* headOf(d)
            yield* status.awaitBlock(newHead, "30 seconds")
            return { status: yield* status.get, dump: yield* dumpTables, newHead }
          }).pipe(Effect.provide(devnetIndexer(d)))

          // One rollback to the start (two if the indexer saw the new branch while it was shorter than the old one).
          assert.isAtLeast(after.status.reorgs, 1)
          assert.isAtMost(after.status.reorgs, 2, `rollbacks: ${after.status.reorgs}`)
          assert.strictEqual(after.status.lastError, null)
          const fresh = yield* freshDump(d, after.newHead)
          for (const table of Object.keys(fresh)) {
            assert.strictEqual(
              after.dump[table],
              fresh[table],
              `table ${table} after a deep reorg on a warm-started devnet`
            )
          }
        }),
      150_000
    )

    it.effect(
      "a database wedged at a checkpoint on block 0 (before the start block) indexes normally on the next start",
      () =>
        Effect.gen(function* () {
          const { d } = yield* WarmDevnet
          const head = yield* headOf(d)
          const genesis = yield* block(d, 0n)
          // The state the loop above used to leave behind: every row above block 0 deleted, the checkpoint on block 0.
          const wedged = Layer.effectDiscard(
            Effect.flatMap(
              SqlClient.SqlClient,
              (sql) =>
                sql`INSERT INTO indexer_checkpoints (chain_id, block_number, block_hash, block_timestamp, updated_at)
              VALUES (31337, 0, ${genesis.hash}, to_timestamp(${Number(genesis.timestamp)}), now())`
            )
          ).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)), Layer.orDie)
          const resumed = yield* Effect.gen(function* () {
            const status = yield* IndexerStatus
            yield* status.awaitBlock(head, "30 seconds")
            return { status: yield* status.get, dump: yield* dumpTables }
          }).pipe(Effect.provide(devnetIndexer(d).pipe(Layer.provideMerge(wedged))))

          assert.strictEqual(resumed.status.reorgs, 0)
          assert.strictEqual(resumed.status.lastError, null)
          const fresh = yield* freshDump(d, head)
          for (const table of Object.keys(fresh))
            assert.strictEqual(resumed.dump[table], fresh[table], `table ${table}`)
        }),
      150_000
    )
  }
)
