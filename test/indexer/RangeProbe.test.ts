import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { makePublicClient } from "../../layers/PublicClient.ts"
import { ChainReader } from "../../src/indexer/fetch/ChainReader.ts"
import { afterAnswer, afterRefusal, ceilingAt, MAX_PROBE_WAIT_MS } from "../../src/indexer/fetch/RangeCeiling.ts"
import { startRpcProxy } from "../support/RpcProxy.ts"
import { headOf, scopedSeededDevnet } from "./devnet.ts"
import { readerOver } from "./fake-reader.ts"
import { rangeErrorVectors } from "./rpc-error-vectors.ts"

describe("a refused eth_getLogs size (pure)", () => {
  it("holds until its probe time; a refused probe doubles the wait, up to a day; an answer above it forgets it", () => {
    const first = afterRefusal(undefined, 8, 1_000, 600_000)
    assert.deepStrictEqual(first, { blocks: 8, probeAt: 601_000, waitMs: 600_000 })
    assert.strictEqual(ceilingAt(first, 600_999), 8)
    assert.strictEqual(ceilingAt(first, 601_000), Number.POSITIVE_INFINITY)
    // A cap lowered while the ceiling holds: lower, same probe time.
    assert.deepStrictEqual(afterRefusal(first, 4, 2_000, 600_000), { blocks: 4, probeAt: 601_000, waitMs: 600_000 })
    // The probe refused: twice the wait.
    const second = afterRefusal(first, 8, 700_000, 600_000)
    assert.deepStrictEqual(second, { blocks: 8, probeAt: 1_900_000, waitMs: 1_200_000 })
    let c = second
    for (let i = 0; i < 20; i++) c = afterRefusal(c, 8, c.probeAt, 600_000)
    assert.strictEqual(c.waitMs, MAX_PROBE_WAIT_MS)
    assert.strictEqual(afterAnswer(second, 8), second, "an answer within the ceiling keeps it")
    assert.isUndefined(afterAnswer(second, 16), "an answer over more blocks: the cap was lifted")
  })
})

/**
 * The reader over the seeded devnet through the fault-injecting proxy (test/support/RpcProxy.ts), with Chainstack's
 * range refusal past 8 blocks, then none: the time between probes is moved by the test clock.
 */
describe("a refused eth_getLogs size through the proxy", () => {
  it.effect(
    "is not asked again until INDEXER_RANGE_PROBE_MS, then probed once per doubling wait; a lifted cap is found again",
    () =>
      Effect.gen(function* () {
        const { d } = yield* scopedSeededDevnet
        const chainstack = rangeErrorVectors.find((v) => v.provider === "Chainstack")!
        const proxy = yield* Effect.acquireRelease(
          Effect.promise(() =>
            startRpcProxy(d.anvil.rpcUrl, {
              range: {
                maxBlocks: 8,
                code: chainstack.code,
                message: chainstack.message,
                httpStatus: chainstack.httpStatus
              }
            })
          ),
          (p) => Effect.promise(() => p.close())
        )
        const client = makePublicClient(31337, proxy.url, 5_000)
        const reader = yield* ChainReader.pipe(
          Effect.provide(readerOver(client, { maxBlockRange: 64, rangeProbeMs: 60_000, rangesPerBatch: 1 }))
        )
        const head = yield* headOf(d)
        assert.isAtLeast(Number(head), 40, "enough blocks for several requests")
        const launchpad = d.contracts.fireLaunch!
        const record = proxy.recordGetLogs()
        const sizesSince = (n: number) =>
          record.slice(n).map((r) => {
            const f = r.filter as { fromBlock?: string; toBlock?: string }
            return Number(BigInt(f.toBlock!) - BigInt(f.fromBlock!) + 1n)
          })
        // Every log of the launchpad's contract over the whole chain, by requests of the reader's range.
        const read = Effect.gen(function* () {
          const n = record.length
          const before = proxy.counts.rangeRefused
          yield* reader.logsMatching(launchpad, [], "all", 1n, head)
          return { refused: proxy.counts.rangeRefused - before, largest: Math.max(...sizesSince(n)) }
        })

        // The first read grows past 8 blocks once (16, the slow start's first range) and is refused.
        assert.deepStrictEqual(yield* read, { refused: 1, largest: 8 })
        // Then 8 blocks a request: no refusal, however many reads, until the probe time.
        assert.deepStrictEqual(yield* read, { refused: 0, largest: 8 })
        yield* TestClock.adjust("59 seconds")
        assert.deepStrictEqual(yield* read, { refused: 0, largest: 8 })
        // Probe time: the range grows past 8 again, is refused once, and the next probe waits twice as long.
        yield* TestClock.adjust("1 second")
        assert.deepStrictEqual(yield* read, { refused: 1, largest: 8 })
        yield* TestClock.adjust("60 seconds")
        assert.deepStrictEqual(yield* read, { refused: 0, largest: 8 })
        yield* TestClock.adjust("60 seconds")
        assert.deepStrictEqual(yield* read, { refused: 1, largest: 8 })

        // The cap lifted: at the next probe time the range grows past 8 blocks and stays there.
        proxy.faults.range = undefined
        yield* TestClock.adjust("240 seconds")
        const lifted = yield* read
        assert.strictEqual(lifted.refused, 0)
        assert.isAbove(lifted.largest, 8)
        assert.isAbove((yield* read).largest, 8)
      }).pipe(Effect.scoped),
    120_000
  )
})
