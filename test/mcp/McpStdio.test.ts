import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { clientTools, exchangeTools } from "../../src/mcp/AgentTools.ts"
import { baseUrl } from "../support/TestServer.ts"
import { newAccount } from "../sessions/support.ts"
import { AgentServers, callTool, signInWithTools } from "./support.ts"

const bin = NodePath.resolve(import.meta.dirname, "../../bin/fire-api.js")

/** `fire-api mcp --services <s>` as an agent starts it: a subprocess speaking MCP on stdin/stdout. */
const connectStdio = (services: "client" | "exchange", env: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const urls = {
      client: yield* baseUrl("client"),
      exchange: yield* baseUrl("exchange"),
      search: yield* baseUrl("search")
    }
    const home = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-cli-"))
    return yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const client = new Client({ name: "fire-api-stdio-test", version: "1" })
        await client.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [
              bin,
              "mcp",
              "--services",
              services,
              "--client-url",
              urls.client,
              "--exchange-url",
              urls.exchange,
              "--search-url",
              urls.search
            ],
            env: { ...process.env, FIRE_API_HOME: home, ...env } as Record<string, string>,
            stderr: "inherit"
          })
        )
        return client
      }),
      (client) =>
        Effect.promise(() => client.close()).pipe(
          Effect.andThen(Effect.sync(() => NodeFs.rmSync(home, { recursive: true, force: true })))
        )
    )
  })

const PARTNER_KEY = "fq_stdio_test_partner_key_0123456789abcdef"

layer(AgentServers({ QUOTE_API_KEYS: `stdio:${PARTNER_KEY}`, QUOTE_WORKERS: "1" }), {
  timeout: "120 seconds",
  excludeTestServices: true
})("MCP over stdio (`fire-api mcp`, official SDK client)", (it) => {
  it.effect(
    "client tools: list, SIWE through the tools, then an authenticated call; errors carry {code, message}",
    () =>
      Effect.gen(function* () {
        const agent = yield* connectStdio("client")
        const { tools } = yield* Effect.promise(() => agent.listTools())
        assert.deepStrictEqual(
          tools.map((t) => t.name).sort(),
          clientTools()
            .map((t) => t.name)
            .sort()
        )
        assert.strictEqual((yield* callTool(agent, "app_users_me")).error?.code, "UNAUTHORIZED")
        const account = newAccount()
        const session = yield* signInWithTools(agent, account)
        const me = yield* callTool(agent, "app_users_me")
        assert.isFalse(me.isError, JSON.stringify(me.raw))
        assert.strictEqual(me.structured.walletAddress, account.address)
        assert.strictEqual(me.structured.id, session.user.id)
        assert.strictEqual(
          (yield* callTool(agent, "app_users_username_check", { username: "x" })).error?.code,
          "INVALID_QUERY"
        )
      })
  )

  it.effect("exchange tools over stdio; the quote tools send FIRE_API_KEY as the partner key", () =>
    Effect.gen(function* () {
      const agent = yield* connectStdio("exchange", { FIRE_API_KEY: PARTNER_KEY })
      const { tools } = yield* Effect.promise(() => agent.listTools())
      assert.deepStrictEqual(
        tools.map((t) => t.name).sort(),
        exchangeTools()
          .map((t) => t.name)
          .sort()
      )
      const health = yield* callTool(agent, "dex_health")
      assert.isFalse(health.isError, JSON.stringify(health.raw))
      assert.strictEqual(health.structured.service, "exchange")
      const tokens = yield* callTool(agent, "dex_quote_tokens", { chainId: 31337 })
      assert.isFalse(tokens.isError, JSON.stringify(tokens.raw))
      assert.strictEqual(tokens.structured.chainId, 31337)
      const keyless = yield* connectStdio("exchange", { FIRE_API_KEY: "" })
      const refused = yield* callTool(keyless, "dex_quote_tokens", { chainId: 31337 })
      assert.strictEqual(refused.error?.code, "INVALID_API_KEY")
    })
  )
})
