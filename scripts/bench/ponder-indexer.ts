/**
 * The Ponder side of `npm run bench:indexer`: runs `ponder start` from bench/ponder (its own install) under the
 * project's Node 24, against the bench's anvil and PostgreSQL, and times process start → `/ready` (historical
 * indexing complete) with `/status` at the configured end block.
 */
import * as NodeChild from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

export interface PonderRun {
  readonly rpcUrl: string
  readonly databaseUrl: string
  readonly schema: string
  readonly port: number
  readonly startBlock: bigint
  readonly endBlock: bigint
  readonly pools: ReadonlyArray<string>
  readonly tokens: ReadonlyArray<string>
  readonly timeoutMs?: number
  /** Ponder's `maxRequestsPerSecond` for the network (10,000 when unset: no throttle below anvil's pace). */
  readonly maxRequestsPerSecond?: number
}

/** `/status` of Ponder 1.0: per network, the last indexed block. */
type PonderStatus = Record<string, { readonly block?: { readonly number: number } }>

const root = NodePath.resolve(import.meta.dirname, "../..")
export const ponderDir = NodePath.join(root, "bench/ponder")
const ponderBin = NodePath.join(ponderDir, "node_modules/ponder/dist/esm/bin/ponder.js")
/** Node 24 of the main install, so nothing depends on the system Node. */
const node24 = NodePath.join(root, "node_modules/node/bin/node")

export const ponderInstalled = () => NodeFs.existsSync(ponderBin)

/** Installs bench/ponder from its lockfile (`npm ci`) when it is not installed yet; the main install stays small. */
export const ensurePonderInstalled = (log: (line: string) => void) => {
  if (ponderInstalled()) return
  log("installing Ponder in bench/ponder (npm ci)…")
  const npm = process.platform === "win32" ? "npm.cmd" : "npm"
  const result = NodeChild.spawnSync(npm, ["ci", "--no-audit", "--no-fund"], { cwd: ponderDir, stdio: "inherit" })
  if (result.status !== 0 || !ponderInstalled()) throw new Error(`npm ci in ${ponderDir} failed (${result.status})`)
}

/** Ponder rewrites this file at every start; the committed one is put back after each run (a clean tree after the bench). */
const ponderEnvFile = NodePath.join(ponderDir, "ponder-env.d.ts")

/** Seconds from spawn to `/ready` answering 200; the process is stopped before returning. */
export const runPonder = async (run: PonderRun): Promise<{ seconds: number }> => {
  const committedEnv = NodeFs.readFileSync(ponderEnvFile)
  const child = NodeChild.spawn(
    node24,
    [ponderBin, "start", "--schema", run.schema, "--port", String(run.port), "--log-level", "warn"],
    {
      cwd: ponderDir,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        DATABASE_URL: run.databaseUrl,
        PONDER_TELEMETRY_DISABLED: "true",
        PONDER_BENCH: JSON.stringify({
          rpcUrl: run.rpcUrl,
          startBlock: Number(run.startBlock),
          endBlock: Number(run.endBlock),
          pools: run.pools,
          tokens: run.tokens,
          ...(run.maxRequestsPerSecond === undefined ? {} : { maxRequestsPerSecond: run.maxRequestsPerSecond })
        })
      }
    }
  )
  let output = ""
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-20_000)
  }
  child.stdout.on("data", keep)
  child.stderr.on("data", keep)
  let exited: number | null | undefined
  child.on("exit", (code) => {
    exited = code
  })
  const start = performance.now()
  try {
    const deadline = start + (run.timeoutMs ?? 30 * 60_000)
    for (;;) {
      if (exited !== undefined) throw new Error(`ponder exited (${exited}):\n${output}`)
      if (performance.now() > deadline) throw new Error(`ponder not ready in time:\n${output}`)
      // `/ready` (historical sync done) and `/status` at the end block: every event up to it is indexed.
      const ready = await fetch(`http://127.0.0.1:${run.port}/ready`).then(
        (r) => r.status === 200,
        () => false
      )
      const status: PonderStatus = ready
        ? await fetch(`http://127.0.0.1:${run.port}/status`).then(
            (r) => r.json() as Promise<PonderStatus>,
            () => ({})
          )
        : {}
      const at = Object.values(status)[0]?.block?.number ?? -1
      if (ready && process.env.BENCH_PONDER_DEBUG) console.log(JSON.stringify(status))
      if (ready && at >= Number(run.endBlock)) return { seconds: (performance.now() - start) / 1000 }
      await new Promise((r) => setTimeout(r, 100))
    }
  } finally {
    if (exited === undefined) {
      child.kill("SIGTERM")
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          child.kill("SIGKILL")
          resolve()
        }, 10_000)
        child.on("exit", () => {
          clearTimeout(t)
          resolve()
        })
      })
    }
    NodeFs.writeFileSync(ponderEnvFile, committedEnv)
  }
}
