import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { PublicClient } from "viem"
import { ChainReader } from "../../src/indexer/fetch/ChainReader.ts"
import { makeRateLimit } from "../../src/indexer/fetch/RateLimit.ts"
import { failedStepDelayMs } from "../../src/indexer/Indexer.ts"
import { backoffMs, classifyRpcError, parseRetryAfter, rangeHintOf } from "../../src/indexer/fetch/RpcError.ts"
import { readerOver, zero } from "./fake-reader.ts"
import { rangeErrorVectors, viemErrorOf } from "./rpc-error-vectors.ts"

/** The classification table against the providers' real texts, and what the reader does with each answer. */
describe("provider range errors (test vectors)", () => {
  for (const v of rangeErrorVectors) {
    it(`${v.provider}: a range refusal${v.hint === undefined ? "" : ` hinting ${v.hint} blocks`}`, () => {
      const e = classifyRpcError("eth_getLogs", viemErrorOf(v))
      assert.strictEqual(e.kind, "range", e.message)
      assert.strictEqual(e.rangeHint, v.hint)
      // The same text from another method is not a size problem to shrink.
      assert.notStrictEqual(classifyRpcError("eth_call", viemErrorOf(v)).kind, "range")
    })
  }
})

describe("RPC error classification", () => {
  it("rate limits and server errors are retryable, with Retry-After read from the answer", () => {
    const headers = new Headers({ "retry-after": "3" })
    const limited = classifyRpcError("eth_getLogs", {
      name: "HttpRequestError",
      status: 429,
      headers,
      message: "Too Many Requests"
    })
    assert.strictEqual(limited.kind, "retryable")
    assert.strictEqual(limited.retryAfterMs, 3000)
    assert.strictEqual(
      classifyRpcError("eth_call", { status: 429, message: "Too Many Requests" }).retryAfterMs,
      undefined
    )
    assert.strictEqual(classifyRpcError("eth_getLogs", { status: 503, message: "upstream" }).kind, "retryable")
    assert.strictEqual(classifyRpcError("eth_getLogs", new Error("fetch failed")).kind, "retryable")
    // Alchemy's throughput limit mentions "exceeded", but it is a rate limit, not a size.
    assert.strictEqual(
      classifyRpcError("eth_getLogs", {
        code: 429,
        message: "Your app has exceeded its compute units per second capacity."
      }).kind,
      "retryable"
    )
    // dRPC's free-tier "timeout" (code 30) is its rate limit: the same request later, not a smaller range.
    assert.strictEqual(
      classifyRpcError("eth_getLogs", {
        code: 30,
        message: "Request timeout on the free tier, please upgrade your tier to the paid one"
      }).kind,
      "retryable"
    )
    assert.strictEqual(classifyRpcError("eth_call", new Error("execution reverted")).kind, "fatal")
  })

  it("a timeout of eth_getLogs asks for a smaller range; of any other call, the same call later", () => {
    const timeout = {
      name: "TimeoutError",
      shortMessage: "The request took too long to respond.",
      message: "The request took too long to respond."
    }
    const logs = classifyRpcError("eth_getLogs", timeout)
    assert.strictEqual(logs.kind, "range")
    assert.isTrue(logs.timeout)
    assert.strictEqual(logs.rangeHint, undefined)
    assert.strictEqual(classifyRpcError("eth_blockNumber", timeout).kind, "retryable")
  })

  it("range hints, Retry-After and the backoff", () => {
    assert.strictEqual(rangeHintOf("this block range should work: [0x10, 0x1f]"), 16)
    assert.strictEqual(rangeHintOf("no hint here"), undefined)
    assert.strictEqual(parseRetryAfter("2"), 2000)
    assert.strictEqual(parseRetryAfter(new Date(10_000).toUTCString(), 4_000), 6_000)
    assert.strictEqual(parseRetryAfter("soon"), undefined)
    // Exponential with jitter: within [half, all] of 100 ms × 2^attempt, capped at 10 s; Retry-After wins (≤ 60 s).
    assert.strictEqual(backoffMs(0, undefined, 0), 50)
    assert.strictEqual(backoffMs(3, undefined, 1), 800)
    assert.strictEqual(backoffMs(30, undefined, 0.5), 7500)
    assert.notStrictEqual(backoffMs(5, undefined, 0.1), backoffMs(5, undefined, 0.9))
    assert.strictEqual(backoffMs(0, 5_000, 0.3), 5_000)
    assert.strictEqual(backoffMs(0, 3_600_000, 0.3), 60_000)
  })
})

/** A node with a hard block-range cap, answering like `refusal` beyond it; every asked range recorded. */
const cappedNode = (cap: number, refusal: (from: number, to: number) => unknown) => {
  const asked: Array<[number, number]> = []
  const client = {
    request: async ({ method, params }: { method: string; params: any }) => {
      if (method !== "eth_getLogs") throw new Error(method)
      const from = Number(BigInt(params[0].fromBlock))
      const to = Number(BigInt(params[0].toBlock))
      asked.push([from, to])
      if (to - from + 1 > cap) throw refusal(from, to)
      return []
    },
    getBlockNumber: async () => 100n
  } as unknown as PublicClient
  // One range at a time (INDEXER_RANGES_PER_BATCH 1): the sequences below are one walk's, as ChainReader.test.ts's.
  const layer = readerOver(client, { maxBlockRange: 1000, rangesPerBatch: 1 })
  return { asked, reader: ChainReader.pipe(Effect.provide(layer)) }
}

