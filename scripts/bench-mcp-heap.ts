import * as NodeOs from "node:os"
import WebSocket from "ws"
import { START_NODE_FLAGS } from "../src/platform/system/HeapTuning.ts"
import { pool } from "./abuse/Caller.ts"
import { type MemoryMap, memoryMapOf } from "./bench/memoryMap.ts"
import { PRODUCTION_STACK_ARGS, productionStack } from "./bench/productionStack.ts"
import { buildApp, spawnApp, stopApp } from "./bench/spawn.ts"

/**
 * `npm run bench:mcp-heap`: where the app's memory goes during an `/mcp` `initialize` flood (issue 23 H2), with the
 * node flags `npm start` uses (START_NODE_FLAGS, pretenuring off: src/platform/system/HeapTuning.ts) against V8's
 * defaults (`--max-semi-space-size=0 --heap-growing-percent=0 --allocation-site-pretenuring`) as the baseline, in the same run. For each, the app
 * (production mode, as bench:abuse starts it: scripts/bench/productionStack.ts) takes a warm-up of 300 calls, a full
 * GC, then the flood. Printed: RSS before and right after; then, before / right after / after a full GC, the split of
 * the memory: V8's heap committed (new, old, code and other spaces), V8's own malloc (compilers, parser), array
 * buffers, and from /proc/PID/smaps glibc's main arena, its thread arenas, the other anonymous memory (V8's pages,
 * stacks, large mallocs) and mapped files (scripts/bench/memoryMap.ts).
 * BENCH_PROFILE=1 also samples the flood's allocations (HeapProfiler, collected objects included) and prints the bytes
 * per call and the largest allocation sites (BENCH_PROFILE_SITES of them, 15; BENCH_PROFILE_OUT=file keeps the profile);
 * BENCH_PROFILE=promoted samples only what survives a scavenge (what old space grows by).
 * BENCH_MCP_STUFFED=K: after the flood, MCP_MAX_SESSIONS (1,000) more `initialize` calls from 50 new addresses, each
 * with K empty objects in `capabilities.extensions` (open JSON the runtime keeps for the session's life); prints how
 * many opened and the heap they hold after a full GC against the flood's plain sessions.
 * BENCH_MCP_ENV="NAME=value …": one more run with `npm start`'s flags and that env (e.g. MALLOC_ARENA_MAX=2, or
 * MCP_INITIALIZE_VALUES=1000000 MCP_INITIALIZE_CHARS=1000000 for the bounds off).
 *
 * BENCH_MCP_NODE_ARGS="--flag …": that extra run with these node flags after `npm start`'s (e.g. to try a V8 flag);
 * BENCH_MCP_APP_LOG=file appends the app's stdout there, the flood marked (e.g. with `--trace-gc`).
 * BENCH_MCP_BASELINE=0, BENCH_MCP_START=0 skip the V8-defaults run, the `npm start` run.
 *
 * Env: BENCH_MCP_INITIALIZE (3000), BENCH_PROFILE, BENCH_MCP_STUFFED, BENCH_MCP_ENV, BENCH_MCP_NODE_ARGS.
 */
