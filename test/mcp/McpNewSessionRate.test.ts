import * as NodeHttp from "node:http"
import { assert, describe, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { NewSessionBucket } from "../../src/mcp/McpNewSessionRate.ts"
import { baseUrl, TestServices } from "../support/TestServer.ts"
import { TEST_JWT_SECRET } from "../sessions/support.ts"

const BURST = 5

/**
 * The client service (real HTTP, real PostgreSQL) behind one trusted proxy; a rate so slow (one session per 1,000 s)
 * that no token comes back during the test: BURST sessions, then none.
 */
const Server = TestServices(["client"], { trustProxy: true }).pipe(
  Layer.provide(
    ConfigProvider.layer(
      ConfigProvider.fromEnvRecord({
        JWT_SECRET: TEST_JWT_SECRET,
        MCP_INITIALIZE_RATE_LIMIT: "2",
        MCP_NEW_SESSIONS_PER_SECOND: "0.001",
        MCP_NEW_SESSIONS_BURST: String(BURST)
      })
    )
  )
)

const PROTOCOL = "2025-06-18"
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" }
const initializeBody = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "probe", version: "1" } }
}

const post = async (base: string, ip: string, body: string, extra: Record<string, string> = {}) => {
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { ...headers, "x-forwarded-for": ip, ...extra },
    body
  })
  return {
    status: response.status,
    session: response.headers.get("mcp-session-id") ?? undefined,
    retryAfter: response.headers.get("retry-after"),
    text: await response.text()
  }
}
const initialize = (base: string, ip: string) => post(base, ip, JSON.stringify(initializeBody))

/** A POST whose headers announce a body that is never sent: answered only by what does not read the body. */
const postWithoutBody = (base: string, ip: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const url = new URL("/mcp", base)
    const request = NodeHttp.request(url, {
      method: "POST",
      headers: { ...headers, "x-forwarded-for": ip, "content-length": "1000" }
    })
    request.on("response", (response) => {
      let text = ""
      response.on("data", (chunk: Buffer) => (text += chunk.toString()))
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, text })
        request.destroy()
      })
    })
    request.on("error", reject)
    request.flushHeaders()
  })

describe("NewSessionBucket", () => {
  it("lets `burst` sessions open at once, then one per 1/perSecond s", () => {
    const bucket = new NewSessionBucket({ perSecond: 2, burst: 3 }, 0)
    for (let i = 0; i < 3; i++) {
      assert.isTrue(bucket.enter(0))
      bucket.spend(0)
      bucket.leave()
    }
    assert.isFalse(bucket.enter(0))
    assert.strictEqual(bucket.retryAfterSeconds(0), 1)
    assert.isFalse(bucket.enter(400))
    assert.isTrue(bucket.enter(500))
  })

  it("requests in flight reserve a token; one that opens no session gives it back", () => {
    const bucket = new NewSessionBucket({ perSecond: 1, burst: 2 }, 0)
    assert.isTrue(bucket.enter(0))
    assert.isTrue(bucket.enter(0))
    assert.isFalse(bucket.enter(0))
    bucket.leave()
    assert.isTrue(bucket.enter(0))
  })
})

/** Issue 23, H2: new sessions across all callers are held to MCP_NEW_SESSIONS_PER_SECOND / MCP_NEW_SESSIONS_BURST. */
layer(Server, { timeout: "120 seconds", excludeTestServices: true })("MCP new-session rate", (it) => {
  it.effect(
    "past the burst a new session is refused with 503 before its body is read; refusals and open sessions spend none",
    () =>
      Effect.gen(function* () {
        const base = yield* baseUrl("client")
        const results = yield* Effect.promise(async () => {
          // One address past its own limit (2): its refused call spends none of the others' rate.
          const own = [await initialize(base, "10.9.0.1"), await initialize(base, "10.9.0.1")]
          const pastOwn = await initialize(base, "10.9.0.1")
          // A message the runtime refuses (a JSON-RPC parse error) opens no session either.
          const malformed = await post(base, "10.9.0.2", "{not json")
          const others = []
          for (let i = 0; i < BURST - 2; i++) others.push(await initialize(base, `10.9.1.${i}`))
          const past = await initialize(base, "10.9.2.1")
          const unread = await postWithoutBody(base, "10.9.2.2")
          return { own, pastOwn, malformed, others, past, unread }
        })
        assert.deepStrictEqual(
          [...results.own, ...results.others].map((r) => r.status),
          Array(BURST).fill(200)
        )
        assert.strictEqual(results.pastOwn.status, 429)
        assert.isUndefined(results.malformed.session)
        assert.strictEqual(results.past.status, 503)
        assert.isUndefined(results.past.session)
        assert.isAtLeast(Number(results.past.retryAfter), 1)
        assert.strictEqual(JSON.parse(results.past.text).error.data.code, "TOO_MANY_NEW_SESSIONS")
        assert.strictEqual(results.unread.status, 503)
        assert.strictEqual(JSON.parse(results.unread.text).error.data.code, "TOO_MANY_NEW_SESSIONS")
        // The sessions open still answer: only new ones are held to the rate.
        const session = results.others[0]!.session!
        const inSession = { "mcp-session-id": session, "mcp-protocol-version": PROTOCOL }
        const listed = yield* Effect.promise(async () => {
          await post(
            base,
            "10.9.1.0",
            JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
            inSession
          )
          return post(base, "10.9.1.0", JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }), inSession)
        })
        assert.strictEqual(listed.status, 200)
      })
  )
})