describe("eth_getLogs under a provider's cap", () => {
  it.effect(
    "a refused size is remembered: under a hard cap, sparse answers do not double the range back into refusals",
    () =>
      Effect.gen(function* () {
        const quicknode = rangeErrorVectors.find((v) => v.provider === "QuickNode")!
        const node = cappedNode(100, () =>
          viemErrorOf({ ...quicknode, message: "eth_getLogs is limited to a 100 range" })
        )
        const reader = yield* node.reader
        yield* reader.logs([zero], [], 1n, 5000n)
        const refused = node.asked.filter(([f, t]) => t - f + 1 > 100)
        // 16, 32, 64, 128 (refused: the hint says 100) — then 100 for good.
        assert.strictEqual(refused.length, 1, JSON.stringify(refused))
        assert.strictEqual(yield* reader.logRange, 100)
      })
  )

  it.effect("the range the provider suggests is the next one asked", () =>
    Effect.gen(function* () {
      const node = cappedNode(37, (from) => ({
        code: -32600,
        message: `You can make eth_getLogs requests with up to a 37 block range. Based on your parameters, this block range should work: [0x${from.toString(16)}, 0x${(from + 36).toString(16)}]`
      }))
      const reader = yield* node.reader
      yield* reader.logs([zero], [], 1n, 300n)
      const firstRefusal = node.asked.findIndex(([f, t]) => t - f + 1 > 37)
      const [f, t] = node.asked[firstRefusal + 1]!
      assert.strictEqual(t - f + 1, 37)
      assert.strictEqual(node.asked.filter(([a, b]) => b - a + 1 > 37).length, 1)
    })
  )

  it.effect("a timeout halves the range (and is not remembered as a cap)", () =>
    Effect.gen(function* () {
      const node = cappedNode(20, () => ({ name: "TimeoutError", message: "The request took too long to respond." }))
      const reader = yield* node.reader
      yield* reader.logs([zero], [], 1n, 16n)
      yield* reader.logs([zero], [], 17n, 17n + 31n)
      const sizes = node.asked.map(([a, b]) => b - a + 1)
      // 16 answered, 32 timed out, then 16 (half), 16.
      assert.deepStrictEqual(sizes, [16, 32, 16, 16])
    })
  )

  it.effect("an unknown eth_getLogs failure over several blocks is bisected, and over one block it fails", () =>
    Effect.gen(function* () {
      const node = cappedNode(4, () => ({ code: -32000, message: "something no rule knows" }))
      const reader = yield* node.reader
      const logs = yield* reader.logs([zero], [], 1n, 16n)
      assert.strictEqual(logs.length, 0)
      assert.deepStrictEqual(
        node.asked.slice(0, 3).map(([a, b]) => b - a + 1),
        [16, 8, 4]
      )
      const oneBlock = cappedNode(0, () => ({ code: -32000, message: "something no rule knows" }))
      const failed = yield* Effect.flip((yield* oneBlock.reader).logs([zero], [], 1n, 4n))
      assert.strictEqual(failed.kind, "fatal")
      assert.strictEqual(oneBlock.asked.length, 3) // 4, 2, 1: no loop on the same range
    })
  )
})

describe("pacing", () => {
  it.live("INDEXER_RPC_RPS spreads calls: 6 calls at 20 per second take at least 250 ms", () =>
    Effect.gen(function* () {
      const paced = makeRateLimit(20)
      const starts: Array<number> = []
      const t0 = Date.now()
      yield* Effect.forEach([1, 2, 3, 4, 5, 6], () => paced(Effect.sync(() => starts.push(Date.now() - t0))), {
        concurrency: "unbounded"
      })
      assert.isAtLeast(starts[5]!, 245)
      for (let i = 1; i < starts.length; i++) assert.isAtLeast(starts[i]! - starts[0]!, i * 50 - 5)
      // No limit: at once.
      const free = makeRateLimit(0)
      const t1 = Date.now()
      yield* Effect.forEach([1, 2, 3, 4, 5, 6], () => free(Effect.void), { concurrency: "unbounded" })
      assert.isBelow(Date.now() - t1, 50)
    })
  )

  it("a step that keeps failing is retried later each time, at most every minute", () => {
    assert.deepStrictEqual([1, 2, 3, 4, 7, 20].map(failedStepDelayMs), [1000, 2000, 4000, 8000, 60_000, 60_000])
  })
})

describe("a node behind the others", () => {
  it("geth's refusal of a range past its head is retryable (another node behind the load balancer has it), not a size", () => {
    const e = classifyRpcError("eth_getLogs", {
      code: -32602,
      message: "block range extends beyond current head block"
    })
    assert.strictEqual(e.kind, "retryable")
  })
})