const calls = Number(process.env.BENCH_MCP_INITIALIZE ?? 3000)
const profile = process.env.BENCH_PROFILE === "1" || process.env.BENCH_PROFILE === "promoted"
/** Only what survives a scavenge (promoted to old space, or still young when the flood ends): what grows old space. */
const promotedOnly = process.env.BENCH_PROFILE === "promoted"
const stuffed = process.env.BENCH_MCP_STUFFED === undefined ? undefined : Number(process.env.BENCH_MCP_STUFFED)
const extraEnv = Object.fromEntries(
  (process.env.BENCH_MCP_ENV ?? "")
    .split(/\s+/u)
    .filter((pair) => pair.includes("="))
    .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)])
)
const extraNodeArgs = (process.env.BENCH_MCP_NODE_ARGS ?? "").split(/\s+/u).filter((arg) => arg !== "")
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`
const signed = (bytes: number) => `${bytes >= 0 ? "+" : ""}${mb(bytes)}`

interface V8Figures {
  readonly committed: number
  readonly spaces: Record<string, { readonly committed: number; readonly used: number }>
  readonly malloced: number
  readonly arrayBuffers: number
  readonly heapUsed: number
}

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
  /** V8's heap, space by space, and its malloc, without collecting anything. */
  const v8 = async (): Promise<V8Figures> => {
    const answer = await call("Runtime.evaluate", {
      expression: `JSON.stringify({ heap: require("v8").getHeapStatistics(), spaces: require("v8").getHeapSpaceStatistics(), usage: process.memoryUsage() })`,
      includeCommandLineAPI: true,
      returnByValue: true
    })
    const { heap, spaces, usage } = JSON.parse(answer.result.value) as {
      heap: { total_physical_size: number; malloced_memory: number; used_heap_size: number }
      spaces: Array<{ space_name: string; physical_space_size: number; space_used_size: number }>
      usage: { arrayBuffers: number }
    }
    return {
      committed: heap.total_physical_size,
      spaces: Object.fromEntries(
        spaces.map((s) => [s.space_name, { committed: s.physical_space_size, used: s.space_used_size }])
      ),
      malloced: heap.malloced_memory,
      arrayBuffers: usage.arrayBuffers,
      heapUsed: heap.used_heap_size
    }
  }
  return { call, v8, collect: () => call("HeapProfiler.collectGarbage"), close: () => socket.close() }
}

const initialize = async (client: string, ip: string, capabilities: object = {}) => {
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
      params: { protocolVersion: "2025-06-18", capabilities, clientInfo: { name: "probe", version: "1" } }
    }),
    signal: AbortSignal.timeout(30_000)
  })
  await response.arrayBuffer()
  return response.status
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

/** One row of the split: V8's heap, V8's malloc and array buffers, then the process's memory map. */
const splitRow = (label: string, v: V8Figures, m: MemoryMap | undefined) => {
  const space = (name: string) => v.spaces[name]?.committed ?? 0
  const named = ["new_space", "old_space", "code_space", "large_object_space"]
  const otherSpaces = Object.keys(v.spaces)
    .filter((name) => !named.includes(name))
    .reduce((sum, name) => sum + space(name), 0)
  const map =
    m === undefined
      ? "smaps unreadable"
      : `RSS ${mb(m.rss)}: main arena ${mb(m.mainArena)}, ${m.threadArenaCount} thread arenas ${mb(m.threadArenas)}, ` +
        `other anonymous ${mb(m.otherAnonymous)}, files ${mb(m.files)}`
  return (
    `    ${label.padEnd(13)} V8 heap ${mb(v.committed)} committed (new ${mb(space("new_space"))}, old ${mb(space("old_space"))} ` +
    `of which ${mb(v.spaces.old_space?.used ?? 0)} used, code ${mb(space("code_space"))}, large objects ` +
    `${mb(space("large_object_space"))}, other spaces ${mb(otherSpaces)}), V8 malloc ${mb(v.malloced)}, array buffers ` +
    `${mb(v.arrayBuffers)}; ${map}`
  )
}

/** The flood's sessions pushed out by MCP_MAX_SESSIONS stuffed ones: how many opened and the heap they hold. */
const stuffedSessions = async (client: string, session: Awaited<ReturnType<typeof inspector>>, objects: number) => {
  await session.collect()
  const plain = await session.v8()
  const capabilities = { extensions: { "x/y": Array.from({ length: objects }, () => ({})) } }
  const statuses = await pool(1_000, 8, (i) => initialize(client, `10.150.${i % 50}.1`, capabilities))
  await session.collect()
  const held = await session.v8()
  const opened = statuses.filter((s) => s === 200).length
  const refused = statuses.length - opened
  console.log(
    `  stuffed: 1,000 initialize calls with ${objects} empty objects in capabilities.extensions: ${opened} opened, ` +
      `${refused} refused (${[...new Set(statuses)].join(", ")}); heap after a full GC ${signed(held.heapUsed - plain.heapUsed)} ` +
      `against the flood's plain sessions${opened > 0 ? ` (${((held.heapUsed - plain.heapUsed) / opened / 1024).toFixed(1)} KB more per session)` : ""}`
  )
}

