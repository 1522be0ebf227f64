import { rssOf } from "../soak/stack.ts"
import type { Attack, Target } from "./Attack.ts"
import { attackerIp, countOf, manyIp, ms, pool, send, tally } from "./Caller.ts"

/** Issue 23 H2: `initialize` floods of the client service's `/mcp` (sessions that never expired, unbounded payloads). */

const PROTOCOL = "2025-06-18"
const mcpHeaders = { accept: "application/json, text/event-stream" }

const initialize = async (target: Target, ip: string, clientInfo = { name: "probe", version: "1" }) => {
  const t0 = performance.now()
  const response = await fetch(`${target.client}/mcp`, {
    method: "POST",
    headers: { ...mcpHeaders, "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo }
    }),
    signal: AbortSignal.timeout(30_000)
  })
  await response.arrayBuffer()
  return {
    status: response.status,
    session: response.headers.get("mcp-session-id") ?? undefined,
    ms: performance.now() - t0
  }
}

/** tools/list in a session: 200 while it lives, 404 once it was ended. */
const listTools = async (target: Target, session: string, ip: string) => {
  const headers = { ...mcpHeaders, "mcp-session-id": session, "mcp-protocol-version": PROTOCOL }
  await send(`${target.client}/mcp`, { ip, headers, body: { jsonrpc: "2.0", method: "notifications/initialized" } })
  return (await send(`${target.client}/mcp`, { ip, headers, body: { jsonrpc: "2.0", id: 2, method: "tools/list" } }))
    .status
}

const mb = (bytes: number | undefined) => (bytes === undefined ? "?" : `${(bytes / 1048576).toFixed(0)} MB`)

/** BENCH_MCP_INITIALIZE (10,000): `initialize` calls of the many-address flood. */
const floodSize = Number(process.env.BENCH_MCP_INITIALIZE ?? 10_000)

export const mcpAttacks: ReadonlyArray<Attack> = [
  {
    finding: "H2",
    name: "MCP `initialize` loop from one IP: 100 calls",
    expected: "429 past MCP_INITIALIZE_RATE_LIMIT (30/min)",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const answers = await pool(100, 4, () => initialize(target, ip))
      return {
        answered: tally(answers),
        refused: countOf(answers, 429) > 0 && countOf(answers, 200) <= 30,
        effect: `${countOf(answers, 200)} sessions opened`
      }
    }
  },
  {
    finding: "H2",
    name: `MCP \`initialize\` flood: ${floodSize.toLocaleString("en")} calls from 500 IPs (20 each, under the per-IP limits)`,
    expected: "sessions capped (MCP_MAX_SESSIONS 1,000): the first ones ended (404); RSS within 50 MB",
    required: true,
    volumetric: true,
    run: async (target) => {
      const before = rssOf(target.pid)
      const t0 = performance.now()
      const answers = await pool(floodSize, 8, (i) => initialize(target, manyIp(1 + (i % 500))))
      const seconds = (performance.now() - t0) / 1000
      const after = rssOf(target.pid)
      const first = answers.find((a) => a.session !== undefined)
      const firstNow = first === undefined ? 0 : await listTools(target, first.session!, manyIp(1))
      const last = answers.findLast((a) => a.session !== undefined)
      const lastNow =
        last === undefined ? 0 : await listTools(target, last.session!, manyIp(1 + ((floodSize - 1) % 500)))
      const grew = before === undefined || after === undefined ? Number.NaN : (after - before) / 1048576
      return {
        answered: `${tally(answers)}; then the first session's tools/list ${firstNow}, the last one's ${lastNow}`,
        refused: firstNow === 404 && lastNow === 200,
        effect:
          `RSS ${mb(before)} → ${mb(after)} (${grew >= 0 ? "+" : ""}${grew.toFixed(0)} MB; target ≤ 50 MB: ` +
          `${grew <= 50 ? "met" : "NOT met"}), ${(floodSize / seconds).toFixed(0)} calls/s`
      }
    }
  },
  {
    finding: "H2",
    name: "MCP `initialize` with a 10,000-character clientInfo.name",
    expected: "400 (clientInfo strings ≤ 256 characters)",
    required: true,
    run: async (target) => {
      const answer = await initialize(target, attackerIp(), { name: "x".repeat(10_000), version: "1" })
      return {
        answered: tally([answer]),
        refused: answer.status === 400 && answer.session === undefined,
        effect: `answered in ${ms(answer.ms)}, ${answer.session === undefined ? "no session" : "a session opened"}`
      }
    }
  }
]
