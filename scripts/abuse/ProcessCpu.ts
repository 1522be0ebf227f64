import * as NodeFs from "node:fs"

/**
 * CPU seconds a process has used (user + system, from /proc/<pid>/stat on Linux; undefined elsewhere). The app is one
 * process: what an attack cost it, refused or not, is the difference across the attack.
 */
export const cpuSecondsOf = (pid: number | string): number | undefined => {
  try {
    const stat = NodeFs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime is the
    // 14th field of the line, stime the 15th, in clock ticks (100 per second on Linux).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

/** CPU seconds of one thread of a process (/proc/<pid>/task/<tid>/stat): the bench's main thread, which attacks. */
export const threadCpuSecondsOf = (pid: number, tid: number): number | undefined => cpuSecondsOf(`${pid}/task/${tid}`)

/**
 * The machine's CPU seconds busy and in all, over every core (/proc/stat's first line, in ticks of 1/100 s): how
 * close the cores were to full while an attack ran, the app, PostgreSQL and the bench's own processes together.
 */
export const machineCpu = (): { busy: number; total: number } | undefined => {
  try {
    const line = NodeFs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!
    const ticks = line.trim().split(/\s+/u).slice(1).map(Number)
    const total = ticks.reduce((a, b) => a + b, 0)
    // idle and iowait are the 4th and 5th.
    return { busy: (total - ticks[3]! - (ticks[4] ?? 0)) / 100, total: total / 100 }
  } catch {
    return undefined
  }
}
