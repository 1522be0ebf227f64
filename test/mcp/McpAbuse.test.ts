import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { baseUrl, TestServices } from "../support/TestServer.ts"
import { TEST_JWT_SECRET } from "../sessions/support.ts"

const MAX_SESSIONS = 200

/** The client service (real HTTP, real PostgreSQL), behind one trusted proxy so each test can be its own IP. */
const Server = TestServices(["client"], { trustProxy: true }).pipe(
  Layer.provide(
    ConfigProvider.layer(
      ConfigProvider.fromEnvRecord({
        JWT_SECRET: TEST_JWT_SECRET,
        MCP_MAX_SESSIONS: String(MAX_SESSIONS),
        MCP_MAX_SESSIONS_PER_IP: "20",
        MCP_INITIALIZE_RATE_LIMIT: "30",
        // The table's cap and the per-IP limits are what this file tests: the rate of new sessions across all
        // callers (McpNewSessionRate.test.ts) would refuse most of the 10,000-call flood.
        MCP_NEW_SESSIONS_PER_SECOND: "0"
      })
    )
  )
)

const PROTOCOL = "2025-06-18"

const post = (base: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

const initialize = async (
  base: string,
  ip: string,
  clientInfo: Record<string, string> = { name: "probe", version: "1" }
) => {
  const response = await post(
    base,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo }
    },
    { "x-forwarded-for": ip }
  )
  const text = await response.text()
  return { status: response.status, session: response.headers.get("mcp-session-id") ?? undefined, text }
}

