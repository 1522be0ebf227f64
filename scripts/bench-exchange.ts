import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { buildApp, type Measurement, measure, spawnApp, startBareServer, stopApp } from "./bench/spawn.ts"

/**
 * `npm run bench:exchange`: GET /api/v1/tokens/{tokenId}, /api/v1/pools/list and /api/v1/pools/{poolId}/ticks of the
 * exchange service (built app, `--services exchange,indexer`, embedded Postgres and a freshly seeded devnet, per-IP
 * limit on with the Postgres store and a limit the load cannot reach) against a bare node:http server answering the
 * same body, in alternating rounds; then one round of each route with the fast lane off (EXCHANGE_FAST_LANE=false: cache
 * hits go through the Effect HttpApi pipeline) and one with the cache off (EXCHANGE_CACHE=false).
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_ROUNDS (default 3).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const load = (url: string) => measure(url, { connections, seconds })
const median = (runs: ReadonlyArray<Measurement>) =>
  [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!
const row = (name: string, r: Measurement) =>
  `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.errors).padStart(8)}`

const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-bench-exchange-"))
const env = {
  DATA_DIR: dataDir,
  EXCHANGE_PORT: "0",
  INDEXER_PORT: "0",
  EMBEDDED_PG_PORT: "0",
  DEVNET_PORT: "0",
  RATE_LIMIT_STORE: "postgres",
  RATE_LIMIT_EXCHANGE_PUBLIC_LIMIT: "1000000000"
}

const waitIndexed = async (base: string) => {
  for (let i = 0; i < 600; i++) {
    const s = (await (await fetch(`${base}/api/v1/indexer/status`)).json()) as { ready: boolean }
    if (s.ready) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error("the indexer did not catch up")
}

buildApp()
try {
  console.log(
    `machine: ${NodeOs.cpus().length} cores, node ${process.version}; autocannon -c ${connections} -d ${seconds}, ${rounds} rounds`
  )
  console.log(
    `load average before: ${NodeOs.loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`
  )
  const routesOf = async (base: string) => {
    const pools = (await (await fetch(`${base}/api/v1/pools/list?sort=volume`)).json()) as {
      items: Array<{ poolId: string; launchpad: { token: string | null } }>
    }
    const launchPool = pools.items.find((p) => p.launchpad.token !== null)!
    return [
      `/api/v1/tokens/${launchPool.launchpad.token}-31337`,
      "/api/v1/pools/list",
      `/api/v1/pools/${launchPool.poolId}/ticks`
    ]
  }

  const app = await spawnApp(env, ["--services", "exchange,indexer"])
  const base = app.urls.get("exchange")!
  await waitIndexed(base)
  const paths = await routesOf(base)
  const results: Array<{
    path: string
    bytes: number
    fire: Measurement
    bare: Measurement
    fireRuns: Array<Measurement>
    bareRuns: Array<Measurement>
  }> = []
  for (const path of paths) {
    const body = await (await fetch(`${base}${path}`)).text()
    const bare = await startBareServer(body, path)
    const fireRuns: Array<Measurement> = []
    const bareRuns: Array<Measurement> = []
    for (let round = 0; round < rounds; round++) {
      fireRuns.push(await load(`${base}${path}`))
      bareRuns.push(await load(bare.url))
    }
    bare.stop()
    results.push({
      path,
      bytes: Buffer.byteLength(body),
      fire: median(fireRuns),
      bare: median(bareRuns),
      fireRuns,
      bareRuns
    })
  }
  await stopApp(app.child)

  // The same routes with the fast lane off (cache hits through the Effect pipeline) and with the cache off (every
  // request reads Postgres): one round each, for comparison.
  const oneRound = async (extra: Record<string, string>) => {
    const other = await spawnApp({ ...env, ...extra }, ["--services", "exchange,indexer"])
    const otherBase = other.urls.get("exchange")!
    await waitIndexed(otherBase)
    const measured = new Map<string, Measurement>()
    for (const path of paths) measured.set(path, await load(`${otherBase}${path}`))
    await stopApp(other.child)
    return measured
  }
  const laneOff = await oneRound({ EXCHANGE_FAST_LANE: "false" })
  const uncached = await oneRound({ EXCHANGE_CACHE: "false" })

  console.log(
    `load average after: ${NodeOs.loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`
  )
  for (const r of results) {
    console.log(`\nGET ${r.path} (${r.bytes} bytes)`)
    console.log(
      `rounds (req/s): fire ${r.fireRuns.map((x) => x.rps.toFixed(0)).join(", ")} | bare ${r.bareRuns.map((x) => x.rps.toFixed(0)).join(", ")}`
    )
    console.log(
      `${"".padEnd(34)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"errors".padStart(8)}`
    )
    console.log(row("fire-api exchange (cache on)", r.fire))
    console.log(row("bare node:http (same body)", r.bare))
    console.log(row("fire-api exchange (fast lane off)", laneOff.get(r.path)!))
    console.log(row("fire-api exchange (cache off)", uncached.get(r.path)!))
    console.log(
      `ratio fire/bare req/s: ${(r.fire.rps / r.bare.rps).toFixed(2)} (target >= 0.5); p99 ${r.fire.p99} ms (target <= 25)`
    )
  }
} finally {
  NodeFs.rmSync(dataDir, { recursive: true, force: true })
}
