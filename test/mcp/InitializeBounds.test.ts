import { assert, describe, it } from "@effect/vitest"
import { initializeProblem, measureJson } from "../../src/mcp/InitializeBounds.ts"

const bounds = { maxValues: 64, maxChars: 2_048 }

/** What MCP clients send: capabilities they support and a clientInfo with icons. */
const richClient = {
  protocolVersion: "2025-06-18",
  capabilities: {
    roots: { listChanged: true },
    sampling: { context: {}, tools: {} },
    elicitation: { form: {}, url: {} },
    experimental: { "vendor.feature": {} },
    extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html+skybridge"] } }
  },
  clientInfo: {
    name: "an-agent",
    title: "An Agent",
    version: "2.3.1",
    websiteUrl: "https://agent.example",
    icons: [
      { src: "https://agent.example/icon-48.png", mimeType: "image/png", sizes: ["48x48"] },
      { src: "https://agent.example/icon.svg", mimeType: "image/svg+xml", sizes: ["any"], theme: "dark" }
    ]
  },
  _meta: { progressToken: "t-1" }
}

describe("InitializeBounds (what an MCP initialize may make the server keep)", () => {
  it("counts every JSON value and the characters of keys and strings", () => {
    assert.deepStrictEqual(measureJson({ a: ["xy", 1, null, { b: true }] }, bounds), { values: 7, chars: 4 })
    assert.deepStrictEqual(measureJson("abc", bounds), { values: 1, chars: 3 })
  })

  it("stops counting past a bound: an array of thousands or a deep nesting costs no more than the bound", () => {
    const wide = measureJson(
      Array.from({ length: 5_000 }, () => ({})),
      bounds
    )
    assert.isAbove(wide.values, bounds.maxValues)
    let deep: unknown = 0
    for (let i = 0; i < 100_000; i++) deep = [deep]
    assert.isAbove(measureJson(deep, bounds).values, bounds.maxValues)
  })

  it("admits what clients send", () => {
    assert.isUndefined(initializeProblem(richClient, bounds))
    assert.isUndefined(
      initializeProblem(
        { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "p", version: "1" } },
        bounds
      )
    )
  })

  it("refuses open parts stuffed with values or characters, and long clientInfo strings", () => {
    const stuffed = (extension: unknown) =>
      initializeProblem(
        { ...richClient, capabilities: { ...richClient.capabilities, extensions: { "x/y": extension } } },
        bounds
      )?.code
    assert.strictEqual(stuffed(Array.from({ length: 60 }, () => ({}))), "INITIALIZE_TOO_LARGE")
    assert.strictEqual(stuffed("s".repeat(2_048)), "INITIALIZE_TOO_LARGE")
    assert.strictEqual(
      initializeProblem(
        { ...richClient, _meta: Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, i])) },
        bounds
      )?.code,
      "INITIALIZE_TOO_LARGE"
    )
    assert.strictEqual(
      initializeProblem({ ...richClient, clientInfo: { name: "x".repeat(257), version: "1" } }, bounds)?.code,
      "INVALID_CLIENT_INFO"
    )
  })

  it("leaves malformed params to the MCP runtime", () => {
    assert.isUndefined(initializeProblem(undefined, bounds))
    assert.isUndefined(initializeProblem("params", bounds))
  })
})
