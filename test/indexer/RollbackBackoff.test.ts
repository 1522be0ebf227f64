import { assert, layer } from "@effect/vitest"
import { Effect, Option, Stream } from "effect"
import { type Hex, hexToBigInt, type PublicClient } from "viem"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { headOf, scopedSeededDevnet } from "./devnet.ts"
import { indexerLayer } from "./harness.ts"

/**
 * The devnet's client, except that while `lying.on` block `block` names a parent the chain does not have: a node that
 * contradicts itself (as a load-balanced RPC can), so every rollback finds the same ancestor and the next batch fails
 * the same parent check.
 */
const misreporting = (client: PublicClient, block: bigint, lying: { on: boolean }): PublicClient => ({
  ...client,
  request: (async (args: { method: string; params?: ReadonlyArray<unknown> }) => {
    const answer = await client.request(args as never)
    const asked = args.method === "eth_getBlockByNumber" ? hexToBigInt(args.params![0] as Hex) : null
    return lying.on && asked === block && answer !== null
      ? { ...(answer as object), parentHash: `0x${"ee".repeat(32)}` }
      : answer
  }) as PublicClient["request"]
})

layer(TestDatabase, { timeout: "120 seconds", excludeTestServices: true })(
  "indexer: a rollback that makes no progress",
  (it) => {
    it.effect(
      "is repeated after 1 s, 2 s, … (not at once) with an error status; indexing resumes once the chain agrees",
      () =>
        Effect.gen(function* () {
          const { d } = yield* scopedSeededDevnet
          const head = yield* headOf(d)
          const lying = { on: true }
          const block = d.startBlock + 5n
          const started = Date.now()
          yield* Effect.gen(function* () {
            const status = yield* IndexerStatus
            // The third identical rollback in a row is announced before its wait: two were done, after one wait of 1 s.
            const third = yield* status.changes.pipe(
              Stream.filter((s) => s.lastError?.includes("(3 times in a row)") === true),
              Stream.runHead,
              Effect.timeoutOrElse({
                duration: "30 seconds",
                orElse: () =>
                  Effect.flatMap(status.get, (s) =>
                    Effect.die(`no repeated rollback reported in 30 s; ${s.reorgs} rollbacks, phase ${s.phase}`)
                  )
              })
            )
            const s = Option.getOrUndefined(third)
            assert.strictEqual(s?.phase, "retrying")
            assert.strictEqual(s?.reorgs, 2)
            assert.strictEqual(s?.lastIndexedBlock, block - 1n)
            assert.match(
              s?.lastError ?? "",
              /rollback from \d+ to block \d+ repeats without progress .* next attempt in 2s/
            )
            assert.isAtLeast(Date.now() - started, 1_000)

            lying.on = false
            const done = yield* status.awaitBlock(head, "30 seconds")
            assert.strictEqual(done.reorgs, 3)
            assert.strictEqual(done.lastError, null)
            assert.strictEqual(done.phase, "following")
          }).pipe(
            Effect.provide(
              indexerLayer(
                d,
                // Every block a batch of its own, so the lying block's parent is checked (a batch checks its first).
                { maxBlockRange: 1, rangesPerBatch: 1 },
                { client: misreporting(d.chain.public, block, lying) }
              )
            )
          )
        }).pipe(Effect.scoped),
      120_000
    )
  }
)
