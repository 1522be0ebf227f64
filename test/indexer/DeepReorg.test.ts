import { assert, layer } from "@effect/vitest"
import { Context, Effect, Fiber, Layer, Option, Stream } from "effect"
import { makePublicClient } from "../../layers/PublicClient.ts"
import { type IndexerStatusSnapshot, IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { reindexFrom } from "../../src/indexer/loop/ReindexFrom.ts"
import { startRpcProxy } from "../support/RpcProxy.ts"
import { until } from "../support/until.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { branch, type Devnet, headOf, type Seeded, scopedSeededDevnet } from "./devnet.ts"
import { dumpTables, freshDump, indexerLayer, indexerServicesOf } from "./harness.ts"

/** The file's seeded devnet, started with the layer and stopped with it. */
class SeededDevnet extends Context.Service<SeededDevnet, { readonly d: Devnet; readonly seeded: Seeded }>()(
  "test/indexer/DeepReorg/SeededDevnet"
) {}

/** The first status that satisfies `p`, waited for in the background (forked before what should cause it). */
const firstStatus = (p: (s: IndexerStatusSnapshot) => boolean) =>
  Effect.flatMap(Effect.service(IndexerStatus), (status) =>
    Effect.forkScoped(status.changes.pipe(Stream.filter(p), Stream.runHead))
  )

/**
 * A mismatch below the kept block hashes (deeper than FINALITY_DEPTH, 2 here) is only believed after a second read of
 * the block (INDEXER_REORG_CONFIRM_MS later): answers from a node on another fork are waited out; a real deep reorg
 * stops the indexer with the runbook's message (docs/OPERATIONS.md), and the runbook's re-index from a block recovers.
 * With several RPC URLs the confirming read asks each endpoint directly: one node on a stale fork cannot stop it.
 */
layer(Layer.merge(TestDatabase, Layer.effect(SeededDevnet, scopedSeededDevnet)), {
  timeout: "180 seconds",
  excludeTestServices: true
})("reorgs deeper than FINALITY_DEPTH", (it) => {
  it.effect(
    "headers from another fork for a moment, deep in history: not confirmed by the second read, no stop, no rollback",
    () =>
      Effect.gen(function* () {
        const { d, seeded } = yield* SeededDevnet
        const proxy = yield* Effect.acquireRelease(
          Effect.promise(() => startRpcProxy(d.anvil.rpcUrl)),
          (p) => Effect.promise(() => p.close())
        )
        const client = makePublicClient(31337, proxy.url, 2_000)
        const after = yield* Effect.gen(function* () {
          const status = yield* IndexerStatus
          yield* status.awaitBlock(yield* headOf(d), "60 seconds")
          const waitedOut = yield* firstStatus((s) => s.lastError?.includes("was not confirmed") === true)
          // Every header answer is another fork's for 3 s: the indexed tip and every kept hash below it differ. The walk
          // back (a few headers) ends well within it on a loaded machine, the second read (8 s later) well after it.
          proxy.faults.forkedHeadersUntil = Date.now() + 3_000
          const seen = yield* Fiber.join(waitedOut).pipe(Effect.timeout("30 seconds"))
          yield* Effect.promise(() => branch(d, seeded, 3, 21))
          const newHead = yield* headOf(d)
          return { seen, status: yield* status.awaitBlock(newHead, "60 seconds"), dump: yield* dumpTables, newHead }
        }).pipe(
          Effect.provide(
            indexerLayer(d, { finalityDepth: 2, reorgConfirmMs: 8_000 }, { client }).pipe(
              Layer.provideMerge(Layer.fresh(TestDatabase))
            )
          )
        )
        assert.isAbove(proxy.counts.faulted, 0, "headers of another fork were answered")
        assert.isTrue(Option.isSome(after.seen), "the deep mismatch was read again and waited out")
        assert.strictEqual(after.status.reorgs, 0, "no rollback")
        assert.notStrictEqual(after.status.phase, "stopped")
        const fresh = yield* freshDump(d, after.newHead)
        for (const table of Object.keys(fresh)) assert.strictEqual(after.dump[table], fresh[table], `table ${table}`)
      }).pipe(Effect.scoped),
    150_000
  )

  it.effect(
    "two RPC URLs, the first ranked on another fork for as long as it is asked: the other endpoint, read directly, does not confirm it; no stop, no rollback",
    () =>
      Effect.gen(function* () {
        const { d, seeded } = yield* SeededDevnet
        const proxy = Effect.acquireRelease(
          Effect.promise(() => startRpcProxy(d.anvil.rpcUrl)),
          (p) => Effect.promise(() => p.close())
        )
        const liar = yield* proxy
        const honest = yield* proxy
        // Slower, so ranked second: the fallback asks the liar first (it answers, so it is never skipped).
        honest.faults.latencyMs = 150
        const client = makePublicClient(31337, [liar.url, honest.url], 2_000)
        const endpoints = [liar, honest].map((p) => ({ name: p.url, client: makePublicClient(31337, p.url, 2_000) }))
        const after = yield* Effect.gen(function* () {
          const status = yield* IndexerStatus
          yield* status.awaitBlock(yield* headOf(d), "60 seconds")
          const waitedOut = yield* firstStatus((s) => s.lastError?.includes("was not confirmed") === true)
          // Until told otherwise: a second read of the same node (what one RPC URL allows) would confirm it.
          liar.faults.forkedHeadersUntil = Number.MAX_SAFE_INTEGER
          const seen = yield* Fiber.join(waitedOut).pipe(Effect.timeout("60 seconds"))
          // The liar keeps its fork through a second confirming round (the honest endpoint asked again), then stops.
          const reads = () => honest.counts.methods["eth_getBlockByNumber"] ?? 0
          const first = reads()
          yield* Effect.promise(() => until("a second confirming read", () => reads() > first, 60_000))
          liar.faults.forkedHeadersUntil = 0
          yield* Effect.promise(() => branch(d, seeded, 3, 31))
          const newHead = yield* headOf(d)
          return { seen, status: yield* status.awaitBlock(newHead, "60 seconds"), dump: yield* dumpTables, newHead }
        }).pipe(
          Effect.provide(
            indexerLayer(d, { finalityDepth: 2, reorgConfirmMs: 1_000 }, { client, endpoints }).pipe(
              Layer.provideMerge(Layer.fresh(TestDatabase))
            )
          )
        )
        assert.isAbove(liar.counts.faulted, 0, "headers of another fork were answered")
        assert.isTrue(Option.isSome(after.seen), "the deep mismatch was waited out")
        const message = Option.getOrThrow(after.seen).lastError ?? ""
        assert.include(message, `at ${honest.url} is still the one indexed`)
        assert.strictEqual(after.status.reorgs, 0, "no rollback")
        assert.notStrictEqual(after.status.phase, "stopped")
        const fresh = yield* freshDump(d, after.newHead)
        for (const table of Object.keys(fresh)) assert.strictEqual(after.dump[table], fresh[table], `table ${table}`)
      }).pipe(Effect.scoped),
    150_000
  )

  it.effect(
    "a real reorg deeper than FINALITY_DEPTH stops the indexer after a second read, with the runbook's message; re-indexing from the fork block recovers",
    () =>
      Effect.gen(function* () {
        const { d, seeded } = yield* SeededDevnet
        const fork = yield* headOf(d)
        const snapshot = yield* Effect.promise(() => d.chain.test.snapshot())
        yield* Effect.promise(() => branch(d, seeded, 8, 1))
        const oldHead = yield* headOf(d)
        const stopped = yield* Effect.gen(function* () {
          const status = yield* IndexerStatus
          yield* status.awaitBlock(oldHead, "60 seconds")
          const stop = yield* firstStatus((s) => s.phase === "stopped")
          // Undo 8 blocks (their hashes below the 2 kept are gone), then a longer branch with other transactions.
          yield* Effect.promise(() => d.chain.test.revert({ id: snapshot }))
          yield* Effect.promise(() => branch(d, seeded, 9, 11))
          return yield* Fiber.join(stop).pipe(Effect.timeout("60 seconds"))
        }).pipe(Effect.provide(indexerLayer(d, { finalityDepth: 2 })), Effect.scoped)

        assert.isTrue(Option.isSome(stopped))
        const message = Option.getOrThrow(stopped).lastError ?? ""
        assert.include(message, "reorg deeper than FINALITY_DEPTH (2)")
        assert.include(message, "read twice")
        assert.include(message, "docs/OPERATIONS.md")

        // The runbook: roll the index back to a block before the fork (npm run indexer:reindex-from), start again.
        const kept = yield* reindexFrom(fork).pipe(Effect.provide(indexerServicesOf(d, { finalityDepth: 2 })))
        assert.deepStrictEqual(kept, Option.some(fork))
        const newHead = yield* headOf(d)
        const after = yield* Effect.gen(function* () {
          const status = yield* IndexerStatus
          return { status: yield* status.awaitBlock(newHead, "60 seconds"), dump: yield* dumpTables }
        }).pipe(Effect.provide(indexerLayer(d, { finalityDepth: 2 })))
        assert.strictEqual(after.status.lastError, null)
        const fresh = yield* freshDump(d, newHead)
        for (const table of Object.keys(fresh)) assert.strictEqual(after.dump[table], fresh[table], `table ${table}`)
      }),
    150_000
  )
})
