import * as NodeFs from "node:fs"

/**
 * Reads a V8 `.cpuprofile` (`node --cpu-prof`) and says where the time went: self time by area (a package under
 * node_modules, a Node internal module, our own files under src/ or layers/, the garbage collector, idle) and the
 * heaviest frames. `windows` (microseconds on the monotonic clock, `process.hrtime.bigint() / 1000n` in any process of
 * the machine: V8's profile clock) keep only the samples of the runs, not the start-up or the shutdown.
 *
 * Run alone: `node scripts/bench/profile-summary.ts FILE.cpuprofile [top]`.
 */

interface ProfileNode {
  readonly id: number
  readonly callFrame: {
    readonly functionName: string
    readonly url: string
    readonly lineNumber: number
  }
  readonly children?: ReadonlyArray<number>
}

interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly startTime: number
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

export interface ProfileWindow {
  readonly fromMicros: bigint
  readonly toMicros: bigint
}

export interface ProfileSummary {
  /** Sampled time in the window, busy (not idle), milliseconds. */
  readonly busyMs: number
  readonly idleMs: number
  /** Self time by area, milliseconds, heaviest first. */
  readonly areas: ReadonlyArray<readonly [string, number]>
  /** Self time by frame (`function area:line`), milliseconds, heaviest first. */
  readonly frames: ReadonlyArray<readonly [string, number]>
  /** Self time by source file (`package/path` under node_modules), milliseconds, heaviest first. */
  readonly files: ReadonlyArray<readonly [string, number]>
}

/** Where a frame's code lives: `pkg` for node_modules (the innermost one), `node:x`, `ours src/...`, or V8's own. */
export const areaOf = (url: string, functionName: string): string => {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)"
  if (url.startsWith("node:internal/")) return url.split("/").slice(0, 2).join("/")
  if (url.startsWith("node:")) return url.split("/")[0]!
  const modules = url.lastIndexOf("/node_modules/")
  if (modules >= 0) {
    const rest = url.slice(modules + "/node_modules/".length).split("/")
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!
  }
  const ours = url.match(/\/(src|layers|scripts|workers)\/(.*)$/)
  return ours ? `ours ${ours[1]}/${ours[2]}` : url
}

/** A frame's file: under node_modules from the package's name on, else from src/, workers/ …, else the URL. */
export const fileOf = (url: string): string => {
  const modules = url.lastIndexOf("/node_modules/")
  if (modules >= 0) return url.slice(modules + "/node_modules/".length)
  return url.match(/\/((?:src|layers|scripts|workers)\/.*)$/)?.[1] ?? url
}

const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1])

export const summarizeProfile = (path: string, windows?: ReadonlyArray<ProfileWindow>): ProfileSummary => {
  const profile = JSON.parse(NodeFs.readFileSync(path, "utf8")) as Profile
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const areas = new Map<string, number>()
  const frames = new Map<string, number>()
  const files = new Map<string, number>()
  let busy = 0
  let idle = 0
  let at = BigInt(profile.startTime)
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0
    at += BigInt(delta)
    if (windows !== undefined && !windows.some((w) => at >= w.fromMicros && at <= w.toMicros)) return
    const frame = nodes.get(id)!.callFrame
    const ms = delta / 1000
    if (frame.functionName === "(idle)") {
      idle += ms
      return
    }
    busy += ms
    const area = areaOf(frame.url, frame.functionName)
    areas.set(area, (areas.get(area) ?? 0) + ms)
    const name = `${frame.functionName || "(anonymous)"} ${area}${frame.url === "" ? "" : `:${frame.lineNumber + 1}`}`
    frames.set(name, (frames.get(name) ?? 0) + ms)
    const file = frame.url === "" ? area : fileOf(frame.url)
    files.set(file, (files.get(file) ?? 0) + ms)
  })
  return { busyMs: busy, idleMs: idle, areas: sorted(areas), frames: sorted(frames), files: sorted(files) }
}

/** The `top` source files by self time, each with its share of the busy time. */
export const describeFiles = (summary: ProfileSummary, top = 20): Array<string> => [
  `top ${top} files (self time):`,
  ...summary.files
    .slice(0, top)
    .map(([file, ms]) => `  ${((100 * ms) / Math.max(summary.busyMs, 1e-9)).toFixed(1).padStart(5)} %  ${file}`)
]

/** The summary as lines: areas ≥ 1 % of the busy time, then the `top` frames, each with its share of the busy time. */
export const describeProfile = (summary: ProfileSummary, top = 15): Array<string> => {
  const share = (ms: number) => `${((100 * ms) / Math.max(summary.busyMs, 1e-9)).toFixed(1).padStart(5)} %`
  return [
    `busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms (the app's main thread)`,
    "self time by area:",
    ...summary.areas.filter(([, ms]) => ms >= summary.busyMs / 100).map(([area, ms]) => `  ${share(ms)}  ${area}`),
    `top ${top} frames (self time):`,
    ...summary.frames.slice(0, top).map(([frame, ms]) => `  ${share(ms)}  ${frame}`)
  ]
}

if (import.meta.main) {
  const [file, top] = process.argv.slice(2)
  if (file === undefined) {
    console.error("usage: node scripts/bench/profile-summary.ts FILE.cpuprofile [top]")
    process.exit(2)
  }
  for (const line of describeProfile(summarizeProfile(file), Number(top ?? 25))) console.log(line)
}