/** tools/list in `session` (after the initialized notification): 200 while it lives, 404 once it was ended. */
const listTools = async (base: string, session: string, ip: string) => {
  const headers = { "mcp-session-id": session, "mcp-protocol-version": PROTOCOL, "x-forwarded-for": ip }
  await (await post(base, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).text()
  const response = await post(base, { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers)
  await response.text()
  return response.status
}

let nextIp = 1
const newIp = () => {
  const n = nextIp++
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
}

/** Issue 23, H2: `/mcp` sessions are bounded in number and size, and one caller cannot flood them. */
layer(Server, { timeout: "300 seconds", excludeTestServices: true })("MCP session abuse", (it) => {
  it.effect(
    "10,000 initialize calls keep at most MCP_MAX_SESSIONS sessions; the ones pushed out are ended (404)",
    () =>
      Effect.gen(function* () {
        const base = yield* baseUrl("client")
        // With node --expose-gc the figures are of live memory (collected first); without, as found.
        const gc = (globalThis as { gc?: () => void }).gc
        gc?.()
        const before = process.memoryUsage()
        const opened: Array<{ session: string; ip: string }> = []
        const statuses = new Map<number, number>()
        yield* Effect.promise(async () => {
          // 10,000 calls from 500 addresses (20 each: under the per-IP limits), 8 at a time.
          let i = 0
          const worker = async () => {
            while (i < 10_000) {
              const ip = `172.16.${Math.floor(i / 20) >> 8}.${Math.floor(i / 20) & 255}`
              i++
              const r = await initialize(base, ip)
              statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
              if (r.session !== undefined) opened.push({ session: r.session, ip })
            }
          }
          await Promise.all(Array.from({ length: 8 }, worker))
        })
        // Measured and reported, not asserted (the process holds the test runner and the other services too).
        gc?.()
        const after = process.memoryUsage()
        const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`
        console.log(
          `MCP flood: statuses ${JSON.stringify([...statuses])}; RSS ${mb(before.rss)} -> ${mb(after.rss)}, heap ${mb(before.heapUsed)} -> ${mb(after.heapUsed)}`
        )
        assert.deepStrictEqual([...statuses], [[200, 10_000]])
        assert.strictEqual(opened.length, 10_000)
        // The first sessions were pushed out and ended in the MCP runtime itself: its own 404.
        for (const { session, ip } of opened.slice(0, 20))
          assert.strictEqual(yield* Effect.promise(() => listTools(base, session, ip)), 404)
        // The most recent MAX_SESSIONS live.
        for (const { session, ip } of opened.slice(-20))
          assert.strictEqual(yield* Effect.promise(() => listTools(base, session, ip)), 200)
        const live = yield* Effect.promise(async () => {
          let n = 0
          for (const { session, ip } of opened.slice(-(MAX_SESSIONS + 50)))
            if ((await listTools(base, session, ip)) === 200) n++
          return n
        })
        assert.isAtMost(live, MAX_SESSIONS)
      }),
    { timeout: 240_000 }
  )

  it.effect("initialize is limited per client IP, and one IP's new sessions end its own oldest", () =>
    Effect.gen(function* () {
      const base = yield* baseUrl("client")
      const ip = newIp()
      const other = yield* Effect.promise(() => initialize(base, newIp()))
      const results = yield* Effect.promise(async () => {
        const out: Array<{ status: number; session: string | undefined; text: string }> = []
        for (let i = 0; i < 31; i++) out.push(await initialize(base, ip))
        return out
      })
      assert.deepStrictEqual(
        results.slice(0, 30).map((r) => r.status),
        Array(30).fill(200)
      )
      assert.strictEqual(results[30]!.status, 429)
      assert.strictEqual(JSON.parse(results[30]!.text).error.data.code, "RATE_LIMITED")
      // 30 sessions opened, 20 kept: the first 10 were ended, the other IP's session was not.
      assert.strictEqual(yield* Effect.promise(() => listTools(base, results[0]!.session!, ip)), 404)
      assert.strictEqual(yield* Effect.promise(() => listTools(base, results[29]!.session!, ip)), 200)
      assert.strictEqual(yield* Effect.promise(() => listTools(base, other.session!, "10.255.0.1")), 200)
    })
  )

  it.effect("what initialize makes the server keep is bounded: stuffed capabilities or _meta are refused", () =>
    Effect.gen(function* () {
      const base = yield* baseUrl("client")
      const send = (params: Record<string, unknown>) =>
        Effect.promise(async () => {
          const r = await post(
            base,
            { jsonrpc: "2.0", id: 1, method: "initialize", params },
            { "x-forwarded-for": newIp() }
          )
          return { status: r.status, session: r.headers.get("mcp-session-id"), body: (await r.json()) as any }
        })
      const plain = { protocolVersion: PROTOCOL, clientInfo: { name: "probe", version: "1" } }
      // Under MCP_MESSAGE_BYTES (16 KiB), each of these was kept whole for the session's life.
      for (const params of [
        { ...plain, capabilities: { extensions: { "x/y": Array.from({ length: 4_000 }, () => ({})) } } },
        { ...plain, capabilities: {}, _meta: { pad: "p".repeat(10_000) } }
      ]) {
        const refused = yield* send(params)
        assert.strictEqual(refused.status, 400)
        assert.strictEqual(refused.body.error.data.code, "INITIALIZE_TOO_LARGE")
        assert.isNull(refused.session)
      }
      const client = yield* send({
        ...plain,
        capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } },
        clientInfo: {
          name: "an-agent",
          version: "2",
          icons: [{ src: "https://agent.example/i.png", sizes: ["48x48"] }]
        }
      })
      assert.strictEqual(client.status, 200)
      assert.isString(client.session)
    })
  )

  it.effect("clientInfo is bounded, and only tools/call may be large", () =>
    Effect.gen(function* () {
      const base = yield* baseUrl("client")
      const long = yield* Effect.promise(() => initialize(base, newIp(), { name: "x".repeat(10_000), version: "1" }))
      assert.strictEqual(long.status, 400)
      assert.strictEqual(JSON.parse(long.text).error.data.code, "INVALID_CLIENT_INFO")
      const ip = newIp()
      const { session } = yield* Effect.promise(() => initialize(base, ip))
      const headers = { "mcp-session-id": session!, "mcp-protocol-version": PROTOCOL, "x-forwarded-for": ip }
      const padded = { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: { pad: "p".repeat(100_000) } } }
      const big = yield* Effect.promise(async () => {
        const r = await post(base, padded, headers)
        return { status: r.status, body: (await r.json()) as any }
      })
      assert.strictEqual(big.status, 413)
      assert.strictEqual(big.body.error.data.code, "PAYLOAD_TOO_LARGE")
      // A tool call of the same size reaches its tool (an unknown tool here: a JSON-RPC answer, not a 413).
      const call = {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "app_no_such_tool", arguments: { pad: "p".repeat(100_000) } }
      }
      const callStatus = yield* Effect.promise(async () => {
        const r = await post(base, call, headers)
        await r.text()
        return r.status
      })
      assert.strictEqual(callStatus, 200)
    })
  )
})
