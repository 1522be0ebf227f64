import * as NodeFs from "node:fs"

/**
 * CPU seconds a process has used (user + system, from /proc/<pid>/stat on Linux; undefined elsewhere). The app is one
 * process: what an attack cost it, refused or not, is the difference across the attack.
 */
export const cpuSecondsOf = (pid: number): number | undefined => {
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
