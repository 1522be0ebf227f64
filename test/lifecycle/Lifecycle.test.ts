import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { commandOf, isAlive } from "../../src/platform/Processes.ts"

/**
 * The whole program as `npm start` runs it, in a child process: embedded PostgreSQL (no DATABASE_URL, which also
 * proves the embedded path), every service on an ephemeral port, then a signal. Nothing it started may survive it.
 */
const root = NodePath.resolve(import.meta.dirname, "../..")
const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-lifecycle-"))

/** Apps a test started and has not stopped: a failed assertion must not leave them (and their postgres, anvil) running. */
const running = new Set<ChildProcess>()
const stopRunning = async () => {
  for (const child of running) await stop(child, "SIGTERM")
}
afterEach(stopRunning)
afterAll(async () => {
  await stopRunning()
  NodeFs.rmSync(dataDir, { recursive: true, force: true })
})

interface Started {
  readonly child: ChildProcess
  readonly urls: Map<string, string>
  readonly output: () => string
}

const start = (): Promise<Started> =>
  new Promise((resolve, reject) => {
    const { DATABASE_URL: _ignored, ...env } = process.env
    const child = spawn(process.execPath, [NodePath.join(root, "src/main.ts")], {
      cwd: root,
      env: {
        ...env,
        DATA_DIR: dataDir,
        CLIENT_PORT: "0",
        EXCHANGE_PORT: "0",
        SEARCH_PORT: "0",
        INDEXER_PORT: "0",
        EMBEDDED_PG_PORT: "0",
        DEVNET_PORT: "0",
        LOG_FORMAT: "json"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    running.add(child)
    child.once("exit", () => running.delete(child))
    let out = ""
    const urls = new Map<string, string>()
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      for (const match of out.matchAll(/^(client|exchange|search|indexer|chain)\s+(http:\/\/\S+)/gm))
        urls.set(match[1]!, match[2]!)
      if (/^ready: /m.test(out)) resolve({ child, urls, output: () => out })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.once("exit", (code) => reject(new Error(`exited with ${code} before ready:\n${out}`)))
  })

function stop(child: ChildProcess, signal: NodeJS.Signals) {
  return new Promise<{ code: number | null; ms: number }>((resolve) => {
    const t0 = Date.now()
    child.once("exit", (code) => resolve({ code, ms: Date.now() - t0 }))
    child.kill(signal)
  })
}

/**
 * pgrep's matches: exit 1 means none matched; any other failure (pgrep missing, a bad option) throws, so that it
 * cannot pass for "nothing left".
 */
const pgrep = (args: ReadonlyArray<string>): Array<string> => {
  const res = spawnSync("pgrep", args, { encoding: "utf8" })
  if (res.status === 1 && res.error === undefined) return []
  if (res.status !== 0)
    throw new Error(`pgrep ${args.join(" ")} failed (${res.error?.message ?? `exit ${res.status}`}): ${res.stderr}`)
  return res.stdout.trim().split("\n")
}

/** Processes (other than this test) whose command line mentions the data dir (postgres). */
const leftovers = () => pgrep(["-af", dataDir]).join("\n")

/** The app's direct child processes, by command name (postgres, anvil). */
const childrenOf = (pid: number) =>
  pgrep(["-P", String(pid)])
    .map(Number)
    .map((child) => ({ pid: child, name: commandOf(child) ?? "" }))

const rpc = async (url: string, method: string) => {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] })
  })
  return ((await res.json()) as { result: string }).result
}

const healthPaths = { client: "/healthz", exchange: "/api/health", search: "/api/health", indexer: "/healthz" } as const

/**
 * The cold start the other tests build on (each of them runs alone, `-t`): started on the fresh DATA_DIR, probed,
 * a block mined on the devnet, then stopped with SIGTERM. The first test asserts what was seen.
 */
const coldStart = async () => {
  const app = await start()
  const health: Record<string, number> = {}
  for (const [service, path] of Object.entries(healthPaths))
    health[service] = (await fetch(`${app.urls.get(service)}${path}`)).status
  const runningBefore = leftovers()
  const children = childrenOf(app.child.pid!)
  // Activity on the devnet while the app runs must survive the restart (the database keeps its side too).
  await rpc(app.urls.get("chain")!, "evm_mine")
  const mined = BigInt(await rpc(app.urls.get("chain")!, "eth_blockNumber"))
  const { code, ms } = await stop(app.child, "SIGTERM")
  return {
    services: [...app.urls.keys()].sort(),
    health,
    runningBefore,
    children,
    mined,
    code,
    ms,
    leftoversAfter: leftovers()
  }
}
let cold: Awaited<ReturnType<typeof coldStart>>

describe("process lifecycle (npm start)", () => {
  beforeAll(async () => {
    cold = await coldStart()
  }, 180_000)

  it("cold start serves all four services, SIGTERM stops everything with exit code 0 within 10 s", () => {
    expect(cold.services).toEqual(["chain", "client", "exchange", "indexer", "search"])
    expect(cold.health).toEqual({ client: 200, exchange: 200, search: 200, indexer: 200 })
    expect(cold.runningBefore).toContain("postgres")
    expect(cold.children.map((c) => c.name).sort()).toEqual(["anvil", "postgres"])
    expect(cold.code).toBe(0)
    expect(cold.ms).toBeLessThan(10_000)
    expect(cold.leftoversAfter).toBe("")
    expect(cold.children.filter((c) => isAlive(c.pid))).toEqual([])
  })

  it("a second start on the same DATA_DIR reuses the data and the devnet state; SIGINT exits 0", async () => {
    const app = await start()
    expect(app.output()).not.toContain("initialising PostgreSQL data directory")
    expect(app.output()).toMatch(/warm start/)
    expect(BigInt(await rpc(app.urls.get("chain")!, "eth_blockNumber"))).toBe(cold.mined)
    const res = await fetch(`${app.urls.get("client")}/healthz`)
    expect(res.status).toBe(200)
    // "Nothing left" below means something only if they were there.
    expect(leftovers()).toContain("postgres")
    const children = childrenOf(app.child.pid!)
    expect(children.map((c) => c.name).sort()).toEqual(["anvil", "postgres"])
    const { code } = await stop(app.child, "SIGINT")
    expect(code).toBe(0)
    expect(leftovers()).toBe("")
    expect(children.filter((c) => isAlive(c.pid))).toEqual([])
  }, 180_000)

  it("after a SIGKILL (no finalizer ran) the next start stops the orphaned postgres and anvil and comes up", async () => {
    const first = await start()
    const orphans = childrenOf(first.child.pid!)
    expect(orphans.map((c) => c.name).sort()).toEqual(["anvil", "postgres"])
    await stop(first.child, "SIGKILL")
    expect(orphans.filter((c) => isAlive(c.pid)).length).toBe(2)
    const second = await start()
    expect(orphans.filter((c) => isAlive(c.pid))).toEqual([])
    expect((await fetch(`${second.urls.get("client")}/healthz`)).status).toBe(200)
    const { code } = await stop(second.child, "SIGTERM")
    expect(code).toBe(0)
    expect(leftovers()).toBe("")
  }, 180_000)
})
