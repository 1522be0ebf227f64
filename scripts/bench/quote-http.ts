/**
 * HTTP part of `npm run bench:quotes`: `GET /api/v1/quote` throughput of the built app (`--services exchange,indexer`,
 * its own embedded PostgreSQL and seeded devnet, as `npm start` runs it) under autocannon at `connections`
 * connections, cycling through quotes of every launch pool (buy exactIn, sell exactOut, two sizes each). No partner
 * key is configured (every request passes, as in local development); the per-IP, per-key and open per-IP limits are
 * set out of reach. Answers null when the app has no quote routes yet.
 * `profile`: the apps run under `node --cpu-prof` and the profile of each of their threads is summarised over its
 * app's measured rounds only (scripts/bench/profile-summary.ts), with the busy time per quote answered.
 */
import autocannon from "autocannon"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { ticksPerSecond } from "./cpu.ts"
import { describeFiles, describeProfile, type ProfileWindow, summarizeProfile } from "./profile-summary.ts"
import { buildApp, spawnApp, stopApp } from "./spawn.ts"

export interface HttpFigures {
  readonly paths: number
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  readonly non2xx: number
  /** Answers by HTTP status, e.g. `200: 2710, 500: 24`. */
  readonly statuses: string
  /** Requests answered in the measured seconds. */
  readonly total: number
  /**
   * CPU time per request answered in the measured seconds, µs (Linux /proc; null elsewhere): of the app's main thread,
   * and of the whole app process (worker threads included). Under load wall-clock rates mostly measure waiting for a
   * core; CPU per request measures the work.
   */
  readonly cpuUs: { readonly main: number; readonly process: number } | null
  /** The measured seconds on V8's profile clock (microseconds). */
  readonly window: ProfileWindow
}

const RECIPIENT = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"

