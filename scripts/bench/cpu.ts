/**
 * CPU time of this process and of the servers it spawned (PostgreSQL with its backends, anvil), read from /proc, so a
 * benchmark on a shared machine can report CPU seconds per event next to wall time: under load, wall time mostly
 * measures waiting for a core, while CPU time measures the work.
 *
 * PostgreSQL: the postmaster (a child of this process) and its children (backends, writer, WAL writer, checkpointer),
 * plus the time of children that already exited (the postmaster's cutime/cstime). Linux only; elsewhere the server
 * figures are null.
 */
import { execFileSync } from "node:child_process"
import * as NodeFs from "node:fs"

export interface CpuSnapshot {
  /** This process, user + system, seconds. */
  readonly self: number
  readonly postgres: number | null
  readonly anvil: number | null
  /** Children of this process that exited and were waited for (e.g. a Ponder run), seconds. */
  readonly exitedChildren: number
}

/** The kernel's clock ticks per second (the unit of /proc's CPU times). */
export const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100
  } catch {
    return 100
  }
})()

interface ProcStat {
  readonly pid: number
  readonly comm: string
  readonly ppid: number
  /** utime + stime, ticks. */
  readonly own: number
  /** cutime + cstime (children already waited for), ticks. */
  readonly children: number
}

const readStat = (pid: string, file = `/proc/${pid}/stat`): ProcStat | undefined => {
  try {
    const text = NodeFs.readFileSync(file, "utf8")
    // comm is in parentheses and may contain spaces: split after the last ')'.
    const close = text.lastIndexOf(")")
    const comm = text.slice(text.indexOf("(") + 1, close)
    const f = text.slice(close + 2).split(" ")
    // f[0] = state (field 3), so field n is f[n - 3].
    return {
      pid: Number(pid),
      comm,
      ppid: Number(f[1]),
      own: Number(f[11]) + Number(f[12]),
      children: Number(f[13]) + Number(f[14])
    }
  } catch {
    return undefined
  }
}

const allStats = (): Array<ProcStat> => {
  try {
    return NodeFs.readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .flatMap((d) => readStat(d) ?? [])
  } catch {
    return []
  }
}

export const cpuSnapshot = (): CpuSnapshot => {
  const u = process.cpuUsage()
  const stats = allStats()
  const mine = stats.filter((s) => s.ppid === process.pid)
  const sum = (comm: string, withChildren: boolean): number | null => {
    const roots = mine.filter((s) => s.comm === comm)
    if (roots.length === 0) return null
    let ticks = 0
    for (const r of roots) {
      ticks += r.own + r.children
      if (withChildren) for (const c of stats) if (c.ppid === r.pid) ticks += c.own
    }
    return ticks / ticksPerSecond
  }
  const me = stats.find((s) => s.pid === process.pid)
  return {
    self: (u.user + u.system) / 1e6,
    postgres: sum("postgres", true),
    anvil: sum("anvil", false),
    exitedChildren: (me?.children ?? 0) / ticksPerSecond
  }
}

export type CpuUsed = CpuSnapshot

export const cpuSince = (before: CpuSnapshot): CpuUsed => {
  const now = cpuSnapshot()
  const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.max(0, a - b))
  return {
    self: now.self - before.self,
    postgres: diff(now.postgres, before.postgres),
    anvil: diff(now.anvil, before.anvil),
    exitedChildren: now.exitedChildren - before.exitedChildren
  }
}

/**
 * One line: CPU seconds of the indexer process and of PostgreSQL, per 100k events, and the events per CPU second
 * (indexer + PostgreSQL: what the backfill costs, whatever else runs on the machine). Anvil serves the RPC and is shown
 * apart (it is the chain node, not part of the indexer).
 */
export const describeCpu = (used: CpuUsed, events: number, seconds: number): string => {
  const per100k = (s: number) => ((s * 100_000) / Math.max(1, events)).toFixed(2)
  const pg = used.postgres ?? 0
  const total = used.self + pg
  return [
    `CPU: indexer process ${used.self.toFixed(2)} s (${per100k(used.self)} s per 100k events)`,
    `PostgreSQL ${used.postgres === null ? "n/a" : `${pg.toFixed(2)} s (${per100k(pg)} s per 100k)`}`,
    `together ${total.toFixed(2)} s = ${per100k(total)} s per 100k events = ${Math.round(events / Math.max(total, 0.001))} events per CPU-second`,
    `anvil (RPC, not counted) ${used.anvil === null ? "n/a" : `${used.anvil.toFixed(2)} s`}`,
    `wall ${seconds.toFixed(2)} s = ${Math.round(events / seconds)} events/s`
  ].join("; ")
}

/**
 * CPU seconds (user + system) of process `pid` and of its descendants, by role: `root` is `pid` itself, the others are
 * keyed by command name (`postgres`: the postmaster, its backends and the backends that already exited; `anvil`).
 * A benchmark reads it before and after a run (`treeCpuSince`) to say how the CPU split between the app and the
 * servers it spawned. Linux only; elsewhere empty.
 */
export const treeCpu = (pid: number): Map<string, number> => {
  const stats = allStats()
  const byParent = new Map<number, Array<ProcStat>>()
  for (const s of stats) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), s])
  const out = new Map<string, number>()
  const add = (key: string, ticks: number) => out.set(key, (out.get(key) ?? 0) + ticks / ticksPerSecond)
  const root = stats.find((s) => s.pid === pid)
  if (root === undefined) return out
  add("root", root.own)
  const walk = (parent: number) => {
    for (const child of byParent.get(parent) ?? []) {
      add(child.comm, child.own + child.children)
      walk(child.pid)
    }
  }
  walk(pid)
  return out
}

/** What `treeCpu(pid)` grew by since `before`, by the same keys. */
export const treeCpuSince = (pid: number, before: Map<string, number>): Map<string, number> => {
  const now = treeCpu(pid)
  const out = new Map<string, number>()
  for (const [key, seconds] of now) out.set(key, Math.max(0, seconds - (before.get(key) ?? 0)))
  return out
}

/**
 * CPU seconds of the main thread of process `pid` (its thread id is the pid): for a Node process, the thread that
 * runs its JavaScript, without its worker threads, libuv's pool or V8's helpers. Linux only; elsewhere 0.
 */
export const mainThreadCpu = (pid: number): number => {
  const stat = readStat(String(pid), `/proc/${pid}/task/${pid}/stat`)
  return stat === undefined ? 0 : stat.own / ticksPerSecond
}
