import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { clientTools, exchangeTools } from "../../src/mcp/AgentTools.ts"
import { toolNames } from "../../src/mcp/ToolNames.ts"
import { clientSpecRoutes, exchangeSpecRoutes, specEntries } from "./specRoutes.ts"

/**
 * How the tools (one per route) match the spec: the routes named in the spec's endpoint tables against the routes the
 * HttpApi definitions declare. The spec promises 76 `app_` and 29 `dex_` tools; the client tables name 63 routes
 * (engagement, notifications and push are described in prose), the exchange and search tables all 29.
 */

const normalise = (path: string) =>
  path
    .split("?")[0]!
    .replace(/\{([^}]+)\}/g, ":$1")
    .replace(/:[A-Za-z_]+/g, ":param")

/** The spec's table routes, written out in specRoutes.ts (where they came from is noted there). */
const tableRoutes = (routes: ReadonlyArray<string>) =>
  new Set(specEntries(routes).map((r) => `${r.method} ${normalise(r.path)}`))

const implemented = (tools: ReadonlyArray<{ route: { method: string; path: string } }>) =>
  new Set(tools.map((t) => `${t.route.method} ${normalise(t.route.path)}`))

describe("tool coverage against the spec's endpoint tables", () => {
  it("client: the spec's 76 = its 63 table routes + 13 routes its prose describes; the 10 beyond are in docs/agents.md", () => {
    const spec = tableRoutes(clientSpecRoutes)
    const have = implemented(clientTools())
    const missing = [...spec].filter((r) => !have.has(r))
    const beyond = clientTools().filter((t) => !spec.has(`${t.route.method} ${normalise(t.route.path)}`))
    // "Engagement" (POST toggles under /v1/likes, /v1/dislike, /v1/favorites) and "Notifications and push" are prose.
    const prose = beyond.filter(
      (t) =>
        /^\/v1\/(notifications|push|likes|dislike|favorites)\//.test(`${t.route.path}/`) &&
        t.route.path !== "/v1/favorites"
    )
    const extra = beyond.filter((t) => !prose.includes(t))
    console.log(
      `app_ tools ${clientTools().length}: spec tables ${spec.size} (missing ${missing.length}), prose routes ${prose.length}, ` +
        `beyond the spec ${extra.length}:\n  ${extra.map((t) => `${t.name} (${t.route.method} ${t.route.path})`).join("\n  ")}`
    )
    assert.strictEqual(spec.size, 63, "the spec's table routes")
    assert.deepStrictEqual(missing, [])
    assert.strictEqual(spec.size + prose.length, 76, "the spec's 76 app_ tools")
    assert.strictEqual(clientTools().length, 76 + extra.length)
    // Each route beyond the spec is listed, with its reason, in docs/agents.md.
    const docs = NodeFs.readFileSync(NodePath.resolve(import.meta.dirname, "../../docs/agents.md"), "utf8")
    const section = docs.slice(
      docs.indexOf("## Tool counts"),
      docs.indexOf("\n## ", docs.indexOf("## Tool counts") + 1)
    )
    assert.deepStrictEqual(
      extra.filter((t) => !section.includes(`\`${t.name}\``)).map((t) => t.name),
      []
    )
  })

  it("exchange + search: the spec's tables name all 29 dex_ routes; the gap and the extras are printed", () => {
    const spec = tableRoutes(exchangeSpecRoutes)
    const have = implemented(exchangeTools())
    const missing = [...spec].filter((r) => !have.has(r))
    const beyond = [...have].filter((r) => !spec.has(r))
    console.log(
      `dex_ tools ${exchangeTools().length} (spec: 29); missing:\n  ${missing.join("\n  ")}\nbeyond the tables: ${beyond.join(", ")}`
    )
    assert.strictEqual(spec.size, 29)
    // The operational extras (readiness, search health and index introspection) are McpExclude: exactly the spec's 29.
    assert.deepStrictEqual(missing, [])
    assert.deepStrictEqual(beyond, [])
    assert.strictEqual(exchangeTools().length, 29)
  })

  it("docs/agents.md names only tools that exist or that the spec's routes will be named", () => {
    const docs = NodeFs.readFileSync(NodePath.resolve(import.meta.dirname, "../../docs/agents.md"), "utf8")
    const known = new Set([
      ...clientTools().map((t) => t.name),
      ...exchangeTools().map((t) => t.name),
      ...toolNames("app", specEntries(clientSpecRoutes)),
      ...toolNames("dex", specEntries(exchangeSpecRoutes))
    ])
    const named = [...new Set(docs.match(/\b(?:app|dex)_[a-z0-9_]+\b/g) ?? [])].filter((n) => !n.endsWith("_"))
    assert.isAtLeast(named.length, 20)
    assert.deepStrictEqual(
      named.filter((n) => !known.has(n)),
      []
    )
  })
})
