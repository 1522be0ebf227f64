import { assert, describe, it } from "@effect/vitest"
import { MemoryIndex } from "../../src/search/embedded/MemoryIndex.ts"
import { TokenDocument } from "../../src/search/SearchDocument.ts"

const token = (n: number, symbol: string, name: string, liquidityUsd: number) =>
  new TokenDocument({
    id: `0x${n.toString(16).padStart(40, "0")}-1`,
    address: `0x${n.toString(16).padStart(40, "0")}`,
    chainId: 1,
    name,
    symbol,
    decimals: 18,
    creator: null,
    launchedAt: n,
    pool: null,
    isLaunch: true,
    priceUsd: null,
    marketCapUsd: 0,
    volume24hUsd: 0,
    liquidityUsd,
    holders: 0,
    graduated: false,
    claimed: false,
    image: null
  })
const symbols = (index: MemoryIndex, q: string, limit = 5) =>
  index.searchTokens({ q, limit, page: 1, sort: "relevance" }).hits.map((h) => h.document.symbol)

describe("MemoryIndex writes", () => {
  it("a cached short-query list is dropped when a document under its prefix is written, and only then", () => {
    const index = new MemoryIndex()
    index.tokens.replaceAll([
      token(1, "MOON", "Moon", 1_000),
      token(2, "MOCHI", "Mochi", 500),
      token(3, "ZED", "Zed", 10)
    ])
    assert.deepStrictEqual(symbols(index, "mo"), ["MOON", "MOCHI"])
    assert.deepStrictEqual(symbols(index, "z"), ["ZED"])
    index.tokens.upsert(token(4, "MOLTEN", "Molten", 1_000_000))
    assert.deepStrictEqual(symbols(index, "mo"), ["MOLTEN", "MOON", "MOCHI"], "a new liquid token under mo")
    index.tokens.upsert(token(2, "MOCHI", "Mochi", 5_000_000))
    assert.deepStrictEqual(symbols(index, "m"), ["MOCHI", "MOLTEN", "MOON"], "a liquidity change re-ranks")
    index.tokens.remove(token(4, "", "", 0).id)
    assert.deepStrictEqual(symbols(index, "mo"), ["MOCHI", "MOON"])
    assert.deepStrictEqual(symbols(index, "mol"), [])
    assert.strictEqual(index.tokens.size, 3)
  })

  it("upsert replaces a document's terms; pages past the cached depth are empty, totals stay exact", () => {
    const index = new MemoryIndex()
    index.tokens.replaceAll(Array.from({ length: 1_500 }, (_, i) => token(i + 1, `AB${i}`, `Abc ${i}`, i)))
    const deep = index.searchTokens({ q: "ab", limit: 100, page: 10, sort: "relevance" })
    assert.deepStrictEqual([deep.hits.length, deep.total], [100, 1_500])
    assert.strictEqual(deep.hits[0]!.document.symbol, "AB599")
    index.tokens.upsert(token(1, "XYZ", "Xyz", 0))
    assert.strictEqual(index.searchTokens({ q: "ab", limit: 1, page: 1, sort: "relevance" }).total, 1_499)
    assert.deepStrictEqual(symbols(index, "xyz"), ["XYZ"])
  })
})
