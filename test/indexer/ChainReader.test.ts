import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit } from "effect"
import { encodeAbiParameters, type PublicClient } from "viem"
import { ChainReader, INITIAL_BLOCK_RANGE } from "../../src/indexer/fetch/ChainReader.ts"
import { classifyRpcError } from "../../src/indexer/fetch/RpcError.ts"
import { indexerSettingsConfig } from "../../src/indexer/IndexerConfig.ts"
import { readerOver, zero } from "./fake-reader.ts"

/**
 * Unit tests of the fetch stage's pure behaviour with a fake client (no chain): error sorting, range shrinking on
 * "too many results", and retry of transport errors.
 */
const fakeClient = (handler: (method: string, params: any) => unknown): PublicClient =>
  ({
    request: async ({ method, params }: { method: string; params: unknown }) => handler(method, params),
    getBlockNumber: async () => 100n
  }) as unknown as PublicClient

/** The fake provider's answer to eth_getLogs over [from, to]: one log in every block. */
const oneLogPerBlock = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    address: zero,
    topics: [],
    data: "0x",
    blockNumber: `0x${(from + i).toString(16)}`,
    blockHash: "0xaa",
    logIndex: "0x0",
    transactionHash: "0xbb"
  }))

/** One range at a time (INDEXER_RANGES_PER_BATCH 1): the sequences of ranges below are one walk's. */
const readerWith = (client: PublicClient, maxBlockRange = 1000, targetLogsPerRequest = 10_000, rangesPerBatch = 1) =>
  readerOver(client, { maxBlockRange, targetLogsPerRequest, rangesPerBatch })

describe("RPC errors", () => {
  it("sorts provider errors into range, retryable and fatal", () => {
    assert.strictEqual(
      classifyRpcError("eth_getLogs", new Error("query returned more than 10000 results")).kind,
      "range"
    )
    assert.strictEqual(
      classifyRpcError("eth_getLogs", { message: "exceed maximum block range: 5000", code: -32600 }).kind,
      "range"
    )
    assert.strictEqual(classifyRpcError("eth_getLogs", { message: "Log response size exceeded" }).kind, "range")
    assert.strictEqual(
      classifyRpcError("eth_getLogs", {
        name: "ResponseBodyTooLargeError",
        message: "HTTP response body exceeded the size limit."
      }).kind,
      "range"
    )
    assert.strictEqual(classifyRpcError("eth_call", { message: "Too Many Requests", status: 429 }).kind, "retryable")
    assert.strictEqual(classifyRpcError("eth_getLogs", new Error("fetch failed")).kind, "retryable")
    assert.strictEqual(classifyRpcError("eth_getLogs", { message: "upstream", status: 503 }).kind, "retryable")
    assert.strictEqual(classifyRpcError("eth_call", new Error("execution reverted")).kind, "fatal")
  })
})

