import { assert, describe, it } from "@effect/vitest"
import { judgeEndpoints } from "../../src/indexer/loop/ReorgConfirm.ts"

const indexed = `0x${"aa".repeat(32)}`
const other = `0x${"bb".repeat(32)}`
const third = `0x${"cc".repeat(32)}`

/** The rule that decides, with several RPC URLs, whether a mismatch below the kept hashes stops the indexer. */
describe("judgeEndpoints: a deep mismatch is confirmed by two endpoints agreeing, never by one", () => {
  it("two endpoints with the same other hash, none with the indexed one: confirmed, naming them", () => {
    const v = judgeEndpoints(7n, indexed, [
      { endpoint: "a", hash: other },
      { endpoint: "b", hash: other },
      { endpoint: "c", failure: "timeout" }
    ])
    assert.strictEqual(v._tag, "Confirmed")
    if (v._tag === "Confirmed") assert.include(v.seen, `2 of 3 RPC endpoints (a, b) have ${other}`)
  })

  it("one endpoint still has the indexed block: not confirmed, whatever the others say", () => {
    const v = judgeEndpoints(7n, indexed, [
      { endpoint: "a", hash: other },
      { endpoint: "b", hash: other },
      { endpoint: "c", hash: indexed }
    ])
    assert.strictEqual(v._tag, "Unconfirmed")
    if (v._tag === "Unconfirmed") assert.include(v.why, "block 7 at c is still the one indexed")
  })

  it("a single dissenter, or dissenters that disagree with each other, or endpoints without an answer: not confirmed", () => {
    const cases = [
      [
        { endpoint: "a", hash: other },
        { endpoint: "b", failure: "ECONNREFUSED" }
      ],
      [
        { endpoint: "a", hash: other },
        { endpoint: "b", hash: third }
      ],
      [
        { endpoint: "a", hash: other },
        { endpoint: "b", hash: null }
      ]
    ]
    for (const answers of cases) {
      const v = judgeEndpoints(7n, indexed, answers)
      assert.strictEqual(v._tag, "Unconfirmed", JSON.stringify(answers))
      if (v._tag === "Unconfirmed") assert.include(v.why, "no two RPC endpoints agree on another block 7")
    }
  })
})
