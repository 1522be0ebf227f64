import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { makePublicClient } from "../../layers/PublicClient.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { startRpcProxy } from "../support/RpcProxy.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { branch, type Devnet, headOf, ignite, type Seeded, scopedSeededDevnet } from "./devnet.ts"
import { dumpTables, freshDump, indexerLayer } from "./harness.ts"

/**
 * Past INDEXER_CHILD_TOPIC_THRESHOLD known children (launched tokens and pools), their events are asked for by topic
 * only and kept when they come from a known child, so the eth_getLogs calls do not grow with the launches. Here the
 * address lists are cut at 2 addresses per request (as 500 would be on a chain with thousands of launches) and every
 * block is final (FINALITY_DEPTH 0: the head is read by ranges, not block by block by hash).
 */
const settings = { finalityDepth: 0, addressesPerRequest: 2 }

/** eth_getLogs per block over `blocks` blocks of activity, one block at a time (each read once the indexer has it). */
const getLogsPerBlock = (d: Devnet, s: Seeded, counts: { methods: Record<string, number> }, salt: number) =>
  Effect.gen(function* () {
    const status = yield* IndexerStatus
    const caughtUp = () => Effect.runPromise(Effect.flatMap(headOf(d), (h) => status.awaitBlock(h, "30 seconds")))
    const before = counts.methods.eth_getLogs ?? 0
    const from = yield* headOf(d)
    yield* Effect.promise(() => branch(d, s, 4, salt, caughtUp))
    yield* Effect.promise(caughtUp)
    return ((counts.methods.eth_getLogs ?? 0) - before) / Number((yield* headOf(d)) - from)
  })

/** Follows the devnet through a proxy: calls per block before and after 4 launches (8 more children), then the tables. */
const follow = (d: Devnet, s: Seeded, childTopicThreshold: number, salt: number) =>
  Effect.gen(function* () {
    const proxy = yield* Effect.acquireRelease(
      Effect.promise(() => startRpcProxy(d.anvil.rpcUrl)),
      (p) => Effect.promise(() => p.close())
    )
    const client = makePublicClient(31337, proxy.url, 2_000)
    return yield* Effect.gen(function* () {
      const status = yield* IndexerStatus
      yield* status.awaitBlock(yield* headOf(d), "60 seconds")
      const few = yield* getLogsPerBlock(d, s, proxy.counts, salt)
      for (let i = 0; i < 4; i++) yield* Effect.promise(() => ignite(d, d.accounts.creatorB, `Many${salt}x${i}`))
      // The launches' own blocks are indexed before counting: the blocks measured are the same kind as before them.
      yield* status.awaitBlock(yield* headOf(d), "30 seconds")
      const many = yield* getLogsPerBlock(d, s, proxy.counts, salt + 1)
      const head = yield* headOf(d)
      yield* status.awaitBlock(head, "30 seconds")
      return { few, many, head, dump: yield* dumpTables }
    }).pipe(
      Effect.provide(
        indexerLayer(d, { ...settings, childTopicThreshold }, { client }).pipe(
          Layer.provideMerge(Layer.fresh(TestDatabase))
        )
      )
    )
  }).pipe(Effect.scoped)

layer(TestDatabase, { timeout: "300 seconds", excludeTestServices: true })("children's events by topic", (it) => {
  it.effect(
    "past the threshold, eth_getLogs per block at the head stays the same as launches grow, and the index equals one made with address lists",
    () =>
      Effect.gen(function* () {
        const { d, seeded } = yield* scopedSeededDevnet
        const lists = yield* follow(d, seeded, 1_000_000, 30)
        const byTopic = yield* follow(d, seeded, 2, 40)
        console.log(
          `eth_getLogs per block at the head, before → after 4 launches: address lists of 2 ${lists.few} → ${lists.many}; by topic past 2 children ${byTopic.few} → ${byTopic.many}`
        )
        assert.isAbove(lists.many, lists.few, "with address lists, the calls grow with the children")
        assert.strictEqual(byTopic.many, byTopic.few, "by topic, they do not")
        const expected = yield* freshDump(d, byTopic.head)
        for (const table of Object.keys(expected))
          assert.strictEqual(byTopic.dump[table], expected[table], `table ${table}`)
      }).pipe(Effect.scoped),
    280_000
  )
})
