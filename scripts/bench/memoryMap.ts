import * as NodeFs from "node:fs"

/**
 * Where a process's resident memory is, from /proc/PID/smaps (Linux): what `process.memoryUsage()` cannot tell apart.
 * - `mainArena`: glibc malloc's main arena (`[heap]`, the main thread's malloc).
 * - `threadArenas`: glibc's other arenas, one per thread that mallocs (up to 8 per core, or MALLOC_ARENA_MAX): each
 *   a 64 MiB reservation aligned to 64 MiB, its used part read-write and the rest inaccessible.
 * - `otherAnonymous`: every other private anonymous mapping: V8's heap pages and code, malloc's large (mmap'd)
 *   blocks, thread stacks.
 * - `files`: mapped files (node's own code, shared libraries).
 */
export interface MemoryMap {
  readonly rss: number
  readonly mainArena: number
  readonly threadArenas: number
  readonly threadArenaCount: number
  readonly otherAnonymous: number
  readonly files: number
}

const ARENA = 64 * 1024 * 1024

interface Mapping {
  readonly start: number
  readonly end: number
  readonly perms: string
  readonly name: string
  rss: number
}

const mappingsOf = (text: string) => {
  const mappings: Array<Mapping> = []
  for (const line of text.split("\n")) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \d+\s*(.*)$/u.exec(line)
    if (header !== null) {
      mappings.push({
        start: Number.parseInt(header[1]!, 16),
        end: Number.parseInt(header[2]!, 16),
        perms: header[3]!,
        name: header[4]!,
        rss: 0
      })
      continue
    }
    const rss = /^Rss:\s+(\d+) kB/u.exec(line)
    if (rss !== null && mappings.length > 0) mappings.at(-1)!.rss = Number(rss[1]) * 1024
  }
  return mappings
}

/** A glibc arena: starts on a 64 MiB boundary and, with the inaccessible mapping after it, spans exactly 64 MiB. */
const isThreadArena = (m: Mapping, next: Mapping | undefined) =>
  m.name === "" &&
  m.perms.startsWith("rw") &&
  m.start % ARENA === 0 &&
  (m.end - m.start === ARENA ||
    (next !== undefined &&
      next.name === "" &&
      next.perms === "---p" &&
      next.start === m.end &&
      next.end === m.start + ARENA))

export const memoryMapOf = (pid: number): MemoryMap | undefined => {
  let text: string
  try {
    text = NodeFs.readFileSync(`/proc/${pid}/smaps`, "utf8")
  } catch {
    return undefined
  }
  const mappings = mappingsOf(text)
  let rss = 0
  let mainArena = 0
  let threadArenas = 0
  let threadArenaCount = 0
  let otherAnonymous = 0
  let files = 0
  mappings.forEach((m, i) => {
    rss += m.rss
    if (m.name === "[heap]") mainArena += m.rss
    else if (isThreadArena(m, mappings[i + 1])) {
      threadArenas += m.rss
      threadArenaCount++
    } else if (m.name.startsWith("/")) files += m.rss
    else otherAnonymous += m.rss
  })
  return { rss, mainArena, threadArenas, threadArenaCount, otherAnonymous, files }
}
