import { afterAll, afterEach, describe, expect, it } from "vitest"
import { spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { lockFileOf, startTicksOf } from "../../layers/DataDirLock.ts"
import { commandOf, isAlive } from "../../src/platform/Processes.ts"
import { type AppProcess, exitOrReady, noisyLines, spawnApp, stopLeftoverApps, urlOf } from "./AppProcess.ts"

/**
 * One instance per DATA_DIR (layers/DataDirLock.ts), with real processes: a second start refuses in one line and
 * leaves the first untouched; a lock whose process was killed, or whose pid now belongs to another program, is taken
 * over, and only then are the children the dead instance left running stopped.
 */
const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-datadir-lock-"))
afterEach(stopLeftoverApps)
afterAll(() => NodeFs.rmSync(dataDir, { recursive: true, force: true }))

const childrenOf = (pid: number): Array<{ pid: number; name: string }> =>
  NodeFs.readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      const stat = NodeFs.readFileSync(`/proc/${entry}/stat`, "utf8")
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      return parent === pid ? [{ pid: Number(entry), name: commandOf(Number(entry)) ?? "" }] : []
    })

const stopGroup = async (app: AppProcess) => {
  process.kill(-app.pid, "SIGINT")
  return app.exited
}

const errorLines = (output: string) => output.split("\n").filter((line) => /\bERROR\b/.test(line))

describe("one instance per DATA_DIR", () => {
  it("a second start refuses with one line naming the holder and where it serves; the first keeps serving", async () => {
    const first = spawnApp({ DATA_DIR: dataDir })
    await first.waitFor(/^ready: /m)
    const children = childrenOf(first.pid)
    expect(children.map((c) => c.name).sort()).toEqual(["anvil", "postgres"])
    const client = urlOf(first.output(), "client")

    const second = spawnApp({ DATA_DIR: dataDir })
    expect(await exitOrReady(second)).toBe(1)
    expect(errorLines(second.output())).toEqual([
      expect.stringContaining(
        `DATA_DIR ${dataDir} is in use by fire-api pid ${first.pid} (serving client ${client}, exchange http://`
      )
    ])
    expect(noisyLines(second.output())).toHaveLength(1) // that line, no stack
    expect(second.output()).not.toMatch(/left running|initialising|devnet:/)

    expect((await fetch(`${client}/healthz`)).status).toBe(200)
    expect(children.filter((c) => isAlive(c.pid))).toEqual(children)
    expect(first.output()).not.toMatch(/stopping/)
    expect(await stopGroup(first)).toBe(0)
    expect(NodeFs.existsSync(lockFileOf(dataDir))).toBe(false)
  }, 180_000)

  it("the lock of a killed instance is taken over, and the children it left running are stopped", async () => {
    const first = spawnApp({ DATA_DIR: dataDir })
    await first.waitFor(/^ready: /m)
    const orphans = childrenOf(first.pid)
    process.kill(first.pid, "SIGKILL")
    await first.exited
    expect(orphans.filter((c) => isAlive(c.pid)).length).toBe(2)
    expect(JSON.parse(NodeFs.readFileSync(lockFileOf(dataDir), "utf8")).pid).toBe(first.pid)

    const second = spawnApp({ DATA_DIR: dataDir })
    await second.waitFor(/^ready: /m)
    expect(second.output()).toContain(`taking over the lock of pid ${first.pid}, which is gone`)
    expect(second.output()).toMatch(/stopping a PostgreSQL server \(pid \d+\) left running/)
    expect(second.output()).toMatch(/devnet: stopping an anvil \(pid \d+\) left running/)
    expect(orphans.filter((c) => isAlive(c.pid))).toEqual([])
    expect(await stopGroup(second)).toBe(0)
  }, 180_000)

  it("a lock whose pid now belongs to another program is taken over; with that program's start time it holds", async () => {
    const other = spawn("sleep", ["120"], { stdio: "ignore" })
    try {
      const lock = (startTicks: string) =>
        NodeFs.writeFileSync(
          lockFileOf(dataDir),
          JSON.stringify({
            pid: other.pid,
            startTicks,
            bootId: null,
            startedAt: "2026-01-01T00:00:00.000Z",
            serving: ["client http://127.0.0.1:1"]
          })
        )
      lock(startTicksOf(other.pid!)!)
      const refused = spawnApp({ DATA_DIR: dataDir })
      expect(await exitOrReady(refused)).toBe(1)
      expect(errorLines(refused.output())).toEqual([
        expect.stringContaining(`in use by fire-api pid ${other.pid} (serving client http://127.0.0.1:1`)
      ])

      lock("1") // the pid was reused: the program behind it started at another time than the lock's writer
      const app = spawnApp({ DATA_DIR: dataDir })
      await app.waitFor(/^ready: /m)
      expect(app.output()).toContain(`taking over the lock of pid ${other.pid}, which is gone`)
      expect(isAlive(other.pid!)).toBe(true)
      expect(noisyLines(app.output())).toEqual([])
      expect(await stopGroup(app)).toBe(0)
    } finally {
      other.kill()
    }
  }, 180_000)
})