/** `nodeArgs` come after START_NODE_FLAGS (spawnApp), so they can undo them: of a V8 flag given twice, the last counts. */
const run = async (label: string, nodeArgs: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const stack = await productionStack("mcp-heap")
  const app = await spawnApp({ ...stack.env, ...env }, PRODUCTION_STACK_ARGS, nodeArgs)
  const session = await inspector(stack.inspectPort)
  if (process.env.BENCH_MCP_APP_LOG !== undefined) {
    const log = (await import("node:fs")).createWriteStream(process.env.BENCH_MCP_APP_LOG, { flags: "a" })
    app.child.stdout!.on("data", (chunk) => log.write(chunk))
  }
  try {
    const client = app.urls.get("client")!
    const pid = app.child.pid!
    // The warm-up's addresses are not the flood's: each address stays within the per-IP `initialize` limit.
    await pool(300, 8, (i) => initialize(client, `10.200.${i >> 8}.${i & 255}`))
    await session.call("HeapProfiler.enable")
    await session.collect()
    const before = { v8: await session.v8(), map: memoryMapOf(pid) }
    if (profile)
      await session.call("HeapProfiler.startSampling", {
        samplingInterval: 16_384,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: !promotedOnly
      })
    const t0 = performance.now()
    if (process.env.BENCH_MCP_APP_LOG !== undefined)
      await session.call("Runtime.evaluate", { expression: `console.log("=== flood starts")` })
    const statuses = await pool(calls, 8, (i) => initialize(client, `10.100.${(i % 500) >> 8}.${(i % 500) & 255}`))
    const seconds = (performance.now() - t0) / 1000
    const afterMap = memoryMapOf(pid) // right after, before anything collects
    if (process.env.BENCH_MCP_APP_LOG !== undefined)
      await session.call("Runtime.evaluate", { expression: `console.log("=== flood ends")` })
    const after = { v8: await session.v8(), map: afterMap }
    const sampled = profile ? (await session.call("HeapProfiler.stopSampling")).profile : undefined
    await session.collect()
    const gc = { v8: await session.v8(), map: memoryMapOf(pid) }
    const rss = (m: MemoryMap | undefined) => m?.rss ?? Number.NaN
    const failed = statuses.filter((s) => s !== 200).length
    console.log(
      `${label}: RSS ${mb(rss(before.map))} → ${mb(rss(after.map))} right after (${signed(rss(after.map) - rss(before.map))}), ` +
        `${(calls / seconds).toFixed(0)} calls/s${failed > 0 ? `, ${failed} not answered 200` : ""}; after a full GC RSS ${mb(rss(gc.map))}`
    )
    console.log(splitRow("before:", before.v8, before.map))
    console.log(splitRow("right after:", after.v8, after.map))
    console.log(splitRow("after a GC:", gc.v8, gc.map))
    if (sampled !== undefined && process.env.BENCH_PROFILE_OUT !== undefined)
      (await import("node:fs")).writeFileSync(process.env.BENCH_PROFILE_OUT, JSON.stringify(sampled))
    if (sampled !== undefined) {
      const { total, sites } = topSites(sampled.head, Number(process.env.BENCH_PROFILE_SITES ?? 15))
      console.log(
        `  ${promotedOnly ? "survived a scavenge" : "allocated"} ${(total / calls / 1024).toFixed(1)} KB per call (sampled); largest sites:`
      )
      for (const [site, bytes] of sites) console.log(`  ${mb(bytes).padStart(7)}  ${site}`)
    }
    if (stuffed !== undefined) await stuffedSessions(client, session, stuffed)
  } finally {
    session.close()
    await stopApp(app.child)
    stack.remove()
  }
}

buildApp()
console.log(
  `machine: ${NodeOs.cpus().length} cores, node ${process.version}; load average ${NodeOs.loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}; ${calls} initialize calls from 500 addresses, 8 in flight`
)
// --max-semi-space-size=0, --heap-growing-percent=0: V8's own sizing (the flags' defaults).
if (process.env.BENCH_MCP_BASELINE !== "0")
  await run("V8 defaults (--allocation-site-pretenuring, baseline)", [
    "--max-semi-space-size=0",
    "--heap-growing-percent=0",
    "--allocation-site-pretenuring"
  ])
if (process.env.BENCH_MCP_START !== "0")
  await run(`npm start's flags (${START_NODE_FLAGS.join(" ")}, pretenuring off)`, [])
if (Object.keys(extraEnv).length > 0 || extraNodeArgs.length > 0)
  await run(
    `npm start's flags with ${[...extraNodeArgs, ...Object.entries(extraEnv).map(([k, v]) => `${k}=${v}`)].join(" ")}`,
    extraNodeArgs,
    extraEnv
  )
console.log(
  `load average ${NodeOs.loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} at the end`
)
