import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { buildApp, measure, spawnApp, startBareServer, stopApp } from "./bench/spawn.ts"

/**
 * `npm run bench:http`: GET /healthz of the client service vs a bare node:http server answering the same body,
 * both in their own process, loaded by autocannon from this one (same machine, same settings). Then the time from
 * start to the ready line, cold (empty DATA_DIR) and warm.
 * The figures are the median round of BENCH_ROUNDS (default 3) alternating rounds.
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_ROUNDS (default 3).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)

const load = (url: string) => measure(url, { connections, seconds })

const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-bench-http-"))
const env = {
  DATA_DIR: dataDir,
  CLIENT_PORT: "0",
  EXCHANGE_PORT: "0",
  SEARCH_PORT: "0",
  INDEXER_PORT: "0",
  EMBEDDED_PG_PORT: "0",
  DEVNET_PORT: "0"
}

buildApp()
try {
  console.log(
    `machine: ${NodeOs.cpus().length} cores, node ${process.version}; autocannon -c ${connections} -d ${seconds}, ${rounds} rounds`
  )
  console.log(`database: ${process.env.DATABASE_URL ? "DATABASE_URL" : "embedded PostgreSQL"}`)

  // Start-up: cold first (initialises the data dir), then warm three times.
  const cold = await spawnApp(env)
  await stopApp(cold.child)
  const warm: Array<number> = []
  for (let i = 0; i < 3; i++) {
    const app = await spawnApp(env)
    warm.push(app.readyMs)
    await stopApp(app.child)
  }
  warm.sort((a, b) => a - b)

  // Both servers stay up; rounds alternate between them so that drift in the machine's load hits both alike.
  const app = await spawnApp(env, ["--services", "client"])
  const healthUrl = `${app.urls.get("client")}/healthz`
  const body = await (await fetch(healthUrl)).text()
  const bare = await startBareServer(body, "/healthz")
  const fireRuns: Array<Awaited<ReturnType<typeof load>>> = []
  const bareRuns: Array<Awaited<ReturnType<typeof load>>> = []
  for (let round = 0; round < rounds; round++) {
    fireRuns.push(await load(healthUrl))
    bareRuns.push(await load(bare.url))
  }
  await stopApp(app.child)
  bare.stop()
  const median = (runs: typeof fireRuns) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!
  const fire = median(fireRuns)
  const base = median(bareRuns)
  console.log(
    `rounds (req/s): fire ${fireRuns.map((r) => r.rps.toFixed(0)).join(", ")} | bare ${bareRuns.map((r) => r.rps.toFixed(0)).join(", ")}`
  )

  const row = (name: string, r: typeof fire) =>
    `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.errors).padStart(8)}`
  console.log(
    `\n${"GET /healthz".padEnd(28)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"errors".padStart(8)}`
  )
  console.log(row("fire-api client (Effect)", fire))
  console.log(row("bare node:http (baseline)", base))
  console.log(`ratio fire/bare req/s: ${(fire.rps / base.rps).toFixed(2)} (target >= 0.5)`)
  console.log(
    `\nstart to ready: cold ${cold.readyMs.toFixed(0)} ms (empty DATA_DIR), warm median ${warm[1]!.toFixed(0)} ms (${warm.map((w) => w.toFixed(0)).join(", ")})`
  )
} finally {
  NodeFs.rmSync(dataDir, { recursive: true, force: true })
}