describe("eth_getLogs with an adaptive range", () => {
  it.effect("halves the range on a size refusal until the node answers, and covers every block once", () =>
    Effect.gen(function* () {
      const asked: Array<[number, number]> = []
      const client = fakeClient((method, params) => {
        if (method !== "eth_getLogs") throw new Error(method)
        const from = Number(BigInt(params[0].fromBlock))
        const to = Number(BigInt(params[0].toBlock))
        asked.push([from, to])
        if (to - from + 1 > 100) throw new Error("query returned more than 10000 results")
        return oneLogPerBlock(from, to)
      })
      const reader = yield* ChainReader.pipe(Effect.provide(readerWith(client, 1000)))
      const logs = yield* reader.logs([zero], [], 1n, 1000n)
      assert.deepStrictEqual(
        logs.map((l) => Number(l.blockNumber)),
        Array.from({ length: 1000 }, (_, i) => i + 1)
      )
      assert.isTrue(
        asked.some(([f, t]) => t - f + 1 > 100),
        "grew past the node's limit before being refused"
      )
      assert.isAtMost(yield* reader.logRange, 1000)
    })
  )

  it.effect(
    "follows the log density: slow start, the range that holds the target at the density seen, at most doubling, up to the max",
    () =>
      Effect.gen(function* () {
        // Blocks 1..2000 hold 50 logs each, later blocks none.
        const asked: Array<[number, number]> = []
        const sizes = () => asked.splice(0).map(([f, t]) => t - f + 1)
        const client = fakeClient((method, params) => {
          if (method !== "eth_getLogs") throw new Error(method)
          const from = Number(BigInt(params[0].fromBlock))
          const to = Number(BigInt(params[0].toBlock))
          asked.push([from, to])
          return Array.from({ length: Math.max(0, Math.min(to, 2000) - from + 1) * 50 }, (_, i) => ({
            address: zero,
            topics: [],
            data: "0x",
            blockNumber: `0x${(from + Math.floor(i / 50)).toString(16)}`,
            blockHash: "0xaa",
            logIndex: `0x${(i % 50).toString(16)}`,
            transactionHash: "0xbb"
          }))
        })
        const reader = (target: number) => ChainReader.pipe(Effect.provide(readerWith(client, 1000, target)))

        // Target 1,000 logs = 20 blocks here: 16 blocks first (slow start), then exactly 20; every log comes once.
        const steady = yield* reader(1000)
        assert.strictEqual((yield* steady.logs([zero], [], 1n, 2000n)).length, 2000 * 50)
        const steadySizes = sizes()
        assert.deepStrictEqual(steadySizes.slice(0, 3), [INITIAL_BLOCK_RANGE, 20, 20])
        for (const size of steadySizes) assert.isAtMost(size * 50, 1000)
        // Empty blocks: the range doubles per answer, up to the max.
        assert.strictEqual((yield* steady.logs([zero], [], 2001n, 6000n)).length, 0)
        assert.deepStrictEqual(sizes().slice(0, 4), [20, 40, 80, 160])
        assert.strictEqual(yield* steady.logRange, 1000)

        // Target 100,000 logs: the density allows far more than the max, so the range doubles up to it.
        yield* (yield* reader(100_000)).logs([zero], [], 1n, 2000n)
        assert.deepStrictEqual(sizes().slice(0, 7), [16, 32, 64, 128, 256, 512, 992])

        // Target 500 logs: 16 blocks gave 800, so the range shrinks in proportion to 16 × 500 / 800 = 10 blocks; a
        // request cut short by the end of the asked interval does not shrink it (10, 20, 40, then the last 30: 80 → 160).
        const narrow = yield* reader(500)
        yield* narrow.logs([zero], [], 1n, 16n)
        assert.strictEqual(yield* narrow.logRange, 10)
        sizes()
        yield* narrow.logs([zero], [], 2001n, 2100n)
        assert.deepStrictEqual(sizes(), [10, 20, 40, 30])
        assert.strictEqual(yield* narrow.logRange, 160)

        // At the head: one dense block per request (50 logs, target 500) must not grow the range past the 10 blocks
        // the density allows, however many such requests come (judged per block, not per response).
        const head = yield* reader(500)
        for (let b = 1; b <= 12; b++) yield* head.logs([zero], [], BigInt(b), BigInt(b))
        assert.strictEqual(yield* head.logRange, 10)
      })
  )

  it.effect("asks a long interval as up to INDEXER_RANGES_PER_BATCH pieces at once, each block once, in order", () =>
    Effect.gen(function* () {
      const asked: Array<[number, number]> = []
      let inFlight = 0
      let mostInFlight = 0
      const client = fakeClient(async (method, params) => {
        if (method !== "eth_getLogs") throw new Error(method)
        const from = Number(BigInt(params[0].fromBlock))
        const to = Number(BigInt(params[0].toBlock))
        asked.push([from, to])
        mostInFlight = Math.max(mostInFlight, ++inFlight)
        await new Promise((r) => setImmediate(r))
        inFlight--
        // One log per block, 100 per request at most (the fake provider's result cap).
        if (to - from + 1 > 100) throw new Error("query returned more than 10000 results")
        return oneLogPerBlock(from, to)
      })
      // Target 50 logs: the range settles at 50 blocks; then 200 blocks are 4 pieces of 50, asked at once.
      const reader = yield* ChainReader.pipe(Effect.provide(readerWith(client, 1000, 50, 4)))
      yield* reader.logs([zero], [], 1n, 100n)
      assert.strictEqual(yield* reader.logRange, 50)
      asked.length = 0
      mostInFlight = 0
      const logs = yield* reader.logs([zero], [], 101n, 300n)
      assert.deepStrictEqual(
        logs.map((l) => Number(l.blockNumber)),
        Array.from({ length: 200 }, (_, i) => 101 + i)
      )
      assert.deepStrictEqual(
        asked.sort((a, b) => a[0] - b[0]),
        [
          [101, 150],
          [151, 200],
          [201, 250],
          [251, 300]
        ]
      )
      assert.strictEqual(mostInFlight, 4)
    })
  )

  it.live(
    "retries transport errors with exponential backoff (waits of 50–100, 100–200, 200–400 ms)",
    () =>
      Effect.gen(function* () {
        const calls: Array<number> = []
        const client = fakeClient(() => {
          calls.push(performance.now())
          if (calls.length < 4) throw new Error("fetch failed")
          return []
        })
        const reader = yield* ChainReader.pipe(Effect.provide(readerWith(client)))
        const logs = yield* reader.logs([zero], [], 1n, 10n)
        assert.strictEqual(logs.length, 0)
        assert.strictEqual(calls.length, 4)
        // Exponential with equal jitter (RpcError.backoffMs): the n-th wait is between half its ceiling and the ceiling
        // (100, 200, 400 ms), so its floor doubles each time; a constant backoff stays under the third floor. Real time:
        // load only lengthens the gaps.
        const gaps = calls.slice(1).map((t, i) => t - calls[i]!)
        for (const [i, floor] of [50, 100, 200].entries())
          assert.isAtLeast(gaps[i]!, floor - 1, `gaps ${gaps.map(Math.round)}`)
      }),
    { timeout: 10_000 }
  )
})

describe("indexer settings", () => {
  const load = (env: Record<string, string>) =>
    Effect.exit(indexerSettingsConfig(1).parse(ConfigProvider.fromEnvRecord(env)))
  it.effect("a block range or log target below 1 is refused (an empty range would never advance)", () =>
    Effect.gen(function* () {
      const refused: ReadonlyArray<Record<string, string>> = [
        { INDEXER_MAX_BLOCK_RANGE: "0" },
        { INDEXER_TARGET_LOGS: "0" },
        { INDEXER_TARGET_LOGS: "-5" }
      ]
      for (const env of refused) {
        assert.isTrue(Exit.isFailure(yield* load(env)), JSON.stringify(env))
      }
      const ok = yield* load({ INDEXER_MAX_BLOCK_RANGE: "1", INDEXER_TARGET_LOGS: "1" })
      assert.isTrue(Exit.isSuccess(ok))
    })
  )
})

describe("token metadata on a node without old state", () => {
  it.effect(
    "after one read at a past block fails where the head answers, later tokens are read at the head at once",
    () =>
      Effect.gen(function* () {
        const calls: Array<string> = []
        // geth's answer for state it has pruned: no rule knows it, so it is fatal (src/indexer/fetch/RpcError.ts).
        const pruned = () => new Error("missing trie node 5c3f… (path ) state 0x1234… is not available")
        const at = (block: bigint | undefined) => (block === undefined ? "head" : String(block))
        const client = {
          readContract: async (args: { functionName: string; blockNumber?: bigint }) => {
            calls.push(`${args.functionName}@${at(args.blockNumber)}`)
            if (args.blockNumber !== undefined) throw pruned()
            return args.functionName === "decimals" ? 18 : 1000n
          },
          call: async (args: { data: string; blockNumber?: bigint }) => {
            calls.push(`text@${at(args.blockNumber)}`)
            if (args.blockNumber !== undefined) throw pruned()
            return { data: encodeAbiParameters([{ type: "string" }], ["Tok"]) }
          }
        } as unknown as PublicClient
        const reader = yield* ChainReader.pipe(Effect.provide(readerWith(client)))
        const first = yield* reader.tokenMetadata("0x0000000000000000000000000000000000000001", 50n)
        assert.deepStrictEqual(first, { name: "Tok", symbol: "Tok", decimals: 18, totalSupply: 1000n })
        assert.strictEqual(calls.length, 8, "the first token: four reads at block 50, refused, then four at the head")
        calls.length = 0
        const second = yield* reader.tokenMetadata("0x0000000000000000000000000000000000000002", 60n)
        assert.deepStrictEqual(second, first)
        assert.deepStrictEqual(calls.sort(), ["decimals@head", "text@head", "text@head", "totalSupply@head"])
      })
  )
})
