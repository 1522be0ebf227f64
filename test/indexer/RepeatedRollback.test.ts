import { assert, describe, it } from "@effect/vitest"
import { Duration } from "effect"
import { afterRollback, noRollback, repeatDelay, rollbackKey } from "../../src/indexer/loop/RepeatedRollback.ts"
import type { RollbackTarget } from "../../src/indexer/store/Store.ts"

const block = (number: bigint, hash = "0xaa"): RollbackTarget => ({
  _tag: "Block",
  header: { number, hash, parentHash: "0x00", timestamp: 0n }
})
const beforeStart: RollbackTarget = { _tag: "BeforeStart", startBlock: 1n }

describe("repeated rollbacks (pure)", () => {
  it("counts a rollback identical to the last one (same tip, same target) as a repeat; any other starts again", () => {
    const first = afterRollback(noRollback, rollbackKey(10n, block(8n)))
    assert.strictEqual(first.repeats, 0)
    const again = afterRollback(first, rollbackKey(10n, block(8n)))
    assert.strictEqual(again.repeats, 1)
    assert.strictEqual(afterRollback(again, rollbackKey(10n, block(8n))).repeats, 2)
    assert.strictEqual(afterRollback(again, rollbackKey(11n, block(8n))).repeats, 0)
    assert.strictEqual(afterRollback(again, rollbackKey(10n, block(8n, "0xbb"))).repeats, 0)
    assert.strictEqual(afterRollback(again, rollbackKey(10n, beforeStart)).repeats, 0)
  })

  it("waits 0, then 1 s, 2 s, 4 s … and never more than a minute", () => {
    assert.deepStrictEqual(
      [0, 1, 2, 3, 6, 7, 100].map((n) => Duration.toMillis(repeatDelay(n))),
      [0, 1_000, 2_000, 4_000, 32_000, 60_000, 60_000]
    )
  })
})
