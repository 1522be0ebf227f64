import { assert, describe, it } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { Context } from "effect"
import { HttpApi } from "effect/http-api"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { generateSync } from "json-schema-faker"
import { ClientApi } from "../../src/client-api/ClientApi.ts"
import { ExchangeApi } from "../../src/exchange-api/ExchangeApi.ts"
import { clientTools, exchangeTools, QUOTE_TOOLS } from "../../src/mcp/AgentTools.ts"
import { McpExclude } from "../../src/platform/McpAnnotations.ts"
import { buildRequest } from "../../src/mcp/RouteCall.ts"
import { TOOL_NAME_PATTERN, toolNames } from "../../src/mcp/ToolNames.ts"
import { SearchApi } from "../../src/search/SearchApi.ts"

/**
 * Routes counted straight from the HttpApi definitions, independently of the derivation; routes marked McpExclude
 * (probes and /metrics: for machines, not agents) are not tools.
 */
const routesOf = (...apis: ReadonlyArray<any>) => {
  const routes = new Set<string>()
  for (const api of apis) {
    HttpApi.reflect(api, {
      onGroup: () => {},
      onEndpoint: ({ endpoint, mergedAnnotations }) => {
        if (!Context.getOrElse(mergedAnnotations, McpExclude, () => false))
          routes.add(`${endpoint.method} ${endpoint.path}`)
      }
    })
  }
  return routes
}

const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
const all = () => [...clientTools(), ...exchangeTools()]

