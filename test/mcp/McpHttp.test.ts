import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { generateSync } from "json-schema-faker"
import { clientTools, exchangeTools } from "../../src/mcp/AgentTools.ts"
import type { RouteTool } from "../../src/mcp/RouteTools.ts"

/** Codes with which a route (or the tool layer) refuses the shape of its input. */
const SHAPE_ERRORS = new Set([
  "INVALID_ARGUMENTS",
  "INVALID_PATH",
  "INVALID_QUERY",
  "INVALID_BODY",
  "INVALID_HEADERS",
  "UNSUPPORTED_MEDIA_TYPE"
])

/** Sign-out last, so that every other route is reached with a session. */
const inCallOrder = (tools: ReadonlyArray<RouteTool>) =>
  [...tools].sort((a, b) => Number(a.route.sessionEffect === "ends") - Number(b.route.sessionEffect === "ends"))
import { newAccount } from "../sessions/support.ts"
import { baseUrl, fetchJson } from "../support/TestServer.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { AgentServers, callTool, connectMcp, noisePng, signInWithTools, tinyPng } from "./support.ts"

/** Partner keys are configured: a quote tool call without one is refused. */
const PARTNER_KEY = "fq_mcp_test_partner_key_0123456789abcdef"

layer(AgentServers({ QUOTE_API_KEYS: `mcp:${PARTNER_KEY}`, QUOTE_TIMEOUT: "5000", QUOTE_WORKERS: "1" }), {
  timeout: "120 seconds",
  excludeTestServices: true
})("MCP over streamable HTTP (official SDK client)", (it) => {
  it.effect("tools/list on /mcp: one tool per route, with schemas, descriptions and annotations", () =>
    Effect.gen(function* () {
      const client = yield* connectMcp("client")
      const { tools } = yield* Effect.promise(() => client.listTools())
      assert.strictEqual(tools.length, clientTools().length)
      assert.deepStrictEqual(
        tools.map((t) => t.name).sort(),
        clientTools()
          .map((t) => t.name)
          .sort()
      )
      for (const tool of tools) {
        assert.strictEqual(tool.inputSchema.type, "object", tool.name)
        assert.strictEqual(tool.outputSchema?.type, "object", tool.name)
        assert.isTrue((tool.description ?? "").length > 0, tool.name)
        assert.strictEqual(typeof tool.annotations?.readOnlyHint, "boolean", tool.name)
        assert.strictEqual(typeof tool.annotations?.destructiveHint, "boolean", tool.name)
        assert.strictEqual(typeof tool.annotations?.idempotentHint, "boolean", tool.name)
      }
      const dex = yield* connectMcp("exchange")
      const dexTools = (yield* Effect.promise(() => dex.listTools())).tools
      assert.deepStrictEqual(
        dexTools.map((t) => t.name).sort(),
        exchangeTools()
          .map((t) => t.name)
          .sort()
      )
      const health = yield* callTool(dex, "dex_health")
      assert.isFalse(health.isError, JSON.stringify(health.raw))
      assert.strictEqual(health.structured.service, "exchange")
    })
  )

  it.effect("SIWE through the tools logs the MCP session in; another session is not; logout ends it", () =>
    Effect.gen(function* () {
      const account = newAccount()
      const agent = yield* connectMcp("client")
      const anonymous = yield* callTool(agent, "app_users_me")
      assert.isTrue(anonymous.isError)
      assert.strictEqual(anonymous.error?.code, "UNAUTHORIZED")
      assert.strictEqual(anonymous.error?.status, 401)

      const session = yield* signInWithTools(agent, account)
      assert.strictEqual(session.user.walletAddress, account.address)
      const me = yield* callTool(agent, "app_users_me")
      assert.isFalse(me.isError, JSON.stringify(me.raw))
      assert.strictEqual(me.structured.walletAddress, account.address)
      assert.strictEqual(me.structured.id, session.user.id)

      const other = yield* connectMcp("client")
      assert.strictEqual((yield* callTool(other, "app_users_me")).error?.code, "UNAUTHORIZED", "sessions are separate")
      const withHeader = yield* connectMcp("client", { authorization: `Bearer ${session.token}` })
      assert.strictEqual(
        (yield* callTool(withHeader, "app_users_me")).structured.id,
        session.user.id,
        "Authorization header"
      )

      const logout = yield* callTool(agent, "app_session_logout")
      assert.isFalse(logout.isError, JSON.stringify(logout.raw))
      assert.deepStrictEqual(logout.structured, {})
      assert.strictEqual((yield* callTool(agent, "app_users_me")).error?.code, "UNAUTHORIZED")
      assert.strictEqual(
        (yield* callTool(withHeader, "app_users_me")).error?.code,
        "UNAUTHORIZED",
        "the JWT is revoked"
      )
    })
  )

  it.effect("route errors come back as tool errors with the route's {code, message}; typed query values", () =>
    Effect.gen(function* () {
      const agent = yield* connectMcp("client")
      const bad = yield* callTool(agent, "app_users_username_check", { username: "x" })
      assert.isTrue(bad.isError)
      assert.strictEqual(bad.error?.code, "INVALID_QUERY")
      assert.match(bad.error!.message, /username/)
      const unknown = yield* callTool(agent, "app_users_profile_address", {
        wallet: "0x000000000000000000000000000000000000dEaD"
      })
      assert.strictEqual(unknown.error?.code, "USER_NOT_FOUND")
      const account = newAccount()
      yield* signInWithTools(agent, account)
      const page = yield* callTool(agent, "app_users_activity", { limit: 5 })
      assert.isFalse(page.isError, JSON.stringify(page.raw))
      assert.deepStrictEqual(page.structured.items, [])
      const tooMany = yield* callTool(agent, "app_users_activity", { limit: 500 })
      assert.strictEqual(tooMany.error?.code, "INVALID_QUERY")
      const extra = yield* callTool(agent, "app_users_me", { verbose: true })
      assert.strictEqual(extra.error?.code, "INVALID_ARGUMENTS")
    })
  )

  it.effect("a multipart route takes the file as base64 + content type; the caller's address reaches the route", () =>
    Effect.gen(function* () {
      const agent = yield* connectMcp("client")
      yield* signInWithTools(agent, newAccount())
      const png = yield* tinyPng()
      const uploaded = yield* callTool(agent, "app_users_profile_image", {
        file: { base64: png.toString("base64"), contentType: "image/png", filename: "avatar.png" }
      })
      assert.isFalse(uploaded.isError, JSON.stringify(uploaded.raw))
      assert.match(uploaded.structured.image, /^\/v1\/images\/[0-9a-f]{64}\.webp$/)
      const file = uploaded.structured.image.split("/").pop()
      const image = yield* callTool(agent, "app_images", { file })
      assert.isFalse(image.isError)
      assert.strictEqual(image.structured.contentType, "image/webp")
      assert.isTrue(image.raw.content.some((c: any) => c.type === "image" && c.mimeType === "image/webp"))
      const notImage = yield* callTool(agent, "app_users_profile_image", {
        file: { base64: Buffer.from("hello").toString("base64"), contentType: "image/png" }
      })
      assert.strictEqual(notImage.error?.code, "NOT_AN_IMAGE")
      // Near IMAGE_MAX_BYTES: its base64 JSON-RPC body is over MAX_BODY_BYTES (1 MiB), yet /mcp takes it, and the
      // multipart request it becomes is within the route's limit.
      const large = yield* noisePng(540)
      assert.isTrue(large.length > 800_000 && large.length < 1_000_000, `${large.length} bytes`)
      assert.isTrue(large.toString("base64").length > 1_048_576)
      const big = yield* callTool(agent, "app_users_profile_image", {
        file: { base64: large.toString("base64"), contentType: "image/png" }
      })
      assert.isFalse(big.isError, JSON.stringify(big.error))
      const ip = yield* callTool(agent, "app_ip")
      assert.strictEqual(ip.structured.ip, "127.0.0.1")
    })
  )

  it.effect(
    "every tool's input schema validates a real call: arguments generated from it pass the route's own validation",
    () =>
      Effect.gen(function* () {
        const app = yield* connectMcp("client")
        yield* signInWithTools(app, newAccount())
        const dex = yield* connectMcp("exchange", { "x-api-key": PARTNER_KEY })
        const checked: Array<string> = []
        for (const [client, tools] of [
          [app, inCallOrder(clientTools())],
          [dex, exchangeTools()]
        ] as const) {
          for (const tool of tools) {
            for (const seed of [1, 2, 3]) {
              // A field's `examples` are used where it has them: a check JSON Schema cannot state (a P-256 point, an
              // https URL) is documented by a real example, which a model can follow too.
              const args = generateSync(
                tool.inputSchema as any,
                { seed, alwaysFakeOptionals: seed !== 1, useExamplesValue: true } as any
              ) as Record<string, unknown>
              const result = yield* callTool(client, tool.name, args)
              if (result.isError) {
                assert.isFalse(
                  SHAPE_ERRORS.has(result.error!.code),
                  `${tool.name}(${JSON.stringify(args).slice(0, 300)}) → ${JSON.stringify(result.error)}`
                )
              }
            }
            checked.push(tool.name)
          }
        }
        assert.strictEqual(checked.length, clientTools().length + exchangeTools().length)
      })
  )

  it.effect(
    "quote tools take the partner key from x-api-key or from the MCP session that sent it; never from Authorization",
    () =>
      Effect.gen(function* () {
        const refused = (result: { isError: boolean; error: any }) => {
          assert.isTrue(result.isError)
          assert.deepStrictEqual(
            [result.error.status, result.error.code, result.error.message],
            [401, "INVALID_API_KEY", "Invalid API key"]
          )
        }
        refused(yield* callTool(yield* connectMcp("exchange"), "dex_quote_tokens", { chainId: 31337 }))
        refused(
          yield* callTool(
            yield* connectMcp("exchange", { authorization: `Bearer ${PARTNER_KEY}` }),
            "dex_quote_tokens",
            { chainId: 31337 }
          )
        )
        refused(
          yield* callTool(yield* connectMcp("exchange", { "x-api-key": "not-a-key" }), "dex_quote_open", {
            chainId: 31337,
            tokenInAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
            tokenOutAddress: "0x9A9f2CCfdE556A7E9Ff0848998Aa4a0CFD8863AE",
            amount: "1000000000000000",
            recipient: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
          })
        )
        const withKey = yield* callTool(
          yield* connectMcp("exchange", { "x-api-key": PARTNER_KEY }),
          "dex_quote_tokens",
          { chainId: 31337 }
        )
        assert.isFalse(withKey.isError, JSON.stringify(withKey.raw))
        assert.strictEqual(withKey.structured.chainId, 31337)
        assert.isArray(withKey.structured.tokens)

        // A client that sends the key with its first call only: the session keeps it for the calls after.
        let keyPending = true
        const exchangeBase = yield* baseUrl("exchange")
        const once = yield* Effect.acquireRelease(
          Effect.promise(async () => {
            const client = new Client({ name: "fire-api-key-once", version: "1" })
            await client.connect(
              new StreamableHTTPClientTransport(new URL("/mcp", exchangeBase), {
                fetch: (url, init) => {
                  const headers = new Headers(init?.headers)
                  if (keyPending && typeof init?.body === "string" && init.body.includes("tools/call")) {
                    headers.set("x-api-key", PARTNER_KEY)
                    keyPending = false
                  }
                  return fetch(url, { ...init, headers })
                }
              })
            )
            return client
          }),
          (client) => Effect.promise(() => client.close())
        )
        assert.isFalse(
          (yield* callTool(once, "dex_quote_tokens", { chainId: 31337 })).isError,
          "the call that carries the key"
        )
        assert.isFalse(keyPending)
        const later = yield* callTool(once, "dex_quote_tokens", { chainId: 31337 })
        assert.isFalse(later.isError, `a later call without the header: ${JSON.stringify(later.error)}`)
        refused(yield* callTool(yield* connectMcp("exchange"), "dex_quote_tokens", { chainId: 31337 }))
      })
  )

  it.effect("/llms.txt on the client service lists every tool of both servers", () =>
    Effect.gen(function* () {
      const res = yield* fetchJson(`${yield* baseUrl("client")}/llms.txt`)
      assert.strictEqual(res.status, 200)
      assert.match(res.headers.get("content-type") ?? "", /^text\/markdown/)
      for (const tool of [...clientTools(), ...exchangeTools()]) assert.include(res.body, `\`${tool.name}\``)
      assert.include(res.body, "app_session_wallet_verify")
    })
  )
})
