import { rssOf } from "../soak/stack.ts"
import { type HeapFigures, heapAfterGc } from "./AppHeap.ts"
import type { Attack, Target } from "./Attack.ts"
import { attackerIp, countOf, manyIp, ms, pool, send, tally } from "./Caller.ts"

/** Issue 23 H2: `initialize` floods of the client service's `/mcp` (sessions that never expired, unbounded payloads). */

const PROTOCOL = "2025-06-18"
const mcpHeaders = { accept: "application/json, text/event-stream" }

const initialize = async (
  target: Target,
  ip: string,
  clientInfo = { name: "probe", version: "1" },
  capabilities: object = {}
) => {
  const t0 = performance.now()
  const response = await fetch(`${target.client}/mcp`, {
    method: "POST",
    headers: { ...mcpHeaders, "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: PROTOCOL, capabilities, clientInfo }
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
/** BENCH_MCP_FLOODS (3): floods in a row; memory still growing after the first is retained, not V8 sizing its heap. */
const floods = Number(process.env.BENCH_MCP_FLOODS ?? 3)
/** The app's MCP_MAX_SESSIONS (src/mcp/McpGuard.ts): the sessions live after a flood, to share the heap they hold. */
const maxSessions = Number(process.env.MCP_MAX_SESSIONS ?? 1_000)
/** The app's rate of new sessions across all callers (src/mcp/McpNewSessionRate.ts); 0: off. */
const newSessionsPerSecond = Number(process.env.MCP_NEW_SESSIONS_PER_SECOND ?? 10)
const newSessionsBurst = Number(process.env.MCP_NEW_SESSIONS_BURST ?? 100)
/** 503 TOO_MANY_NEW_SESSIONS: refused by that rate, before the body is read (what `initialize` checks is skipped). */
const BUSY = 503
const busyNote = newSessionsPerSecond > 0 ? ", or 503 past MCP_NEW_SESSIONS_PER_SECOND (all callers')" : ""

export const mcpAttacks: ReadonlyArray<Attack> = [
  {
    finding: "H2",
    name: "MCP `initialize` loop from one IP: 100 calls",
    expected: `429 past MCP_INITIALIZE_RATE_LIMIT (30/min)${busyNote}`,
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const answers = await pool(100, 4, () => initialize(target, ip))
      return {
        answered: tally(answers),
        refused:
          countOf(answers, 429) + countOf(answers, BUSY) === 100 - countOf(answers, 200) && countOf(answers, 200) <= 30,
        effect: `${countOf(answers, 200)} sessions opened`
      }
    }
  },
  {
    finding: "H2",
    name:
      `MCP \`initialize\` flood: ${floodSize.toLocaleString("en")} calls from 500 IPs (20 each, under the per-IP limits), ` +
      `${floods} times (new IPs each time)`,
    expected:
      newSessionsPerSecond > 0
        ? `503 past MCP_NEW_SESSIONS_BURST (${newSessionsBurst}) / MCP_NEW_SESSIONS_PER_SECOND (${newSessionsPerSecond}) ` +
          "across all callers: at most that many sessions opened per flood; RSS within 50 MB after the first flood"
        : "sessions capped (MCP_MAX_SESSIONS 1,000): the first ones ended (404); RSS within 50 MB after the first flood",
    required: true,
    volumetric: true,
    run: async (target) => {
      const before = rssOf(target.pid)
      const rounds: Array<{ rss: number | undefined; callsPerSecond: number; gc: HeapFigures; withinRate: boolean }> =
        []
      // The full GCs the bench forces to read the heap (no attacker can): not the attack's effect on the others.
      const benchGcs: Array<{ from: number; to: number }> = []
      const gcOf = async () => {
        const from = Date.now()
        const figures = await heapAfterGc(target.inspectPort)
        benchGcs.push({ from, to: Date.now() })
        return figures
      }
      // With no session open yet (read after `before`, so that figure is the process as the flood finds it).
      const gcBefore = await gcOf()
      let firstAnswers: ReadonlyArray<Awaited<ReturnType<typeof initialize>>> = []
      let lastAnswers = firstAnswers
      for (let round = 0; round < floods; round++) {
        const t0 = performance.now()
        // Each flood from its own 500 addresses: the same ones again would meet the per-IP `initialize` limit.
        const ip = (i: number) => manyIp(1 + (i % 500) + 500 * round)
        const answers = await pool(floodSize, 8, (i) => initialize(target, ip(i)))
        const seconds = (performance.now() - t0) / 1000
        const rss = rssOf(target.pid) // right after the flood, before anything collects
        // The sessions the rate lets open in that time (a full burst at most), and those in flight when it ran out.
        const withinRate = countOf(answers, 200) <= newSessionsBurst + newSessionsPerSecond * seconds + 8
        rounds.push({ rss, callsPerSecond: floodSize / seconds, gc: await gcOf(), withinRate })
        if (round === 0) firstAnswers = answers
        lastAnswers = answers
      }
      const first = firstAnswers.find((a) => a.session !== undefined)
      const firstNow = first === undefined ? 0 : await listTools(target, first.session!, manyIp(1))
      const lastIndex = lastAnswers.findLastIndex((a) => a.session !== undefined)
      const lastNow =
        lastIndex < 0
          ? 0
          : await listTools(
              target,
              lastAnswers[lastIndex]!.session!,
              manyIp(1 + (lastIndex % 500) + 500 * (floods - 1))
            )
      const grew = (rss: number | undefined) =>
        before === undefined || rss === undefined ? Number.NaN : (rss - before) / 1048576
      const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(0)} MB`
      const firstGrowth = grew(rounds[0]!.rss)
      const perRound = rounds.map(
        (r, i) =>
          `flood ${i + 1}: RSS ${mb(r.rss)} right after (${signed(grew(r.rss))}) at ${r.callsPerSecond.toFixed(0)} calls/s; ` +
          `after a full GC heapUsed ${mb(r.gc.heapUsed)}, heapTotal ${mb(r.gc.heapTotal)}, RSS ${mb(r.gc.rss)}`
      )
      const lastGc = rounds.at(-1)!.gc
      const firstGc = rounds[0]!.gc
      return {
        answered: `${tally(firstAnswers)} per flood (the first); then the first session's tools/list ${firstNow}, the last one's ${lastNow}`,
        refused:
          newSessionsPerSecond > 0
            ? rounds.every((r) => r.withinRate) && countOf(firstAnswers, BUSY) > 0 && lastNow === 200
            : firstNow === 404 && lastNow === 200,
        excluded: benchGcs,
        effect:
          `RSS before ${mb(before)} (after a full GC: heapUsed ${mb(gcBefore.heapUsed)}, RSS ${mb(gcBefore.rss)}); ` +
          `${perRound.join("; ")}. First flood: ${signed(firstGrowth)} (target ≤ 50 MB: ` +
          `${firstGrowth <= 50 ? "met" : "NOT met"}); steady state, flood ${floods} vs flood 1 after a GC: heapUsed ` +
          `${signed((lastGc.heapUsed - firstGc.heapUsed) / 1048576)}, RSS ${signed((lastGc.rss - firstGc.rss) / 1048576)}; ` +
          `held by the ${maxSessions.toLocaleString("en")} live sessions: ` +
          `${((firstGc.heapUsed - gcBefore.heapUsed) / maxSessions / 1024).toFixed(1)} KB each (heapUsed after flood 1 vs before)`
      }
    }
  },
  {
    finding: "H2",
    name: "MCP `initialize` with a 10,000-character clientInfo.name",
    expected: `400 (clientInfo strings ≤ 256 characters)${busyNote}`,
    required: true,
    run: async (target) => {
      const answer = await initialize(target, attackerIp(), { name: "x".repeat(10_000), version: "1" })
      return {
        answered: tally([answer]),
        refused: (answer.status === 400 || answer.status === BUSY) && answer.session === undefined,
        effect: `answered in ${ms(answer.ms)}, ${answer.session === undefined ? "no session" : "a session opened"}`
      }
    }
  },
  {
    finding: "H2",
    name: "MCP `initialize` with 4,000 empty objects in capabilities.extensions (12 KB, kept for the session's life)",
    expected: `400 (initialize params ≤ MCP_INITIALIZE_VALUES 64 JSON values)${busyNote}`,
    required: true,
    run: async (target) => {
      const stuffed = { extensions: { "x/y": Array.from({ length: 4_000 }, () => ({})) } }
      const answer = await initialize(target, attackerIp(), undefined, stuffed)
      return {
        answered: tally([answer]),
        refused: (answer.status === 400 || answer.status === BUSY) && answer.session === undefined,
        effect: `answered in ${ms(answer.ms)}, ${answer.session === undefined ? "no session" : "a session opened"}`
      }
    }
  }
]