describe("MCP tools derived from the HttpApi definitions", () => {
  it("one app_ tool per client route and one dex_ tool per exchange and search route (a shared route once)", () => {
    const client = routesOf(ClientApi)
    const exchange = routesOf(ExchangeApi, SearchApi)
    assert.strictEqual(clientTools().length, client.size)
    assert.strictEqual(exchangeTools().length, exchange.size)
    assert.deepStrictEqual(new Set(clientTools().map((t) => `${t.route.method} ${t.route.path}`)), client)
    assert.deepStrictEqual(new Set(exchangeTools().map((t) => `${t.route.method} ${t.route.path}`)), exchange)
    console.log(
      `tool counts: app_ ${clientTools().length} (client routes ${client.size}), dex_ ${exchangeTools().length} (exchange + search routes ${exchange.size})`
    )
  })

  it("the routes that are no tools are exactly the operational GETs marked McpExclude on the route", () => {
    const excluded = new Set<string>()
    for (const api of [ClientApi, ExchangeApi, SearchApi] as ReadonlyArray<any>) {
      HttpApi.reflect(api, {
        onGroup: () => {},
        onEndpoint: ({ endpoint, mergedAnnotations }) => {
          if (Context.getOrElse(mergedAnnotations, McpExclude, () => false))
            excluded.add(`${endpoint.method} ${endpoint.path}`)
        }
      })
    }
    assert.deepStrictEqual([...excluded].sort(), [
      "GET /api/health/ready",
      "GET /api/v1/search/health",
      "GET /api/v1/search/index",
      "GET /livez",
      "GET /metrics",
      "GET /readyz"
    ])
    const paths = new Set([...clientTools(), ...exchangeTools()].map((t) => t.route.path))
    for (const kept of ["/healthz", "/api/health", "/api/v1/indexer/status"]) assert.isTrue(paths.has(kept), kept)
  })

  it("the quote flow's tools: the four partner-key routes (x-api-key, read-only) and the swap status", () => {
    const byName = new Map(exchangeTools().map((t) => [t.name, t]))
    const expected: Record<string, string> = {
      [QUOTE_TOOLS.get]: "GET /api/v1/quote",
      [QUOTE_TOOLS.partner]: "POST /api/v1/quote",
      [QUOTE_TOOLS.open]: "POST /api/v1/quote/open",
      [QUOTE_TOOLS.allowlist]: "GET /api/v1/quote/tokens",
      [QUOTE_TOOLS.status]: "GET /api/v1/status"
    }
    for (const [name, route] of Object.entries(expected)) {
      const tool = byName.get(name)
      assert.isDefined(tool, name)
      assert.strictEqual(`${tool!.route.method} ${tool!.route.path}`, route)
      assert.strictEqual(tool!.route.apiKeyHeader, route.includes("/quote") ? "x-api-key" : undefined, name)
      assert.isFalse(tool!.route.requiresSession, `${name} never takes the session JWT`)
      assert.isTrue(tool!.annotations.readOnlyHint && !tool!.annotations.destructiveHint, name)
      if (route.includes("/quote")) assert.include(tool!.description, "partner key", name)
    }
    const get = byName.get(QUOTE_TOOLS.get)!
    assert.deepStrictEqual([...(get.inputSchema.required as Array<string>)].sort(), [
      "amount",
      "chainId",
      "recipient",
      "tokenInAddress",
      "tokenOutAddress"
    ])
    assert.deepStrictEqual(Object.keys((get.outputSchema.properties as any).methodParameters.properties ?? {}).sort(), [
      "calldata",
      "to",
      "value"
    ])
    const partner = byName.get(QUOTE_TOOLS.partner)!
    assert.strictEqual((partner.inputSchema.properties as any).slippage.type, "number", "POST slippage is a fraction")
    assert.deepStrictEqual(
      buildRequest(get, { chainId: "31337" }, "http://localhost", { apiKey: "k", apiKeyHeader: "x-partner" })._tag,
      "Request"
    )
    const built = buildRequest(partner, { chainId: 31337, amount: "1000" }, "http://localhost", {
      apiKey: "k",
      apiKeyHeader: "x-partner"
    })
    assert.strictEqual(
      built._tag === "Request" && built.request.headers.get("x-partner"),
      "k",
      "the server's configured header"
    )
    assert.strictEqual(built._tag === "Request" && built.request.headers.get("authorization"), null)
  })

  it("names are unique and match ^(app|dex)_[a-z0-9_]+$; the sign-in tool is app_session_wallet_verify", () => {
    const names = all().map((t) => t.name)
    assert.strictEqual(new Set(names).size, names.length)
    for (const name of names) assert.match(name, TOOL_NAME_PATTERN)
    assert.isTrue(clientTools().every((t) => t.name.startsWith("app_")))
    assert.isTrue(exchangeTools().every((t) => t.name.startsWith("dex_")))
    const verify = clientTools().find((t) => t.name === "app_session_wallet_verify")
    assert.strictEqual(verify?.route.path, "/v1/session/wallet/verify")
  })

  it("routes sharing a path stem are told apart by method, then by parameters; a residual clash is an error", () => {
    assert.deepStrictEqual(
      toolNames("app", [
        { method: "POST", path: "/v1/launch" },
        { method: "GET", path: "/v1/launch/:id" },
        { method: "DELETE", path: "/v1/launch/:id" },
        { method: "GET", path: "/v1/launch/pending" },
        { method: "GET", path: "/v1/badges" },
        { method: "GET", path: "/v1/badges/:badgeId" }
      ]),
      [
        "app_launch_create",
        "app_launch_get",
        "app_launch_delete",
        "app_launch_pending",
        "app_badges",
        "app_badges_by_badge_id"
      ]
    )
    assert.deepStrictEqual(
      toolNames("app", [
        { method: "PUT", path: "/v1/x/:id" },
        { method: "PATCH", path: "/v1/x/:id" },
        { method: "GET", path: "/v1/x/:id" }
      ]),
      ["app_x_put", "app_x_patch", "app_x_get"]
    )
    assert.deepStrictEqual(
      toolNames("dex", [
        { method: "GET", path: "/api/v1/pools/:poolId/ticks" },
        { method: "GET", path: "/api/health" }
      ]),
      ["dex_pools_ticks", "dex_health"]
    )
    assert.throws(() =>
      toolNames("app", [
        { method: "GET", path: "/v1/a/:x" },
        { method: "GET", path: "/v1/a/:x" }
      ])
    )
  })

  it("every tool has a description, a title and all four hints; GET is read-only, writes say destructive/idempotent", () => {
    for (const tool of all()) {
      assert.isTrue(tool.description.length > 20, tool.name)
      assert.isTrue(tool.description.includes(`${tool.route.method} ${tool.route.path}`), tool.name)
      const a = tool.annotations
      assert.strictEqual(typeof a.title, "string", tool.name)
      for (const hint of [a.readOnlyHint, a.destructiveHint, a.idempotentHint, a.openWorldHint])
        assert.strictEqual(typeof hint, "boolean", tool.name)
      if (tool.route.method === "GET") assert.isTrue(a.readOnlyHint && !a.destructiveHint, tool.name)
      if (tool.route.method === "DELETE")
        assert.isTrue(!a.readOnlyHint && a.destructiveHint && a.idempotentHint, tool.name)
      if (tool.route.method === "POST") assert.isFalse(a.readOnlyHint && a.destructiveHint, tool.name)
    }
  })

  it("input schemas are valid JSON Schema objects with a description on every field; query integers are integers", () => {
    for (const tool of all()) {
      assert.strictEqual(tool.inputSchema.type, "object")
      ajv.compile(tool.inputSchema)
      ajv.compile(tool.outputSchema)
      for (const [name, property] of Object.entries((tool.inputSchema.properties ?? {}) as Record<string, any>)) {
        assert.isTrue(
          typeof property.description === "string" && property.description.length > 0,
          `${tool.name}.${name}`
        )
      }
    }
    const activity = clientTools().find((t) => t.name === "app_users_activity")!
    assert.strictEqual((activity.inputSchema.properties as any).limit.type, "integer")
    assert.isUndefined(activity.inputSchema.required, "optional query parameters stay optional")
    const upload = clientTools().find((t) => t.name === "app_users_profile_image")!
    assert.deepStrictEqual((upload.inputSchema.properties as any).file.required, ["base64", "contentType"])
  })

  it("arguments generated from each input schema validate against it and build the route's request", () => {
    for (const tool of all()) {
      const validate = ajv.compile(tool.inputSchema)
      const args = generateSync(tool.inputSchema as any, { seed: 7, alwaysFakeOptionals: true } as any) as Record<
        string,
        unknown
      >
      assert.isTrue(validate(args), `${tool.name}: ${JSON.stringify(validate.errors)}`)
      const built = buildRequest(tool, args, "http://localhost", { session: "jwt", apiKey: "key" })
      assert.strictEqual(built._tag, "Request", `${tool.name}: ${JSON.stringify(built)}`)
      if (built._tag !== "Request") continue
      assert.strictEqual(built.request.method, tool.route.method)
      assert.isFalse(/[:{]/.test(new URL(built.request.url).pathname), `${tool.name}: every path parameter is filled`)
    }
  })

  it("unknown and missing arguments are refused before any request, with INVALID_ARGUMENTS", () => {
    const profile = clientTools().find((t) => t.name === "app_users_profile_address")!
    const unknown = buildRequest(profile, { wallet: "0x1", walet: "x" }, "http://localhost", {})
    assert.strictEqual(unknown._tag === "Invalid" && unknown.error.code, "INVALID_ARGUMENTS")
    const missing = buildRequest(profile, {}, "http://localhost", {})
    assert.strictEqual(missing._tag === "Invalid" && missing.error.code, "INVALID_ARGUMENTS")
  })

  it("string patterns in src carry the u flag (without it Effect leaves them out of JSON Schema: OpenAPI and MCP)", () => {
    const files = NodeFs.readdirSync(NodePath.resolve(import.meta.dirname, "../../src"), {
      recursive: true,
      encoding: "utf8"
    }).filter((f) => f.endsWith(".ts"))
    const offenders = files.flatMap((file) => {
      const text = NodeFs.readFileSync(NodePath.resolve(import.meta.dirname, "../../src", file), "utf8")
      return [...text.matchAll(/isPattern\(\/(?:[^/\\\n]|\\.)+\/([a-z]*)\)/g)]
        .filter((m) => !m[1]!.includes("u"))
        .map((m) => `${file}: ${m[0]}`)
    })
    assert.deepStrictEqual(offenders, [])
  })
})
