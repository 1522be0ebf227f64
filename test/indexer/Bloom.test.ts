import { assert, describe, it } from "@effect/vitest"
import { bytesToHex, type Hex } from "viem"
import { bloomOf, coversBloom, inBloom } from "../../src/indexer/fetch/Bloom.ts"

const transferTopic: Hex = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
const log = { address: "0x5fbdb2315678afecb367f032d93f642f64180aa3", topics: [transferTopic] }

describe("logsBloom", () => {
  it("finds a log's address and topics in the bloom of its logs, not an item it does not hold", () => {
    const bloom = bytesToHex(bloomOf([log]))
    assert.isTrue(inBloom(bloom, log.address as Hex))
    assert.isTrue(inBloom(bloom, transferTopic))
    assert.isFalse(inBloom(bloom, "0x0000000000000000000000000000000000000001"))
  })

  it("sets 3 bits per item, at the positions the yellow paper gives", () => {
    // keccak256(0x) = c5d2460186f7…: pairs c5d2, 4601, 86f7 → bits 0x5d2, 0x601, 0x6f7 (low 11 bits).
    const bloom = bloomOf([{ address: "0x", topics: [] }])
    const set = [...bloom].flatMap((byte, i) =>
      [0, 1, 2, 3, 4, 5, 6, 7].filter((b) => byte & (1 << b)).map((b) => (255 - i) * 8 + b)
    )
    assert.deepStrictEqual(
      set.sort((a, b) => a - b),
      [0x5d2, 0x601, 0x6f7].sort((a, b) => a - b)
    )
  })

  it("an answer covers a header's bloom only with every log the bloom was made of", () => {
    const other = { address: "0x00000000000000000000000000000000000000aa", topics: [] as Array<Hex> }
    const header = bytesToHex(bloomOf([log, other]))
    assert.isTrue(coversBloom([log, other], header))
    assert.isFalse(coversBloom([], header))
    assert.isFalse(coversBloom([log], header))
    assert.isTrue(coversBloom([], bytesToHex(new Uint8Array(256))))
  })
})
