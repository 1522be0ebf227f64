import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { type AbiEvent, encodeAbiParameters, encodeEventTopics, getAddress } from "viem"
import { topics as selectorsOf } from "../../src/indexer/Abis.ts"
import { abiOf, decodeLogs, decodeLogsWithViem, type SourceKind } from "../../src/indexer/decode/Decode.ts"
import { compileFastDecoder } from "../../src/indexer/decode/FastDecode.ts"
import type { RawLog } from "../../src/indexer/fetch/ChainReader.ts"

const hex64 = (v: bigint) => BigInt.asUintN(256, v).toString(16).padStart(64, "0")

/**
 * 32-byte words as logs carry them: values that fit their slot (small signed ints sign-extended, addresses, amounts),
 * and words that do not (random 256-bit, huge negatives) so that the out-of-range branches are compared too.
 */
const wordArb = fc.oneof(
  fc.integer({ min: -(2 ** 23), max: 2 ** 23 - 1 }).map((n) => hex64(BigInt(n))),
  fc.bigInt({ min: 0n, max: (1n << 160n) - 1n }).map(hex64),
  fc.bigInt({ min: -(1n << 255n), max: (1n << 255n) - 1n }).map(hex64),
  fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map(hex64),
  fc.constantFrom("0".repeat(64), "f".repeat(64), `${"0".repeat(24)}${"AbCdEf0123".repeat(4)}`)
)

/** Every kind's events, with the ones the fast path compiles. */
const events = (Object.entries(abiOf) as Array<[SourceKind, ReadonlyArray<AbiEvent>]>).flatMap(([kind, list]) =>
  list.map((event) => ({
    kind,
    event,
    selector: selectorsOf([event])[0]!,
    fast: compileFastDecoder(event) !== undefined
  }))
)

/** A log of one of those events, with the expected number of topics and words give or take one, sometimes odd data. */
const logArb = fc.constantFrom(...events).chain(({ kind, event, selector }) => {
  const indexed = event.inputs.filter((i) => i.indexed).length
  const words = event.inputs.length - indexed
  return fc.record({
    kind: fc.constant(kind),
    topics: fc
      .array(wordArb, { minLength: Math.max(0, indexed - 1), maxLength: indexed + 1 })
      .map((ts) => [selector, ...ts.map((t) => `0x${t}`)]),
    data: fc
      .tuple(
        fc.array(wordArb, { minLength: Math.max(0, words - 1), maxLength: words + 1 }),
        fc.constantFrom("", "", "", "0", "ab")
      )
      .map(([ws, tail]) => `0x${ws.join("")}${tail}`)
  })
})

const rawLog = (i: number, topics: ReadonlyArray<string>, data: string): RawLog => ({
  address: `0x${(i + 1).toString(16).padStart(40, "0")}`,
  topics: topics as RawLog["topics"],
  data: data as RawLog["data"],
  blockNumber: 1n,
  blockHash: `0x${"1".repeat(64)}`,
  logIndex: i,
  transactionHash: `0x${"2".repeat(64)}`
})

describe("fast event decoding", () => {
  it("compiles the hot events (Swap, Transfer, Mint, Burn, Collect, position manager)", () => {
    const fastNames = events.filter((e) => e.fast).map((e) => `${e.kind}.${e.event.name}`)
    for (const name of [
      "token.Transfer",
      "pool.Swap",
      "pool.Mint",
      "pool.Burn",
      "pool.Collect",
      "pool.Initialize",
      "positionManager.IncreaseLiquidity",
      "positionManager.Transfer",
      "factory.PoolCreated"
    ]) {
      assert.include(fastNames, name)
    }
  })

  it("equals viem's decodeEventLog (addresses lowercased) on random logs, including the ones it refuses", () => {
    const counts = { fastDecoded: 0, dropped: 0 }
    fc.assert(
      fc.property(fc.array(logArb, { minLength: 1, maxLength: 20 }), (drawn) => {
        const logs = drawn.map((l, i) => rawLog(i, l.topics, l.data))
        const kinds = new Map(drawn.map((l, i) => [logs[i]!.address, l.kind]))
        const ours = decodeLogs(logs, (a) => kinds.get(a))
        const viem = decodeLogsWithViem(logs, (a) => kinds.get(a))
        assert.deepStrictEqual(ours, viem)
        // Key order too: registry args are stored as JSON text.
        assert.deepStrictEqual(
          ours.map((d) => Object.keys(d.args)),
          viem.map((d) => Object.keys(d.args))
        )
        counts.fastDecoded += ours.filter(
          (d) => compileFastDecoder(abiOf[d.kind].find((e) => e.name === d.name)!) !== undefined
        ).length
        counts.dropped += logs.length - ours.length
      }),
      { numRuns: 2_000 }
    )
    // Both branches must be exercised: decoded logs and refused ones.
    assert.isTrue(counts.fastDecoded > 2_000 && counts.dropped > 1_000, JSON.stringify(counts))
  })

  it("decodes real encodings of the hot events exactly", () => {
    const swap = events.find((e) => e.kind === "pool" && e.event.name === "Swap")!.event
    const args = {
      sender: getAddress("0x00000000000000000000000000000000000000aa"),
      recipient: getAddress("0xabcdef0000000000000000000000000000000bbb"),
      amount0: -123456789012345678901234567890n,
      amount1: 987654321n,
      sqrtPriceX96: (1n << 159n) + 7n,
      liquidity: (1n << 127n) - 1n,
      tick: -887272
    }
    const topics = encodeEventTopics({
      abi: [swap],
      args: { sender: args.sender, recipient: args.recipient }
    } as never) as Array<string>
    const data = encodeAbiParameters(
      swap.inputs.filter((i) => !i.indexed),
      [args.amount0, args.amount1, args.sqrtPriceX96, args.liquidity, args.tick]
    )
    const [decoded] = decodeLogs([rawLog(0, topics, data)], () => "pool")
    assert.deepStrictEqual(decoded!.args, {
      ...args,
      sender: args.sender.toLowerCase(),
      recipient: args.recipient.toLowerCase()
    })
  })
})
