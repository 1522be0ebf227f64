import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { hexToBigInt, type Hex, type PublicClient } from "viem"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { type Devnet, scopedSeededDevnet } from "./devnet.ts"
import { dumpTables, indexerLayer } from "./harness.ts"

interface Call {
  readonly method: string
  readonly block: bigint
  readonly key: string
}

/** The devnet's client, recording every eth_getLogs and eth_getBlockByNumber in the order they are sent. */
const recording = (client: PublicClient, calls: Array<Call>): PublicClient => ({
  ...client,
  request: ((args: { method: string; params?: ReadonlyArray<unknown> }) => {
    const filter = args.params?.[0] as { blockHash?: Hex } | undefined
    if (args.method === "eth_getLogs" && filter?.blockHash !== undefined) {
      // A block near the head, read by its hash once its header is read (ChainReader's blockLogs).
      calls.push({ method: "eth_getLogs by hash", block: -1n, key: filter.blockHash })
    } else if (args.method === "eth_getLogs") {
      const f = args.params![0] as { fromBlock: Hex; toBlock: Hex; address: ReadonlyArray<string>; topics: unknown }
      calls.push({
        method: args.method,
        block: hexToBigInt(f.fromBlock),
        key: JSON.stringify([f.fromBlock, f.toBlock, f.address, f.topics])
      })
    } else if (args.method === "eth_getBlockByNumber") {
      const block = hexToBigInt(args.params![0] as Hex)
      calls.push({ method: args.method, block, key: `header ${block}` })
    }
    return client.request(args as never)
  }) as PublicClient["request"]
})

/** Indexes the devnet into a fresh database with one-block batches and the given finality; the tables and the calls. */
const indexOnce = (d: Devnet, finalityDepth: number, rpcConcurrency = 16) =>
  Effect.gen(function* () {
    const calls: Array<Call> = []
    const head = yield* Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))
    const dump = yield* Effect.gen(function* () {
      yield* (yield* IndexerStatus).awaitBlock(head, "60 seconds")
      return yield* dumpTables
    }).pipe(
      Effect.provide(
        indexerLayer(
          d,
          { maxBlockRange: 1, rangesPerBatch: 1, finalityDepth, rpcConcurrency },
          { client: recording(d.chain.public, calls) }
        ).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)))
      )
    )
    return { calls, dump, head }
  })

/** Blocks whose logs were asked for before their header: fetched ahead, while the block before was projected. */
const fetchedAhead = (calls: ReadonlyArray<Call>) => {
  const firstHeader = new Map<bigint, number>()
  calls.forEach((c, i) => {
    if (c.method === "eth_getBlockByNumber" && !firstHeader.has(c.block)) firstHeader.set(c.block, i)
  })
  const ahead = new Set<bigint>()
  calls.forEach((c, i) => {
    if (c.method === "eth_getLogs" && i < (firstHeader.get(c.block) ?? Infinity)) ahead.add(c.block)
  })
  return ahead
}

layer(TestDatabase, { timeout: "120 seconds", excludeTestServices: true })(
  "indexer: logs fetched ahead (real anvil, real Postgres)",
  (it) => {
    it.effect(
      "final ranges are fetched ahead, once each; unfinalized ones never, nor with INDEXER_RPC_CONCURRENCY 1; the tables are the same every way",
      () =>
        Effect.gen(function* () {
          const { d } = yield* scopedSeededDevnet

          // Every block final: each batch's successor is fetched while it is projected and committed.
          const final = yield* indexOnce(d, 0)
          // Every block unfinalized (deeper than the whole history): nothing is fetched before its headers are read.
          const unfinalized = yield* indexOnce(d, 100_000)
          // One request at a time (INDEXER_RPC_CONCURRENCY 1): nothing fetched ahead either.
          const serial = yield* indexOnce(d, 0, 1)

          const blocks = Number(final.head - d.startBlock + 1n)
          const ahead = fetchedAhead(final.calls)
          // All but the first batch (nothing precedes it) were fetched ahead.
          assert.strictEqual(ahead.size, blocks - 1, `blocks fetched ahead: ${ahead.size} of ${blocks}`)
          assert.isFalse(ahead.has(d.startBlock))
          assert.strictEqual(fetchedAhead(unfinalized.calls).size, 0)
          assert.strictEqual(fetchedAhead(serial.calls).size, 0)

          // No eth_getLogs request was sent twice (a range fetched ahead is used, not fetched again); the launchpad's
          // filter covered every block, and the children's (launched tokens, pools) every block from the first launch on.
          const logCalls = final.calls.filter((c) => c.method === "eth_getLogs")
          assert.strictEqual(new Set(logCalls.map((c) => c.key)).size, logCalls.length)
          const launchpad = d.contracts.fireLaunch!.toLowerCase()
          const staticBlocks = logCalls
            .filter((c) => (JSON.parse(c.key) as [string, string, Array<string>])[2].includes(launchpad))
            .map((c) => c.block)
          assert.deepStrictEqual(
            staticBlocks,
            Array.from({ length: blocks }, (_, i) => d.startBlock + BigInt(i))
          )
          const childBlocks = new Set(
            logCalls
              .filter((c) => !(JSON.parse(c.key) as [string, string, Array<string>])[2].includes(launchpad))
              .map((c) => c.block)
          )
          const firstChild = [...childBlocks].reduce((a, b) => (a < b ? a : b))
          for (let n = firstChild; n <= final.head; n++)
            assert.isTrue(childBlocks.has(n), `children's logs of block ${n}`)

          for (const table of Object.keys(final.dump)) {
            assert.strictEqual(final.dump[table], unfinalized.dump[table], `table ${table}`)
            assert.strictEqual(final.dump[table], serial.dump[table], `table ${table}, one request at a time`)
          }
        }).pipe(Effect.scoped),
      180_000
    )
  }
)
