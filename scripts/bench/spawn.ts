import autocannon from "autocannon"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as NodeNet from "node:net"
import * as NodePath from "node:path"
import { START_NODE_FLAGS } from "../../src/platform/system/HeapTuning.ts"
import { withProgress } from "./progress.ts"

export const root = NodePath.resolve(import.meta.dirname, "../..")

export interface Spawned {
  readonly child: ChildProcess
  readonly urls: Map<string, string>
  /** Milliseconds from spawn to the ready line. */
  readonly readyMs: number
}

/**
 * Benchmarks run what `npm start` runs: the build (`dist/src/main.js`) with its node flags (START_NODE_FLAGS). Call once before spawning; as `npm start`, it
 * builds when the sources changed since the last build (scripts/build-if-changed.ts), so the figures belong to them.
 */
export const buildApp = () => {
  execFileSync(process.execPath, [NodePath.join(root, "scripts/build-if-changed.ts")], { cwd: root, stdio: "inherit" })
}

/**
 * Starts the built app with the given env and arguments and resolves at its `ready:` line. `nodeArgs` go to node
 * before the script (`--cpu-prof` is refused in NODE_OPTIONS). `appRoot`: another checkout's build (a baseline
 * commit built in its own directory), this one's by default.
 */
export const spawnApp = (
  env: Record<string, string | undefined>,
  args: ReadonlyArray<string> = [],
  nodeArgs: ReadonlyArray<string> = [],
  appRoot: string = root
) => withProgress("bench: starting the app", () => spawnToReady(env, args, nodeArgs, appRoot))

const spawnToReady = (
  env: Record<string, string | undefined>,
  args: ReadonlyArray<string>,
  nodeArgs: ReadonlyArray<string>,
  appRoot: string
) =>
  new Promise<Spawned>((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(
      process.execPath,
      [...START_NODE_FLAGS, ...nodeArgs, NodePath.join(appRoot, "dist/src/main.js"), ...args],
      {
        cwd: appRoot,
        env: { ...process.env, LOG_FORMAT: "json", ...env },
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    let out = ""
    const urls = new Map<string, string>()
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      for (const m of out.matchAll(/^(client|exchange|search|indexer)\s+(http:\/\/\S+)$/gm)) urls.set(m[1]!, m[2]!)
      if (/^ready: /m.test(out)) resolve({ child, urls, readyMs: performance.now() - t0 })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.once("exit", (code) => reject(new Error(`exited with ${code} before ready:\n${out}`)))
  })

export const stopApp = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode)
    child.once("exit", (code) => resolve(code))
    child.kill("SIGTERM")
  })

/**
 * The baseline of the HTTP benchmarks: bare node:http answering `body` to any request, in its own process; or, given
 * `{ bodiesFile }` (JSON, request target → body), each target its own body (scripts/bench/bare-server.ts).
 * `encodeOnce`: the bodies are UTF-8 encoded once at start and each answer sends those bytes, as a response cache's
 * fast lane does (src/platform/http/CachedFastLane.ts); by default each answer encodes the body string again.
 */
export const startBareServer = (
  body: string | { readonly bodiesFile: string },
  path: string,
  options: { readonly encodeOnce?: boolean } = {}
) =>
  new Promise<{ url: string; pid: number; stop: () => void }>((resolve) => {
    const arg = typeof body === "string" ? body : `--bodies=${body.bodiesFile}`
    const flags = options.encodeOnce === true ? ["--encode-once"] : []
    const child = spawn(process.execPath, [NodePath.join(root, "scripts/bench/bare-server.ts"), arg, ...flags], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    child.stdout!.on("data", (chunk: Buffer) => {
      const port = chunk.toString().match(/listening (\d+)/)?.[1]
      if (port) resolve({ url: `http://127.0.0.1:${port}${path}`, pid: child.pid!, stop: () => child.kill("SIGTERM") })
    })
  })

/** One autocannon measurement after a warm-up (JIT, pool connections, caches) of `warmupSeconds` (2). */
export const measure = async (
  url: string,
  options: {
    readonly connections: number
    readonly seconds: number
    readonly headers?: Record<string, string>
    readonly warmupSeconds?: number
  }
) => {
  const { connections, seconds, headers = {}, warmupSeconds = 2 } = options
  const r = await withProgress(
    `bench: ${connections} connections on ${url}, ${warmupSeconds + seconds} s`,
    async () => {
      if (warmupSeconds > 0) await autocannon({ url, connections, duration: warmupSeconds, headers })
      return await autocannon({ url, connections, duration: seconds, headers })
    }
  )
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors,
    /** Requests answered in the measured seconds. */
    total: r.requests.total
  }
}
export type Measurement = Awaited<ReturnType<typeof measure>>

/** A port nothing listens on now (the OS's pick), for the app's embedded PostgreSQL, so the bench can reach it. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = NodeNet.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })
