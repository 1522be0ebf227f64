import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import WebSocket from "ws"
import { START_NODE_FLAGS } from "../src/platform/system/HeapTuning.ts"
import { pool } from "./abuse/Caller.ts"
import { buildApp, freePort, spawnApp, stopApp } from "./bench/spawn.ts"
import { rssOf } from "./soak/stack.ts"

/**
 * `npm run bench:mcp-heap`: where the app's memory goes during an `/mcp` `initialize` flood (issue 23 H2), with the
 * node flags `npm start` uses (START_NODE_FLAGS, pretenuring off: src/platform/system/HeapTuning.ts) against V8's
 * defaults (`--max-semi-space-size=0 --allocation-site-pretenuring`) as the baseline, in the same run. For each, the app
 * (production mode, as bench:abuse starts it) takes a warm-up of 300 calls, a full GC, then the flood; printed: RSS
 * before and right after, the new and old spaces right after (committed / used), then after a full GC.
 * BENCH_PROFILE=1 also samples the flood's allocations (HeapProfiler, collected objects included) and prints the bytes
 * per call and the largest allocation sites.
 *
 * Env: BENCH_MCP_INITIALIZE (3000), BENCH_PROFILE.
 */
const calls = Number(process.env.BENCH_MCP_INITIALIZE ?? 3000)
const profile = process.env.BENCH_PROFILE === "1"
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`

/** A Chrome DevTools Protocol session on the app's inspector. */
const inspector = async (port: number) => {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as ReadonlyArray<{
    webSocketDebuggerUrl: string
  }>
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl, { maxPayload: 1 << 30 })
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject))
  let nextId = 0
  const call = (method: string, params: object = {}) =>
    new Promise<any>((resolve) => {
      const id = ++nextId
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as { id?: number; result?: unknown }
        if (message.id !== id) return
        socket.off("message", onMessage)
        resolve(message.result)
      }
      socket.on("message", onMessage)
      socket.send(JSON.stringify({ id, method, params }))
    })
  /** New and old space, committed and used, without collecting anything. */
  const spaces = async () => {
    const answer = await call("Runtime.evaluate", {
      expression: `JSON.stringify(require("v8").getHeapSpaceStatistics().filter((s) => s.space_name === "new_space" || s.space_name === "old_space"))`,
      includeCommandLineAPI: true,
      returnByValue: true
    })
    const list = JSON.parse(answer.result.value) as Array<{
      space_name: string
      space_size: number
      space_used_size: number
    }>
    const of = (name: string) => list.find((s) => s.space_name === name)!
    return { newSpace: of("new_space"), oldSpace: of("old_space") }
  }
  return { call, spaces, close: () => socket.close() }
}

const initialize = async (client: string, ip: string) => {
  const response = await fetch(`${client}/mcp`, {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "x-forwarded-for": ip
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } }
    }),
    signal: AbortSignal.timeout(30_000)
  })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}`)
}

/** The largest allocation sites of a sampled profile, by the last three frames. */
const topSites = (head: any, count: number) => {
  const bySite = new Map<string, number>()
  let total = 0
  const walk = (node: any, stack: ReadonlyArray<string>) => {
    const f = node.callFrame
    const file = String(f.url)
      .replace(/^.*node_modules\//u, "")
      .replace(/^file:\/\/.*?\/dist\//u, "dist/")
    const here = [...stack, `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`]
    if (node.selfSize > 0) {
      total += node.selfSize
      const key = here.slice(-3).join(" < ")
      bySite.set(key, (bySite.get(key) ?? 0) + node.selfSize)
    }
    for (const child of node.children) walk(child, here)
  }
  walk(head, [])
  return { total, sites: [...bySite].sort((a, b) => b[1] - a[1]).slice(0, count) }
}

/** `nodeArgs` come after START_NODE_FLAGS (spawnApp), so they can undo them: of a V8 flag given twice, the last counts. */
const run = async (label: string, nodeArgs: ReadonlyArray<string>) => {
  const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-bench-mcp-heap-"))
  NodeFs.chmodSync(dataDir, 0o755) // the embedded PostgreSQL's user must reach it
  const inspectPort = await freePort()
  const app = await spawnApp(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: undefined,
      RPC_URL: undefined,
      EMBEDDED_PG_PORT: "0",
      DEVNET_PORT: String(await freePort()),
      CLIENT_PORT: "0",
      EXCHANGE_PORT: "0",
      INDEXER_PORT: "0",
      HOST: "127.0.0.1",
      FIRE_ENV: "production",
      SIWE_DOMAINS: "localhost",
      JWT_SECRET: `mcp-heap-${crypto.randomUUID()}-${crypto.randomUUID()}`,
      QUOTE_OPEN: "false",
      TRUST_PROXY: "true",
      TRUSTED_PROXY_HOPS: "1",
      NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}`
    },
    ["--services", "client,exchange,indexer"],
    nodeArgs
  )
  const session = await inspector(inspectPort)
  try {
    const client = app.urls.get("client")!
    const pid = app.child.pid!
    // The warm-up's addresses are not the flood's: each address stays within the per-IP `initialize` limit.
    await pool(300, 8, (i) => initialize(client, `10.200.${i >> 8}.${i & 255}`))
    await session.call("HeapProfiler.enable")
    await session.call("HeapProfiler.collectGarbage")
    const before = rssOf(pid)!
    if (profile)
      await session.call("HeapProfiler.startSampling", {
        samplingInterval: 16_384,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true
      })
    const t0 = performance.now()
    await pool(calls, 8, (i) => initialize(client, `10.100.${(i % 500) >> 8}.${(i % 500) & 255}`))
    const seconds = (performance.now() - t0) / 1000
    const after = rssOf(pid)!
    const { newSpace, oldSpace } = await session.spaces()
    const sampled = profile ? (await session.call("HeapProfiler.stopSampling")).profile : undefined
    await session.call("HeapProfiler.collectGarbage")
    const gc = await session.spaces()
    console.log(
      `${label}: RSS ${mb(before)} → ${mb(after)} right after (${after >= before ? "+" : ""}${mb(after - before)}), ` +
        `${(calls / seconds).toFixed(0)} calls/s; right after: new space ${mb(newSpace.space_size)} committed / ` +
        `${mb(newSpace.space_used_size)} used, old space ${mb(oldSpace.space_used_size)} used; after a full GC: ` +
        `new space ${mb(gc.newSpace.space_size)}, old space ${mb(gc.oldSpace.space_used_size)}, RSS ${mb(rssOf(pid)!)}`
    )
    if (sampled !== undefined) {
      const { total, sites } = topSites(sampled.head, 15)
      console.log(`  allocated ${(total / calls / 1024).toFixed(0)} KB per call (sampled); largest sites:`)
      for (const [site, bytes] of sites) console.log(`  ${mb(bytes).padStart(7)}  ${site}`)
    }
  } finally {
    session.close()
    await stopApp(app.child)
    NodeFs.rmSync(dataDir, { recursive: true, force: true })
  }
}

buildApp()
console.log(
  `machine: ${NodeOs.cpus().length} cores, node ${process.version}; load average ${NodeOs.loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}; ${calls} initialize calls from 500 addresses, 8 in flight`
)
// --max-semi-space-size=0: V8's own sizing (the flag's default).
await run("V8 defaults (--allocation-site-pretenuring, baseline)", [
  "--max-semi-space-size=0",
  "--allocation-site-pretenuring"
])
await run(`npm start's flags (${START_NODE_FLAGS.join(" ")}, pretenuring off)`, [])
console.log(
  `load average ${NodeOs.loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} at the end`
)
