import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { START_NODE_FLAGS } from "../../src/platform/system/HeapTuning.ts"

const root = NodePath.resolve(import.meta.dirname, "../..")

export interface Stack {
  readonly child: ChildProcess
  readonly dataDir: string
  readonly rpcUrl: string
  readonly chainId: number
  readonly urls: Record<"client" | "exchange" | "search" | "indexer", string>
  /** Lines the stack printed at warn level or above during the run (JSON logs), for the report. */
  readonly problems: Array<string>
  readonly stop: () => Promise<number | null>
}

/**
 * Starts the whole stack (all four services in one process, as `npm start` does) in a fresh temp DATA_DIR: embedded
 * PostgreSQL and the anvil devnet, all on free ports, JSON logs. `entry`: `dist` builds first and runs
 * `dist/src/main.js` (what `npm start` runs); `src` runs `src/main.ts` directly (faster to start, same code).
 * DATABASE_URL and RPC_URL of the caller's environment are not passed on: a soak never writes to a shared database.
 */
export const startStack = async (entry: "dist" | "src", extraEnv: Record<string, string>): Promise<Stack> => {
  const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-soak-"))
  if (entry === "dist") execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" })
  const main = entry === "dist" ? NodePath.join(root, "dist/src/main.js") : NodePath.join(root, "src/main.ts")
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    CLIENT_PORT: "0",
    EXCHANGE_PORT: "0",
    SEARCH_PORT: "0",
    INDEXER_PORT: "0",
    EMBEDDED_PG_PORT: "0",
    DEVNET_PORT: "0",
    LOG_FORMAT: "json",
    // The soak's many simulated users come from one IP: the per-IP limits would refuse most of them (40 req/s
    // against windows of 60 to 1,200 a minute, 20 sockets against 10). The limiters still run, with the soak's own
    // limits; the production defaults are not touched.
    RATE_LIMIT_EXCHANGE_PUBLIC_LIMIT: "1000000000",
    RATE_LIMIT_CLIENT_IP_LIMIT: "1000000000",
    // A few sign-ins a second, each a nonce and a verify, all from this address.
    SIGNIN_IP_RATE_LIMIT: "1000000000",
    GRAPHQL_RATE_LIMIT: "1000000000",
    GRAPHQL_WS_MAX_SOCKETS_PER_IP: "1000",
    QUOTE_OPEN_RATE_LIMIT: "1000000000",
    ...extraEnv
  }
  delete env.DATABASE_URL
  delete env.RPC_URL
  delete env.DEPLOYMENTS_FILE
  const child = spawn(process.execPath, [...START_NODE_FLAGS, main], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"]
  })
  const problems: Array<string> = []
  let out = ""
  const ready = new Promise<Omit<Stack, "child" | "dataDir" | "problems" | "stop">>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString()
      for (const line of text.split("\n")) {
        if (/"level":"(WARN|ERROR|FATAL)"/.test(line)) problems.push(line.slice(0, 500))
      }
      if (out.length < 200_000) out += text
      if (!/^ready: /m.test(out)) return
      const chain = /^chain\s+(\S+) \(chain id (\d+)/m.exec(out)
      const url = (name: string) => new RegExp(`^${name}\\s+(http://\\S+)`, "m").exec(out)?.[1] ?? ""
      resolve({
        rpcUrl: chain?.[1] ?? "",
        chainId: Number(chain?.[2] ?? 31337),
        urls: { client: url("client"), exchange: url("exchange"), search: url("search"), indexer: url("indexer") }
      })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.once("exit", (code) =>
      reject(new Error(`the stack exited with ${code} before it was ready:\n${out.slice(-4000)}`))
    )
  })
  const stop = () =>
    new Promise<number | null>((resolve) => {
      const done = (code: number | null) => {
        NodeFs.rmSync(dataDir, { recursive: true, force: true })
        resolve(code)
      }
      if (child.exitCode !== null) return done(child.exitCode)
      child.once("exit", (code) => done(code))
      child.kill("SIGTERM")
    })
  try {
    return { child, dataDir, problems, stop, ...(await ready) }
  } catch (error) {
    await stop()
    throw error
  }
}

/** RSS of a process from /proc (Linux), in bytes; undefined elsewhere or once it exited. */
export const rssOf = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined
  try {
    const status = NodeFs.readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}
