import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { PublicClient } from "viem"
import { ChainReader } from "../../src/indexer/fetch/ChainReader.ts"
import { classifyRpcError } from "../../src/indexer/fetch/RpcError.ts"
import { defaultIndexerSettings, IndexerConfig } from "../../src/indexer/IndexerConfig.ts"
import { IndexerSource } from "../../src/indexer/IndexerSource.ts"

/**
 * Unit tests of the fetch stage's pure behaviour with a fake client (no chain): error sorting, range shrinking on
 * "too many results", and retry of transport errors.
 */
const zero = "0x0000000000000000000000000000000000000000" as const

const fakeClient = (handler: (method: string, params: any) => unknown): PublicClient =>
  ({
    request: async ({ method, params }: { method: string; params: unknown }) => handler(method, params),
    getBlockNumber: async () => 100n
  }) as unknown as PublicClient

const readerWith = (client: PublicClient, maxBlockRange = 1000) =>
  ChainReader.layer.pipe(Layer.provide(Layer.mergeAll(
    IndexerSource.make({
      client, chainId: 1, startBlock: 0n, baseTokens: [],
      contracts: { factory: zero, positionManager: zero, weth: zero, fireRegistry: zero, fireLaunch: zero, fireGraduator: zero, fuelVault: zero, fireStream: zero }
    }),
    IndexerConfig.layerWith({ ...defaultIndexerSettings(1), maxBlockRange })
  )))

describe("RPC errors", () => {
  it("sorts provider errors into range, retryable and fatal", () => {
    assert.strictEqual(classifyRpcError("eth_getLogs", new Error("query returned more than 10000 results")).kind, "range")
    assert.strictEqual(classifyRpcError("eth_getLogs", { message: "exceed maximum block range: 5000", code: -32600 }).kind, "range")
    assert.strictEqual(classifyRpcError("eth_getLogs", { message: "Log response size exceeded" }).kind, "range")
    assert.strictEqual(classifyRpcError("eth_getLogs", { name: "ResponseBodyTooLargeError", message: "HTTP response body exceeded the size limit." }).kind, "range")
    assert.strictEqual(classifyRpcError("eth_call", { message: "Too Many Requests", status: 429 }).kind, "retryable")
    assert.strictEqual(classifyRpcError("eth_getLogs", new Error("fetch failed")).kind, "retryable")
    assert.strictEqual(classifyRpcError("eth_getLogs", { message: "upstream", status: 503 }).kind, "retryable")
    assert.strictEqual(classifyRpcError("eth_call", new Error("execution reverted")).kind, "fatal")
  })
})

describe("eth_getLogs with an adaptive range", () => {
  it.effect("halves the range on a size refusal until the node answers, and covers every block once", () =>
    Effect.gen(function*() {
      const asked: Array<[number, number]> = []
      const client = fakeClient((method, params) => {
        if (method !== "eth_getLogs") throw new Error(method)
        const from = Number(BigInt(params[0].fromBlock))
        const to = Number(BigInt(params[0].toBlock))
        asked.push([from, to])
        if (to - from + 1 > 100) throw new Error("query returned more than 10000 results")
        return Array.from({ length: to - from + 1 }, (_, i) => ({
          address: zero, topics: [], data: "0x", blockNumber: `0x${(from + i).toString(16)}`, blockHash: "0xaa",
          logIndex: "0x0", transactionHash: "0xbb"
        }))
      })
      const reader = yield* ChainReader.pipe(Effect.provide(readerWith(client, 1000)))
      const logs = yield* reader.logs([zero], [], 1n, 1000n)
      assert.deepStrictEqual(logs.map((l) => Number(l.blockNumber)), Array.from({ length: 1000 }, (_, i) => i + 1))
      assert.isTrue(asked.some(([f, t]) => t - f + 1 === 1000), "tried the full range first")
      assert.isAtMost(yield* reader.logRange, 1000)
    }))

  it.live("retries transport errors with backoff", () =>
    Effect.gen(function*() {
      let calls = 0
      const client = fakeClient(() => {
        calls++
        if (calls < 3) throw new Error("fetch failed")
        return []
      })
      const reader = yield* ChainReader.pipe(Effect.provide(readerWith(client)))
      const logs = yield* reader.logs([zero], [], 1n, 10n)
      assert.strictEqual(logs.length, 0)
      assert.strictEqual(calls, 3)
    }), { timeout: 10_000 })
})
