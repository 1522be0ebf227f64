import { type ChildProcess, spawn } from "node:child_process"
import * as NodePath from "node:path"

/**
 * `node src/main.ts` as a user runs it (`npm start` without the build step), in its own process group like a
 * terminal's foreground job, so that a test can signal the whole group (`process.kill(-pid, "SIGINT")`, what Ctrl-C
 * does). Every port is ephemeral unless `env` says otherwise; DATABASE_URL is dropped (embedded PostgreSQL) unless
 * `env` sets it.
 */
const root = NodePath.resolve(import.meta.dirname, "../..")

export interface AppProcess {
  readonly child: ChildProcess
  readonly pid: number
  /** Everything printed so far, stdout and stderr interleaved as they arrived. */
  readonly output: () => string
  /** Resolves with the output once a line matches (rejects if the process exits first). */
  readonly waitFor: (pattern: RegExp) => Promise<string>
  /** Resolves with the exit code (or signal name) when the process has exited. */
  readonly exited: Promise<number | string>
}

export const ephemeralPorts = {
  CLIENT_PORT: "0",
  EXCHANGE_PORT: "0",
  SEARCH_PORT: "0",
  INDEXER_PORT: "0",
  EMBEDDED_PG_PORT: "0",
  DEVNET_PORT: "0"
}

export const spawnApp = (env: Record<string, string>, args: ReadonlyArray<string> = []): AppProcess => {
  const {
    DATABASE_URL: _db,
    RPC_URL: _rpc,
    DEPLOYMENTS_FILE: _deployments,
    LOG_LEVEL: _level,
    LOG_FORMAT: _format,
    ...inherited
  } = process.env
  const child = spawn(process.execPath, [NodePath.join(root, "src/main.ts"), ...args], {
    cwd: root,
    // A test deployment: with RPC_URL the default would be production mode, which refuses test settings.
    env: { ...inherited, ...ephemeralPorts, FIRE_ENV: "development", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  let out = ""
  const listeners = new Set<() => void>()
  const onData = (chunk: Buffer) => {
    out += chunk.toString()
    for (const listener of [...listeners]) listener()
  }
  child.stdout!.on("data", onData)
  child.stderr!.on("data", onData)
  const exited = new Promise<number | string>((resolve) =>
    // "close": the pipes are drained too, so `output()` holds the last lines.
    child.once("close", (code, signal) => resolve(code ?? signal ?? "unknown"))
  )
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(out)) return false
        listeners.delete(check)
        resolve(out)
        return true
      }
      if (check()) return
      listeners.add(check)
      void exited.then((code) => {
        if (listeners.delete(check)) reject(new Error(`exited with ${code} before ${pattern}:\n${out}`))
      })
    })
  const app = { child, pid: child.pid!, output: () => out, waitFor, exited }
  running.add(app)
  void exited.then(() => running.delete(app))
  return app
}

const running = new Set<AppProcess>()

/**
 * For `afterEach`: stops every app a test left running (a failed assertion) as Ctrl-C would, so that it stops its
 * PostgreSQL and anvil; SIGKILL after 15 s.
 */
export const stopLeftoverApps = () =>
  Promise.all(
    [...running].map(async (app) => {
      process.kill(-app.pid, "SIGINT")
      const timer = setTimeout(() => process.kill(-app.pid, "SIGKILL"), 15_000)
      await app.exited
      clearTimeout(timer)
    })
  )

/** The exit code, or "ready" when the app came up instead of exiting. */
export const exitOrReady = (app: AppProcess): Promise<number | string> =>
  Promise.race([
    app.exited,
    app.waitFor(/^ready: /m).then(
      () => "ready",
      () => app.exited
    )
  ])

/** The URL a ready line gives for a service (`client    http://…`). */
export const urlOf = (output: string, service: string): string => {
  const url = new RegExp(`^${service}\\s+(http://\\S+)`, "m").exec(output)?.[1]
  if (url === undefined) throw new Error(`no ${service} URL in:\n${output}`)
  return url
}

/** Lines that are warnings, errors or stack frames (pretty log format). */
export const noisyLines = (output: string): Array<string> =>
  output
    .split("\n")
    .filter((line) => /\b(WARN|ERROR|FATAL)\b/.test(line) || /^\s+at /.test(line) || /\[cause\]/.test(line))
