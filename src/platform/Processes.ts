import * as NodeFs from "node:fs"

/** Whether a process with this pid exists (signal 0 checks without delivering anything). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The command name of a live process (`/proc/<pid>/comm`), or undefined when there is none (or no /proc). */
export const commandOf = (pid: number): string | undefined => {
  try {
    return NodeFs.readFileSync(`/proc/${pid}/comm`, "utf8").trim()
  } catch {
    return undefined
  }
}
