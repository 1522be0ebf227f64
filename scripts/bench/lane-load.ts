import { type CpuSplit, measureCpuSplit } from "./cpu-split.ts"
import { measure, type Measurement } from "./spawn.ts"

/**
 * One autocannon run against `url` (after its warm-up, not counted) with the CPU each process spent on the measured
 * part (scripts/bench/cpu-split.ts): `serverPid` is the app or the bare server. The per-request CPU of the server is
 * the figure that holds under load, where req/s mostly measures waiting for a core.
 */
export const measureWithCpu = async (
  url: string,
  serverPid: number,
  options: Parameters<typeof measure>[1]
): Promise<{ readonly measurement: Measurement; readonly split: CpuSplit }> => {
  const warmupSeconds = options.warmupSeconds ?? 2
  if (warmupSeconds > 0) await measure(url, { ...options, seconds: warmupSeconds, warmupSeconds: 0 })
  const { result, split } = await measureCpuSplit(
    serverPid,
    (m: Measurement) => m.total,
    () => measure(url, { ...options, warmupSeconds: 0 })
  )
  return { measurement: result, split }
}

/** The app's background CPU rate (timers, its indexer…) over `ms` with no request, seconds of CPU per second. */
export const idleCpuRate = async (pid: number, ms = 3_000) => {
  const { split } = await measureCpuSplit(
    pid,
    () => 0,
    () => new Promise((resolve) => setTimeout(resolve, ms))
  )
  return (split.seconds.get("app") ?? 0) / split.wallSeconds
}

/** Milliseconds of a process's CPU per request in a run, less `idleRate` (CPU s/s) over the run's wall time. */
export const cpuPerRequest = (split: CpuSplit, process: "app" | "load generator", idleRate = 0) =>
  (1000 * Math.max(0, (split.seconds.get(process) ?? 0) - idleRate * split.wallSeconds)) / Math.max(1, split.requests)

/**
 * `  CPU per request: server 0.062 ms (bare 0.035, 1.8×); load generator 0.041 ms (bare 0.033)`: what the server
 * process and autocannon spent per answered request, the lane's run beside the bare server's.
 */
export const cpuLine = (lane: CpuSplit, bare: CpuSplit, laneIdleRate: number) => {
  const app = cpuPerRequest(lane, "app", laneIdleRate)
  const server = cpuPerRequest(bare, "app")
  return (
    `  CPU per request: server ${app.toFixed(3)} ms (bare ${server.toFixed(3)}, ${(app / server).toFixed(2)}×); ` +
    `load generator ${cpuPerRequest(lane, "load generator").toFixed(3)} ms (bare ${cpuPerRequest(bare, "load generator").toFixed(3)})`
  )
}
