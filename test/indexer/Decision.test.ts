import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import type { BlockHeader } from "../../src/indexer/fetch/ChainReader.ts"
import {
  type Batch,
  decideAtTip,
  decideRange,
  effectiveCheckpoint,
  HEAD_REREAD_MS,
  headStillAhead,
  logsMatchHeaders,
  nextAhead,
  plan,
  type PlanInput,
  type ReadRange
} from "../../src/indexer/loop/Decision.ts"
import type { Checkpoint } from "../../src/indexer/store/Store.ts"

/** Block n of a chain named `fork`: its hash names both, its parent is block n-1 of the same chain. */
const header = (n: bigint, fork = "a"): BlockHeader => ({
  number: n,
  hash: `${fork}${n}`,
  parentHash: `${fork}${n - 1n}`,
  timestamp: 1000n + n
})
const checkpointAt = (n: bigint, fork = "a"): Option.Option<Checkpoint> =>
  Option.some({ blockNumber: n, hash: `${fork}${n}`, timestamp: 1000n + n })
const headersOf = (numbers: ReadonlyArray<bigint>, fork = "a") => new Map(numbers.map((n) => [n, header(n, fork)]))
const input = (over: Partial<PlanInput>): PlanInput => ({
  checkpoint: Option.none(),
  head: 100n,
  startBlock: 10n,
  finalityDepth: 5,
  rangeBlocks: 20,
  ahead: null,
  ...over
})
const readRange = (over: Partial<PlanInput>): ReadRange => {
  const p = plan(input(over))
  if (p._tag !== "ReadRange") throw new Error(`expected ReadRange, got ${p._tag}`)
  return p
}

