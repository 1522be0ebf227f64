import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { makePublicClient } from "../../layers/PublicClient.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { type RpcFaults, type RpcProxy, startRpcProxy } from "../support/RpcProxy.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { branch, headOf, scopedSeededDevnet } from "./devnet.ts"
import { dumpTables, freshDump, indexerLayer } from "./harness.ts"

/**
 * The indexer at the head of a live devnet (one transaction per block, a launch among them) reads through the proxy
 * (test/support/RpcProxy.ts). Logs of the blocks within FINALITY_DEPTH of the head must belong to their block, so a
 * node that answers them empty cannot make the index lose events.
 */
const followLiveChain = (faults: RpcFaults, blocks: number, oneAtATime: boolean) =>
  Effect.gen(function* () {
    const { d, seeded } = yield* scopedSeededDevnet
    const proxy: RpcProxy = yield* Effect.acquireRelease(
      Effect.promise(() => startRpcProxy(d.anvil.rpcUrl, faults)),
      (p) => Effect.promise(() => p.close())
    )
    const client = makePublicClient(31337, proxy.url, 2_000)
    const run = yield* Effect.gen(function* () {
      const status = yield* IndexerStatus
      yield* status.awaitBlock(yield* headOf(d), "60 seconds")
      const before = { ...proxy.counts.methods }
      const from = yield* headOf(d)
      // One block at a time (the next once the indexer has the last): each step at the head sees one new block.
      const caughtUp = () => Effect.runPromise(Effect.flatMap(headOf(d), (h) => status.awaitBlock(h, "30 seconds")))
      yield* Effect.promise(() => branch(d, seeded, blocks, 5, oneAtATime ? caughtUp : undefined))
      const newHead = yield* headOf(d)
      yield* status.awaitBlock(newHead, "60 seconds")
      const calls: Record<string, number> = {}
      for (const [method, n] of Object.entries(proxy.counts.methods)) calls[method] = n - (before[method] ?? 0)
      return { status: yield* status.get, dump: yield* dumpTables, newHead, blocks: Number(newHead - from), calls }
    }).pipe(
      Effect.provide(
        indexerLayer(d, { finalityDepth: 2 }, { client }).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)))
      )
    )
    return { ...run, proxy, fresh: yield* freshDump(d, run.newHead) }
  }).pipe(Effect.scoped)

const perBlock = (calls: Record<string, number>, blocks: number) =>
  Object.fromEntries(Object.entries(calls).map(([m, n]) => [m, Math.round((n / blocks) * 100) / 100]))

layer(TestDatabase, { timeout: "300 seconds", excludeTestServices: true })("logs at the head", (it) => {
  it.effect(
    "a lagging node that answers empty logs for the newest 2 blocks loses no event: the index equals a clean one",
    () =>
      Effect.gen(function* () {
        const r = yield* followLiveChain({ lag: { blocks: 2, emptyLogs: true } }, 16, true)
        assert.isAbove(r.proxy.counts.faulted, 0, "the lagging node answered")
        assert.strictEqual(r.status.lastError, null)
        for (const table of Object.keys(r.fresh)) assert.strictEqual(r.dump[table], r.fresh[table], `table ${table}`)
      }),
    240_000
  )

  it.effect(
    "at the head: at most one eth_getLogs per block",
    () =>
      Effect.gen(function* () {
        const r = yield* followLiveChain({}, 16, true)
        const figures = perBlock(r.calls, r.blocks)
        console.log(`RPC calls per block at the head over ${r.blocks} blocks: ${JSON.stringify(figures)}`)
        for (const table of Object.keys(r.fresh)) assert.strictEqual(r.dump[table], r.fresh[table], `table ${table}`)
        assert.isAtMost(figures.eth_getLogs ?? 0, 1, "eth_getLogs per block")
      }),
    240_000
  )
})
