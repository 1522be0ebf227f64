import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { makePublicClient } from "../../layers/PublicClient.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { type RpcFaults, startRpcProxy } from "../support/RpcProxy.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { type Devnet, headOf, scopedSeededDevnet } from "./devnet.ts"
import { dumpTables, freshDump, indexerLayer } from "./harness.ts"
import { rangeErrorVectors } from "./rpc-error-vectors.ts"

/**
 * The indexer reads the seeded devnet through the fault-injecting proxy (test/support/RpcProxy.ts), one fault at a
 * time, into a fresh database: it reaches the head (it never stops), makes no rollback, and every table equals a
 * fresh index read without the proxy.
 */
const vector = (provider: string) => rangeErrorVectors.find((v) => v.provider === provider)!
const refusing = (provider: string, maxBlocks: number): RpcFaults => {
  const v = vector(provider)
  return {
    range: {
      maxBlocks,
      code: v.code,
      message: v.message.replace(/10,?000/, String(maxBlocks)),
      httpStatus: v.httpStatus
    }
  }
}

const faults: ReadonlyArray<readonly [string, RpcFaults]> = [
  ["latency 20 ms", { latencyMs: 20 }],
  ["QuickNode -32614 range cap (HTTP 413)", refusing("QuickNode", 8)],
  ["Infura range cap", refusing("Infura (block range)", 8)],
  ["Infura result cap (no size in the text)", refusing("Infura (result count)", 8)],
  [
    "Alchemy with a range hint",
    {
      range: {
        maxBlocks: 6,
        code: -32600,
        message: "You can make eth_getLogs requests with up to a 6 block range.",
        httpStatus: 400
      }
    }
  ],
  ["dRPC range cap (code 35)", refusing("dRPC (free tier)", 8)],
  ["Chainstack", refusing("Chainstack", 8)],
  [
    "Infura result cap by log count (answers of more than 12 logs refused)",
    {
      logCap: {
        maxLogs: 12,
        code: vector("Infura (result count)").code,
        message: vector("Infura (result count)").message.replace("10000", "12"),
        httpStatus: vector("Infura (result count)").httpStatus
      }
    }
  ],
  ["a plan's requests-per-second limit (10/s, HTTP 429 past it)", { requestsPerSecond: 10 }],
  ["HTTP 429 with Retry-After", { rateLimit: { every: 4, retryAfterSeconds: 0 } }],
  ["HTTP 429 without Retry-After", { rateLimit: { every: 4 } }],
  ["timeouts", { hang: { every: 7 } }],
  ["a lagging node behind a load balancer (20 blocks)", { lag: { blocks: 20 } }],
  // Within FINALITY_DEPTH (2 here): those blocks' logs are read by hash and checked against the header's bloom.
  ["a lagging node (2 blocks) that answers empty logs past its head", { lag: { blocks: 2, emptyLogs: true } }]
]

/** The seeded devnet of this file (anvil stops with the layer) and its tables indexed at `head` through a clean RPC. */
class CleanIndex extends Context.Service<
  CleanIndex,
  { readonly d: Devnet; readonly head: bigint; readonly expected: Record<string, string> }
>()("test/indexer/HostileRpc/CleanIndex") {}
const CleanIndexLive = Layer.effect(
  CleanIndex,
  Effect.gen(function* () {
    const { d } = yield* scopedSeededDevnet
    const head = yield* headOf(d)
    return { d, head, expected: yield* freshDump(d, head) }
  })
)

layer(Layer.merge(TestDatabase, CleanIndexLive), { timeout: "300 seconds", excludeTestServices: true })(
  "indexer through a hostile RPC",
  (it) => {
    it.effect("the clean index of the seeded devnet has launches and pools", () =>
      Effect.gen(function* () {
        const { expected } = yield* CleanIndex
        assert.notStrictEqual(expected.launches, "[]")
        assert.notStrictEqual(expected.pools, "[]")
      })
    )

    for (const [name, fault] of faults) {
      it.effect(
        `${name}: reaches the head with the same tables as a clean read, no rollback`,
        () =>
          Effect.gen(function* () {
            const { d, head, expected } = yield* CleanIndex
            const proxy = yield* Effect.acquireRelease(
              Effect.promise(() => startRpcProxy(d.anvil.rpcUrl, fault)),
              (p) => Effect.promise(() => p.close())
            )
            // A short request deadline (RPC_TIMEOUT_MS) so that the proxy's unanswered requests time out quickly.
            const client = makePublicClient(31337, proxy.url, 500)
            const after = yield* Effect.gen(function* () {
              const status = yield* IndexerStatus
              const reached = yield* status.awaitBlock(head, "90 seconds")
              return { status: reached, dump: yield* dumpTables }
            }).pipe(
              Effect.provide(
                indexerLayer(d, { finalityDepth: 2 }, { client }).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)))
              )
            )
            assert.isAbove(proxy.counts.faulted, 0, `the fault was injected (${proxy.counts.requests} requests)`)
            assert.strictEqual(after.status.reorgs, 0, "no rollback")
            for (const table of Object.keys(expected))
              assert.strictEqual(after.dump[table], expected[table], `table ${table}`)
          }).pipe(Effect.scoped),
        120_000
      )
    }
  }
)
