import { afterAll, afterEach, describe, expect, inject, it } from "vitest"
import { execFileSync } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { startAnvil } from "../../layers/Anvil.ts"
import { isAlive } from "../../src/platform/Processes.ts"
import { noisyLines, spawnApp, stopLeftoverApps, urlOf } from "./AppProcess.ts"

/**
 * Ctrl-C in a terminal sends SIGINT to the whole foreground process group, not just to the app. PostgreSQL and anvil
 * must not get it (they run in groups of their own): the app drains its services first, then stops them, printing
 * one line per step and no warning or stack, and exits 0.
 */
const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-quiet-stop-"))
afterEach(stopLeftoverApps)
afterAll(() => NodeFs.rmSync(dataDir, { recursive: true, force: true }))

const childrenOf = (pid: number): Array<number> => {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map(Number)
  } catch {
    return [] // pgrep exits 1 when nothing matches
  }
}

const stopLines = [
  "stopping: draining the services",
  "devnet: state saved, anvil stopped",
  `PostgreSQL stopped (data in ${NodePath.join(dataDir, "pg")})`,
  "stopped"
]

describe("a stop by signal to the whole process group (a terminal's Ctrl-C, an orchestrator's SIGTERM)", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal}: one line per step, no warning, no stack, children stopped, exit 0`, async () => {
      const app = spawnApp({ DATA_DIR: dataDir })
      await app.waitFor(/^ready: /m)
      const children = childrenOf(app.pid)
      expect(children.length).toBe(2) // postgres and anvil
      // The services are in use when the signal comes: the exchange holds its LISTEN connection, the indexer follows.
      expect((await fetch(`${urlOf(app.output(), "exchange")}/api/health`)).status).toBe(200)
      const before = app.output().length
      process.kill(-app.pid, signal)
      expect(await app.exited).toBe(0)
      const after = app.output().slice(before)
      expect(noisyLines(app.output())).toEqual([])
      const lines = after
        .trim()
        .split("\n")
        .map((line) => line.replace(/^\[[^\]]*\] INFO \(#\d+\): /, ""))
      expect([...lines].sort()).toEqual([...stopLines].sort())
      expect(lines.at(0)).toBe("stopping: draining the services")
      expect(lines.at(-1)).toBe("stopped")
      expect(children.filter(isAlive)).toEqual([])
    }, 120_000)
  }

  it("SIGINT while PostgreSQL initialises: initdb finishes (a half-written data directory would not start), nothing is left", async () => {
    const fresh = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-quiet-stop-init-"))
    NodeFs.chmodSync(fresh, 0o755) // as root, PostgreSQL runs as `postgres`, which must reach DATA_DIR
    // A chain of its own (the seeded test devnet state), so that only PostgreSQL is being set up when the signal comes.
    const chain = await startAnvil({ dataDir: NodePath.join(fresh, "chain"), loadState: inject("devnetStateFile") })
    try {
      const app = spawnApp({
        DATA_DIR: NodePath.join(fresh, "data"),
        RPC_URL: chain.rpcUrl,
        DEPLOYMENTS_FILE: inject("devnetDeploymentsFile")
      })
      await app.waitFor(/initialising PostgreSQL data directory/)
      process.kill(-app.pid, "SIGINT")
      expect(await app.exited, app.output()).toBe(0)
      expect(noisyLines(app.output()), app.output()).toEqual([])
      expect(running(fresh), app.output()).toBe("")
      expect(NodeFs.existsSync(NodePath.join(fresh, "data", "pg", "global", "pg_control"))).toBe(true)
      expect(NodeFs.readdirSync(NodePath.join(fresh, "data")).filter((f) => f.startsWith(".pg-password"))).toEqual([])
    } finally {
      await chain.stop()
      NodeFs.rmSync(fresh, { recursive: true, force: true })
    }
  }, 120_000)
})

/** Processes whose command line mentions `dir` (initdb, postgres, anvil). */
const running = (dir: string) => {
  try {
    return execFileSync("pgrep", ["-af", dir], { encoding: "utf8" }).trim()
  } catch {
    return "" // pgrep exits 1 when nothing matches
  }
}