const waitIndexed = async (base: string) => {
  for (let i = 0; i < 1200; i++) {
    const s = (await (await fetch(`${base}/api/v1/indexer/status`)).json()) as { ready: boolean }
    if (s.ready) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error("the indexer did not catch up")
}

interface PoolItem {
  readonly token0: { address: string }
  readonly token1: { address: string }
  readonly launchpad: { token: string | null }
}

const quotePaths = (pools: ReadonlyArray<PoolItem>): Array<string> =>
  pools
    .filter((p) => p.launchpad.token !== null)
    .flatMap((p) => {
      const token = p.launchpad.token!
      const weth = p.token0.address.toLowerCase() === token.toLowerCase() ? p.token1.address : p.token0.address
      const q = (tokenIn: string, tokenOut: string, amount: string, type: string) =>
        `/api/v1/quote?${new URLSearchParams({ chainId: "31337", tokenInAddress: tokenIn, tokenOutAddress: tokenOut, amount, type, recipient: RECIPIENT })}`
      return [
        q(weth, token, "1000000000000000", "exactIn"),
        q(weth, token, "20000000000000000", "exactIn"),
        q(token, weth, "1000000000000000", "exactOut"),
        q(token, weth, "5000000000000000", "exactOut")
      ]
    })

/** One app under test: its base URL, the quote requests it answers, and how to stop it. */
const startQuoteApp = async (
  log: (line: string) => void,
  encoder: "viem" | "sdk",
  nodeArgs: ReadonlyArray<string> = [],
  appRoot?: string
) => {
  const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-bench-quotes-"))
  const app = await spawnApp(
    {
      DATA_DIR: dataDir,
      EXCHANGE_PORT: "0",
      INDEXER_PORT: "0",
      EMBEDDED_PG_PORT: "0",
      DEVNET_PORT: "0",
      RATE_LIMIT_STORE: "memory",
      RATE_LIMIT_EXCHANGE_PUBLIC_LIMIT: "1000000000",
      QUOTE_RATE_LIMIT: "1000000000",
      // No partner key: the routes run open (QUOTE_OPEN), whose per-IP window would answer 429 after 60 requests.
      QUOTE_OPEN_RATE_LIMIT: "1000000000",
      QUOTE_CALLDATA_ENCODER: encoder
    },
    ["--services", "exchange,indexer"],
    nodeArgs,
    appRoot
  )
  const stop = async () => {
    await stopApp(app.child)
    NodeFs.rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    const base = app.urls.get("exchange")!
    await waitIndexed(base)
    if ((await fetch(`${base}/api/v1/quote/tokens?chainId=31337`)).status === 404)
      return { base, paths: null, pid: app.child.pid, stop }
    const pools = (await (await fetch(`${base}/api/v1/pools/list?limit=100`)).json()) as { items: Array<PoolItem> }
    const paths: Array<string> = []
    for (const path of quotePaths(pools.items)) {
      const r = await fetch(`${base}${path}`)
      if (r.status === 200) paths.push(path)
      else log(`  HTTP (${encoder}): left out (${r.status} ${(await r.text()).slice(0, 120)}): ${path}`)
    }
    if (paths.length === 0) throw new Error("no quote request answered 200")
    return { base, paths, pid: app.child.pid, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** CPU ticks (user + system) of a process's main thread and of the whole process, from /proc; null if unreadable. */
const cpuTicks = (pid: number | undefined) => {
  const ticksOf = (path: string) => {
    const text = NodeFs.readFileSync(path, "utf8")
    const f = text.slice(text.lastIndexOf(")") + 2).split(" ")
    return Number(f[11]) + Number(f[12])
  }
  try {
    return pid === undefined
      ? null
      : { main: ticksOf(`/proc/${pid}/task/${pid}/stat`), process: ticksOf(`/proc/${pid}/stat`) }
  } catch {
    return null
  }
}

const load = async (
  app: { readonly base: string; readonly paths: ReadonlyArray<string> | null; readonly pid: number | undefined },
  connections: number,
  seconds: number
) => {
  const { base } = app
  const requests = app.paths!.map((path) => ({ method: "GET" as const, path }))
  await autocannon({ url: base, connections, duration: 2, requests }) // warm-up: JIT, workers, caches
  const fromMicros = process.hrtime.bigint() / 1000n
  const cpuBefore = cpuTicks(app.pid)
  const r = await autocannon({ url: base, connections, duration: seconds, requests })
  const cpuAfter = cpuTicks(app.pid)
  const toMicros = process.hrtime.bigint() / 1000n
  const perRequestUs = (ticks: number) => (1e6 * ticks) / ticksPerSecond / Math.max(1, r.requests.total)
  return {
    total: r.requests.total,
    cpuUs:
      cpuBefore === null || cpuAfter === null
        ? null
        : {
            main: perRequestUs(cpuAfter.main - cpuBefore.main),
            process: perRequestUs(cpuAfter.process - cpuBefore.process)
          },
    window: { fromMicros, toMicros },
    paths: requests.length,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    statuses: Object.entries(r.statusCodeStats ?? {})
      .map(([code, stat]) => `${code}: ${stat.count}`)
      .join(", ")
  }
}

/** Threads' profiles of a `--cpu-prof` run (`CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile`; thread 0 is the main). */
const describeThreads = (dir: string, windows: ReadonlyArray<ProfileWindow>, quotes: number): Array<string> => {
  const files = NodeFs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))
  const threadOf = (f: string) => Number(f.split(".")[4])
  const perQuote = (ms: number) => `${((1000 * ms) / Math.max(quotes, 1)).toFixed(0)} µs per quote`
  const lines: Array<string> = [`profiles in ${dir} over the measured rounds (${quotes} quotes answered):`]
  for (const file of files.sort((a, b) => threadOf(a) - threadOf(b))) {
    const summary = summarizeProfile(NodePath.join(dir, file), windows)
    const thread = threadOf(file) === 0 ? "main thread" : `thread ${threadOf(file)}`
    lines.push(`${thread}: busy ${perQuote(summary.busyMs)}`)
    const main = threadOf(file) === 0
    if (summary.busyMs > 0)
      lines.push(
        ...[...describeProfile(summary, main ? 40 : 12), ...describeFiles(summary, main ? 30 : 8)].map((l) => `  ${l}`)
      )
  }
  return lines
}

/**
 * The app with the calldata encoded by viem (the default), and, when `baseline` is set, a second app measured in
 * alternating rounds in the same run: QUOTE_CALLDATA_ENCODER=sdk (the Uniswap SDKs, the previous path), or, with
 * `baselineRoot`, the build of another checkout (e.g. the commit before a change, built in its own directory) with
 * the default encoder. Each list holds one figure per round; `profile` holds the summary lines when asked for.
 */
export const benchQuoteHttp = async (
  log: (line: string) => void,
  options: {
    connections: number
    seconds: number
    rounds: number
    baseline: boolean
    baselineRoot?: string | undefined
    profile?: boolean | undefined
  }
): Promise<{ viem: Array<HttpFigures>; sdk: Array<HttpFigures>; profile: Array<string> } | null> => {
  buildApp()
  const profileDirs = (options.profile === true ? ["measured", "baseline"] : []).map((name) =>
    NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), `fire-bench-quotes-prof-${name}-`))
  )
  const profileArgs = (i: number) =>
    profileDirs[i] === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDirs[i]}`]
  const apps = [await startQuoteApp(log, "viem", profileArgs(0))]
  const out = { viem: [] as Array<HttpFigures>, sdk: [] as Array<HttpFigures>, profile: [] as Array<string> }
  try {
    if (options.baseline)
      apps.push(
        options.baselineRoot === undefined
          ? await startQuoteApp(log, "sdk", profileArgs(1))
          : await startQuoteApp(log, "viem", profileArgs(1), options.baselineRoot)
      )
    if (apps.some((a) => a.paths === null)) return null
    for (let round = 0; round < options.rounds; round++) {
      out.viem.push(await load(apps[0]!, options.connections, options.seconds))
      if (apps[1] !== undefined) out.sdk.push(await load(apps[1], options.connections, options.seconds))
    }
  } finally {
    // The profiles are written as the apps exit.
    for (const app of apps) await app.stop()
  }
  for (const [i, rounds] of [out.viem, out.sdk].entries()) {
    if (profileDirs[i] === undefined || rounds.length === 0) continue
    out.profile.push(`${i === 0 ? "measured app" : "baseline app"}:`)
    out.profile.push(
      ...describeThreads(
        profileDirs[i],
        rounds.map((r) => r.window),
        rounds.reduce((n, r) => n + r.total, 0)
      )
    )
  }
  return out
}
