import { mainThreadCpu, treeCpu, treeCpuSince } from "./cpu.ts"
import type { ProfileWindow } from "./profile-summary.ts"

/**
 * How the CPU of a measured run split between the processes that did it: the app (its Node process), the PostgreSQL
 * it embeds (postmaster and backends), anvil, and this process (the load generator: fetch or autocannon). On a shared
 * machine wall time mostly measures waiting for a core; CPU time per request measures the work, and gives the rate the
 * cores could sustain (`ceiling`).
 */
export interface CpuSplit {
  /** CPU seconds by process: `app`, `postgres`, `anvil`, `load generator`. */
  readonly seconds: ReadonlyMap<string, number>
  /** CPU seconds of the app's main thread alone (part of `app`): the thread every request's JavaScript runs on. */
  readonly appMainThread: number
  readonly requests: number
  readonly wallSeconds: number
  /** On the app's profile clock, to keep its samples of this run only. */
  readonly window: ProfileWindow
}

const now = () => process.hrtime.bigint() / 1000n
const selfSeconds = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

/** Runs `work` (which sends `requests` requests to the app `appPid`) and measures the CPU each process spent. */
export const measureCpuSplit = async <A>(
  appPid: number,
  requests: (a: A) => number,
  work: () => Promise<A>
): Promise<{ readonly result: A; readonly split: CpuSplit }> => {
  const tree = treeCpu(appPid)
  const main = mainThreadCpu(appPid)
  const self = selfSeconds()
  const fromMicros = now()
  const t0 = performance.now()
  const result = await work()
  const wallSeconds = (performance.now() - t0) / 1000
  const toMicros = now()
  const load = selfSeconds() - self
  const grown = treeCpuSince(appPid, tree)
  const appMainThread = Math.max(0, mainThreadCpu(appPid) - main)
  const seconds = new Map<string, number>([
    ["app", grown.get("root") ?? 0],
    ["postgres", grown.get("postgres") ?? 0],
    ["anvil", grown.get("anvil") ?? 0],
    ["load generator", load]
  ])
  return {
    result,
    split: { seconds, appMainThread, requests: requests(result), wallSeconds, window: { fromMicros, toMicros } }
  }
}

/** The sum of several runs' splits (e.g. the rounds of one configuration). */
export const addSplits = (splits: ReadonlyArray<CpuSplit>): Omit<CpuSplit, "window"> => {
  const seconds = new Map<string, number>()
  for (const s of splits) for (const [k, v] of s.seconds) seconds.set(k, (seconds.get(k) ?? 0) + v)
  return {
    seconds,
    appMainThread: splits.reduce((n, s) => n + s.appMainThread, 0),
    requests: splits.reduce((n, s) => n + s.requests, 0),
    wallSeconds: splits.reduce((n, s) => n + s.wallSeconds, 0)
  }
}

/**
 * Lines: CPU ms per request of each process and its share, then the ceilings on `cores` cores: the app's Node
 * process runs JavaScript on one thread, so it alone allows 1000 / (its main thread's ms) per second; all the
 * processes together allow cores × 1000 / total ms (with the load generator, as in this run, and without it, as with clients elsewhere).
 * With `idle` (the same processes measured with no request), each process's background CPU at that rate over the
 * run's wall time (the app's timers and state dumps, anvil's, PostgreSQL's writers) is taken off first: at a low
 * request rate it would otherwise be charged to the few requests.
 */
export const describeCpuSplit = (
  split: Omit<CpuSplit, "window">,
  cores: number,
  idle?: Omit<CpuSplit, "window">
): Array<string> => {
  const background = (name: string) =>
    idle === undefined ? 0 : ((idle.seconds.get(name) ?? 0) / Math.max(idle.wallSeconds, 1e-9)) * split.wallSeconds
  const net = new Map([...split.seconds].map(([name, s]) => [name, Math.max(0, s - background(name))]))
  const perRequest = (s: number) => (1000 * s) / Math.max(1, split.requests)
  const total = [...net.values()].reduce((a, b) => a + b, 0)
  const lines = [...split.seconds]
    .filter(([, s]) => s > 0)
    .map(
      ([name, s]) =>
        `  ${name.padEnd(16)} ${s.toFixed(2).padStart(7)} s CPU${idle === undefined ? "" : ` (idle rate ${background(name).toFixed(2)} s)`}` +
        ` ${perRequest(net.get(name)!).toFixed(3).padStart(8)} ms per request ${((100 * net.get(name)!) / Math.max(total, 1e-9)).toFixed(0).padStart(4)} %`
    )
  // The thread's ceiling is its own CPU's: the app's total also counts its worker threads (the sign-in's signer
  // recovery, SignerRecovery.ts) and libuv's pool, which run on the other core.
  const mainBackground =
    idle === undefined ? 0 : (idle.appMainThread / Math.max(idle.wallSeconds, 1e-9)) * split.wallSeconds
  const mainThread = split.appMainThread > 0 ? perRequest(Math.max(0, split.appMainThread - mainBackground)) : undefined
  const app = perRequest(net.get("app") ?? 0)
  const thread = mainThread ?? app
  const server = app + perRequest(net.get("postgres") ?? 0)
  const all = perRequest(total)
  const rate = (ms: number) => Math.round(1000 / Math.max(ms, 1e-9))
  const alone = Math.min(rate(thread), cores * rate(server))
  const shared = Math.min(rate(thread), cores * rate(all))
  return [
    `CPU split over ${split.requests} requests, ${split.wallSeconds.toFixed(1)} s wall (${cores} cores)` +
      `${idle === undefined ? "" : ", net of each process's idle CPU rate"}:`,
    ...lines,
    ...(mainThread === undefined
      ? []
      : [`    of which the app's main thread ${mainThread.toFixed(3).padStart(8)} ms per request`]),
    `  ceiling: app's main thread ${rate(thread)}/s, ${cores} cores over app + PostgreSQL ${cores * rate(server)}/s, over all ` +
      `three ${cores * rate(all)}/s: ${alone}/s with the clients elsewhere, ${shared}/s with this load generator ` +
      `beside them (measured ${Math.round(split.requests / split.wallSeconds)}/s)`
  ]
}
