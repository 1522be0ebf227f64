import { spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { fingerprintFile } from "./build/SourceFingerprint.ts"
import { withProgress } from "./bench/progress.ts"

/**
 * `npm run bench:start`: seconds from running `npm start` to its `ready:` line, as a user sees them.
 *   cold: a fresh DATA_DIR (new PostgreSQL cluster, devnet deployed and seeded) and a build (the fingerprint of the
 *         last build is removed first, as on a fresh clone);
 *   warm: the same DATA_DIR again with nothing changed (no build);
 *   warm, full build: the same, started the way `npm start` started before it built only on change
 *         (`npm run build && node dist/src/main.js`): the baseline, measured in the same run at the same load.
 * Each start runs on free ports (all `*_PORT=0`) and is stopped with SIGTERM before the next; BENCH_RUNS warm starts
 * of each kind (default 3), the median printed.
 */
const root = NodePath.resolve(import.meta.dirname, "..")
const runs = Number(process.env.BENCH_RUNS ?? 3)
const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-bench-start-"))
// The embedded PostgreSQL and devnet are what `npm start` brings: a DATABASE_URL or RPC_URL in the caller's shell is not used.
const { DATABASE_URL: _database, RPC_URL: _rpc, ...inherited } = process.env
const env = {
  ...inherited,
  DATA_DIR: dataDir,
  CLIENT_PORT: "0",
  EXCHANGE_PORT: "0",
  SEARCH_PORT: "0",
  INDEXER_PORT: "0",
  EMBEDDED_PG_PORT: "0",
  DEVNET_PORT: "0"
}

/** The start being measured: stopped if the benchmark itself fails, so no PostgreSQL or anvil is left running. */
let running: number | undefined
const signalGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal)
  } catch {
    // Already gone.
  }
}
process.once("exit", () => {
  if (running !== undefined) signalGroup(running, "SIGTERM")
})

/** Runs `npm start` to its ready line, then stops it (SIGTERM to its process group) and waits until it has exited. */
const startOnce = (label: string, command: ReadonlyArray<string> = ["npm", "start", "--silent"]) =>
  withProgress(
    `bench:start ${label}`,
    () =>
      new Promise<{ readonly seconds: number; readonly built: boolean }>((resolve, reject) => {
        const t0 = performance.now()
        const child = spawn(command[0]!, command.slice(1), {
          cwd: root,
          env,
          stdio: ["ignore", "pipe", "pipe"],
          detached: true
        })
        running = child.pid
        let out = ""
        let seconds: number | undefined
        let killTimer: NodeJS.Timeout | undefined
        const onData = (chunk: Buffer) => {
          out += chunk.toString()
          if (seconds === undefined && /^ready: /m.test(out)) {
            seconds = (performance.now() - t0) / 1000
            signalGroup(child.pid!, "SIGTERM")
            killTimer = setTimeout(() => signalGroup(child.pid!, "SIGKILL"), 20_000)
          }
        }
        child.stdout.on("data", onData)
        child.stderr.on("data", onData)
        child.once("close", (code) => {
          clearTimeout(killTimer)
          running = undefined
          if (seconds === undefined) reject(new Error(`npm start exited with ${code} before ready:\n${out}`))
          else resolve({ seconds, built: out.includes("building dist/") })
        })
      })
  )

try {
  NodeFs.rmSync(fingerprintFile(root), { force: true })
  const cold = await startOnce("cold")
  const warm: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const run = await startOnce(`warm ${i + 1}/${runs}`)
    if (run.built) throw new Error("a warm start rebuilt dist/: the sources changed during the benchmark")
    warm.push(run.seconds)
  }
  const fullBuild: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const run = await startOnce(`warm, full build ${i + 1}/${runs}`, [
      "sh",
      "-c",
      "npm run build --silent && exec node dist/src/main.js"
    ])
    fullBuild.push(run.seconds)
  }
  const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const list = (xs: ReadonlyArray<number>) => `median of ${xs.length}: ${xs.map((s) => s.toFixed(1)).join(", ")}`
  console.log(
    `load average ${NodeOs.loadavg()
      .map((x) => x.toFixed(1))
      .join(", ")}, ${NodeOs.cpus().length} cores`
  )
  console.log(
    `cold (fresh DATA_DIR, build): ready in ${cold.seconds.toFixed(1)} s${cold.built ? "" : " (no build ran)"}`
  )
  console.log(`warm (same DATA_DIR, nothing changed): ready in ${median(warm).toFixed(1)} s (${list(warm)})`)
  console.log(`warm, full build every start (before): ready in ${median(fullBuild).toFixed(1)} s (${list(fullBuild)})`)
} finally {
  if (running !== undefined) signalGroup(running, "SIGTERM")
  NodeFs.rmSync(dataDir, { recursive: true, force: true })
}