describe("indexer loop decisions (pure)", () => {
  it("plans a range from the start block without a checkpoint, and from the checkpoint's next block with one", () => {
    assert.deepInclude(plan(input({})), { _tag: "ReadRange", from: 10n, to: 29n, fetchedAhead: false })
    assert.deepInclude(plan(input({ checkpoint: checkpointAt(50n) })), { from: 51n, to: 70n })
    // Not past the head; the unfinalized blocks (above head - finality) all get a header, the final ones only the ends.
    const near = readRange({ checkpoint: checkpointAt(90n) })
    assert.deepInclude(near, { from: 91n, to: 100n, finalBoundary: 95n })
    assert.deepStrictEqual(
      [...near.headerNumbers].sort((a, b) => Number(a - b)),
      [91n, 96n, 97n, 98n, 99n, 100n]
    )
  })

  it("reads by hash the blocks a lagging node behind the RPC may not have, final or not: by range only below them", () => {
    // A node seen 12 blocks behind (laggingBlocks 12 > finality 5): blocks 89..100 are read by hash; 89..95 are final.
    const lagging = readRange({ checkpoint: checkpointAt(80n), laggingBlocks: 12 })
    assert.deepInclude(lagging, { from: 81n, to: 100n, finalBoundary: 95n, rangeBoundary: 88n })
    assert.deepStrictEqual(
      [...lagging.headerNumbers].sort((a, b) => Number(a - b)),
      [81n, 89n, 90n, 91n, 92n, 93n, 94n, 95n, 96n, 97n, 98n, 99n, 100n]
    )
    const batch = decideRange(lagging, headersOf(lagging.headerNumbers))
    assert.strictEqual(batch._tag, "Batch")
    if (batch._tag === "Batch") {
      assert.deepStrictEqual(
        batch.unfinalized.map((h) => h.number),
        [89n, 90n, 91n, 92n, 93n, 94n, 95n, 96n, 97n, 98n, 99n, 100n]
      )
      assert.strictEqual(batch.finalBoundary, 95n, "finality itself does not move")
    }
    // 71..80, then 81..90 would be fetched ahead by range: not past 88 while the node lags.
    const batchOf = (laggingBlocks: number) => {
      const p = readRange({ checkpoint: checkpointAt(70n), rangeBlocks: 10, laggingBlocks })
      const b = decideRange(p, headersOf(p.headerNumbers))
      if (b._tag !== "Batch") throw new Error(b._tag)
      return b
    }
    assert.deepStrictEqual(nextAhead(batchOf(0), 10, 16), { from: 81n, to: 90n })
    assert.isNull(nextAhead(batchOf(12), 10, 16), "nothing past 88 is fetched ahead by range")
    // A lag within the finality depth changes nothing; a range fetched ahead past the lagging node's head is not used.
    assert.deepInclude(readRange({ checkpoint: checkpointAt(80n), laggingBlocks: 3 }), { rangeBoundary: 95n })
    assert.deepInclude(readRange({ checkpoint: checkpointAt(60n), ahead: { from: 61n, to: 90n }, laggingBlocks: 12 }), {
      fetchedAhead: false
    })
  })

  it("counts a checkpoint below the start block as none (a database wedged before the fix)", () => {
    assert.isTrue(Option.isNone(effectiveCheckpoint(checkpointAt(0n), 1n)))
    assert.isTrue(Option.isSome(effectiveCheckpoint(checkpointAt(1n), 1n)))
  })

  it("takes the range fetched ahead when it starts at the next block and is still final; otherwise plans its own", () => {
    const checkpoint = checkpointAt(40n)
    assert.deepInclude(plan(input({ checkpoint, ahead: { from: 41n, to: 45n } })), { to: 45n, fetchedAhead: true })
    assert.deepInclude(plan(input({ checkpoint, ahead: { from: 42n, to: 45n } })), { to: 60n, fetchedAhead: false })
    // An older head (a load-balanced RPC) makes the range unfinalized again.
    assert.deepInclude(plan(input({ checkpoint, head: 48n, ahead: { from: 41n, to: 45n } })), {
      to: 48n,
      fetchedAhead: false
    })
  })

  it("at the head: AtHead while the indexed tip is the chain's; Reorg when it was replaced", () => {
    const atHead = plan(input({ checkpoint: checkpointAt(100n) }))
    assert.deepStrictEqual(atHead, {
      _tag: "CheckTip",
      checkpoint: Option.getOrThrow(checkpointAt(100n)),
      head: 100n,
      block: 100n
    })
    if (atHead._tag !== "CheckTip") return
    assert.strictEqual(decideAtTip(atHead, header(100n), Option.some("a100"))._tag, "AtHead")
    assert.strictEqual(decideAtTip(atHead, header(100n), Option.none())._tag, "AtHead")
    assert.deepStrictEqual(decideAtTip(atHead, header(100n, "b"), Option.some("a100")), {
      _tag: "Reorg",
      from: 100n,
      tip: 100n
    })
  })

  it("a head below the checkpoint (a lagging node behind a load balancer) is waited out, unless the block there was replaced", () => {
    const checkpoint = Option.getOrThrow(checkpointAt(100n))
    const lagging = plan(input({ checkpoint: checkpointAt(100n), head: 97n }))
    assert.deepInclude(lagging, { _tag: "CheckTip", block: 97n })
    if (lagging._tag !== "CheckTip") return
    // Its block 97 is the one indexed: the node is behind, not on another chain. No rollback.
    assert.deepStrictEqual(decideAtTip(lagging, header(97n), Option.some("a97")), {
      _tag: "Lagging",
      checkpoint,
      head: 97n
    })
    // Lagging more than FINALITY_DEPTH: no hash kept there to compare, so nothing says the chain changed. No stop.
    const far = plan(input({ checkpoint: checkpointAt(100n), head: 60n }))
    if (far._tag !== "CheckTip") return assert.fail(far._tag)
    assert.deepStrictEqual(decideAtTip(far, header(60n), Option.none()), { _tag: "Lagging", checkpoint, head: 60n })
    // The block at that height is not the one indexed: a reorg (the node is on another branch).
    assert.deepStrictEqual(decideAtTip(lagging, header(97n, "b"), Option.some("a97")), {
      _tag: "Reorg",
      from: 97n,
      tip: 100n
    })
  })

  it("behind the head: Reorg when the range's first block is not the checkpoint's child", () => {
    const p = readRange({ checkpoint: checkpointAt(50n, "b") })
    assert.deepStrictEqual(decideRange(p, headersOf(p.headerNumbers)), { _tag: "Reorg", from: 50n, tip: 50n })
  })

  it("no parent check without a checkpoint: the start block's parent was never indexed (a re-created genesis looped here)", () => {
    const p = readRange({ checkpoint: effectiveCheckpoint(checkpointAt(9n, "genesis-recreated"), 10n) })
    assert.strictEqual(decideRange(p, headersOf(p.headerNumbers))._tag, "Batch")
  })

  it("Reread when the unfinalized headers do not link up (the chain moved while they were read)", () => {
    const p = readRange({ checkpoint: checkpointAt(90n) })
    const headers = headersOf(p.headerNumbers)
    headers.set(98n, header(98n, "b"))
    assert.deepStrictEqual(decideRange(p, headers), { _tag: "Reread" })
  })

  it("Batch: the range's last header, its unfinalized blocks and where finality ends", () => {
    const p = readRange({ checkpoint: checkpointAt(90n) })
    const step = decideRange(p, headersOf(p.headerNumbers))
    assert.strictEqual(step._tag, "Batch")
    const b = step as Batch
    assert.deepStrictEqual(b.to, header(100n))
    assert.deepStrictEqual(
      b.unfinalized.map((h) => h.number),
      [96n, 97n, 98n, 99n, 100n]
    )
    assert.strictEqual(b.finalBoundary, 95n)
  })

  it("a batch's logs must come from the blocks whose headers were read", () => {
    const headers = headersOf([96n, 97n])
    assert.isTrue(
      logsMatchHeaders(
        new Map([
          [96n, "a96"],
          [50n, "x50"]
        ]),
        headers
      )
    )
    assert.isFalse(logsMatchHeaders(new Map([[97n, "b97"]]), headers))
  })

  it("fetches ahead only final ranges, behind the head, with more than one RPC request at a time", () => {
    const batchTo = (to: bigint, head: bigint): Batch => ({
      _tag: "Batch",
      head,
      from: to - 9n,
      to: header(to),
      headers: new Map(),
      unfinalized: [],
      finalBoundary: head - 5n,
      rangeBoundary: head - 5n,
      fetchedAhead: false
    })
    assert.deepStrictEqual(nextAhead(batchTo(40n, 100n), 20, 16), { from: 41n, to: 60n })
    assert.isNull(nextAhead(batchTo(40n, 100n), 20, 1))
    assert.isNull(nextAhead(batchTo(80n, 100n), 20, 16), "80..100 reaches unfinalized blocks")
    assert.isNull(nextAhead(batchTo(100n, 100n), 20, 16))
  })

  it("a backfill keeps the head it read while the next range stays below its finality, and reads it again every HEAD_REREAD_MS", () => {
    const far = { cursor: 40n, knownHead: 100n, ageMs: 100, rangeBlocks: 20, ahead: null, finalityDepth: 5 }
    assert.isTrue(headStillAhead(far), "41..60 is final below head 100")
    assert.isFalse(headStillAhead({ ...far, knownHead: -1n }), "no head read yet")
    assert.isFalse(headStillAhead({ ...far, ageMs: HEAD_REREAD_MS }), "read too long ago")
    assert.isTrue(headStillAhead({ ...far, cursor: 75n }), "76..95 ends at the finality boundary")
    assert.isFalse(headStillAhead({ ...far, cursor: 76n }), "77..96 reaches an unfinalized block: read the head")
    assert.isFalse(
      headStillAhead({ ...far, cursor: 60n, ahead: { from: 61n, to: 96n } }),
      "the range fetched ahead reaches past finality"
    )
    assert.isFalse(headStillAhead({ ...far, cursor: 100n }), "at the head: every step reads it")
  })
})
