import { assert, describe, it } from "@effect/vitest"
import { McpSessionTable } from "../../src/mcp/McpSessionTable.ts"

describe("McpSessionTable (the bookkeeping of McpGuard)", () => {
  it("ends sessions idle past the TTL, measured from their last use", () => {
    const table = new McpSessionTable(100, 100, 1_000)
    assert.deepStrictEqual(table.open("a", "ip1", 0), [])
    assert.deepStrictEqual(table.open("b", "ip1", 500), [])
    assert.deepStrictEqual(table.touch("a", 900), [])
    // b was last used at 500, a at 900.
    assert.deepStrictEqual(table.expire(1_501), ["b"])
    assert.isTrue(table.has("a"))
    assert.deepStrictEqual(table.expire(1_901), ["a"])
    assert.strictEqual(table.size, 0)
  })

  it("a caller past its own cap ends its oldest session, not another caller's", () => {
    const table = new McpSessionTable(100, 2, 60_000)
    table.open("other", "ip2", 0)
    table.open("a", "ip1", 1)
    table.open("b", "ip1", 2)
    assert.deepStrictEqual(table.open("c", "ip1", 3), ["a"])
    assert.isTrue(table.has("other"))
    assert.strictEqual(table.size, 3)
  })

  it("past the total cap, the least recently used session ends", () => {
    const table = new McpSessionTable(3, 10, 60_000)
    table.open("a", "ip1", 0)
    table.open("b", "ip2", 1)
    table.open("c", "ip3", 2)
    table.touch("a", 3)
    assert.deepStrictEqual(table.open("d", "ip4", 4), ["b"])
    assert.isTrue(table.remove("a"))
    assert.isFalse(table.remove("a"))
    assert.strictEqual(table.size, 2)
  })
})
