/**
 * `npm run bench:client`: the client API's anonymous public reads over HTTP (the built app, `--services client,indexer`,
 * embedded Postgres and a freshly seeded devnet), each beside a bare node:http server answering the same body in the
 * same run (scripts/bench/bare-server.ts): token detail `GET /v1/tokens/{mint}`, a token's comments, first page
 * `GET /v1/comments/tokens/{mint}`, the feed's first page `GET /v1/feed` and a public profile
 * `GET /v1/users/profile/address/{wallet}`. Before measuring, six wallets sign in, fill their profiles and write 24
 * comments (replies, mentions, likes) on the token through the API (scripts/bench/client-content.ts), so the comments
 * page is a full page of 20 with authors and the profile has a username, name and bio. All are served from the client
 * cache (src/client-api/ClientCache.ts) and its fast lane after their first answer. Prints req/s, p50/p99, the ratio to bare and the target (≥ 0.5, p99 ≤ 10 ms),
 * and the CPU per request of the app (net of its idle rate: the indexer polls the devnet) and of the bare server, with
 * autocannon's beside them (scripts/bench/lane-load.ts): under load, req/s mostly measures waiting for a core.
 * Env: BENCH_CONNECTIONS (50), BENCH_SECONDS (10); BENCH_PROFILE=1 runs the app under `--cpu-prof` and prints where
 * its main thread spent each route's measured run (scripts/bench/profile-summary.ts; the rates are then the profiled
 * app's).
 */
import { execFileSync } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { devnetFiles } from "./devnet/devnet.ts"
import type { ProfileWindow } from "./bench/profile-summary.ts"
import { describeProfile, summarizeProfile } from "./bench/profile-summary.ts"
import { cpuLine, idleCpuRate, measureWithCpu } from "./bench/lane-load.ts"
import { writeClientContent } from "./bench/client-content.ts"
import { buildApp, spawnApp, startBareServer, stopApp } from "./bench/spawn.ts"

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-bench-client-"))
NodeFs.chmodSync(dataDir, 0o755)
const env = {
  DATA_DIR: dataDir,
  CLIENT_PORT: "0",
  INDEXER_PORT: "0",
  EMBEDDED_PG_PORT: "0",
  DEVNET_PORT: "0",
  RATE_LIMIT_STORE: "postgres",
  RATE_LIMIT_CLIENT_IP_LIMIT: "1000000000"
}

const profileDir =
  process.env.BENCH_PROFILE === "1"
    ? NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-bench-client-prof-"))
    : undefined
const profileArgs =
  profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--cpu-prof-name=app.cpuprofile"]
const windows: Array<readonly [string, ProfileWindow]> = []

buildApp()
const app = await spawnApp(env, ["--services", "client,indexer"], profileArgs)
try {
  console.log(
    `machine: ${NodeOs.cpus().length} cores, node ${process.version}; autocannon -c ${connections} -d ${seconds}; load average ${NodeOs.loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`
  )
  const base = app.urls.get("client")!
  const deployments = JSON.parse(NodeFs.readFileSync(devnetFiles(dataDir).deploymentsFile, "utf8")) as {
    launches: ReadonlyArray<{ token: string; canonical: boolean }>
  }
  const token = deployments.launches.find((l) => l.canonical)!.token
  // The indexer indexes the seeded devnet after the ready line: wait until the token is there.
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/v1/tokens/${token}`)).status === 200) break
    if (i > 600) throw new Error("the token was not indexed within 60 s")
    await new Promise((r) => setTimeout(r, 100)) // polling a bench process we do not control; not a test
  }
  const content = await writeClientContent(base, token)
  const wallet = content.writers[0]!.account.address
  console.log(
    `content: ${content.writers.length} signed-in wallets with profiles, ${content.comments} comments on the token`
  )
  const paths = [
    `/v1/tokens/${token}`,
    `/v1/comments/tokens/${token}`,
    "/v1/feed",
    `/v1/users/profile/address/${wallet}`
  ]
  console.log(
    `\n${"anonymous read".padEnd(44)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"ratio".padStart(6)}`
  )
  const idleRate = await idleCpuRate(app.child.pid!)
  for (const path of paths) {
    const first = await fetch(`${base}${path}`)
    const body = await first.text()
    if (first.status !== 200) throw new Error(`GET ${path}: ${first.status} ${body}`)
    const lane = await measureWithCpu(`${base}${path}`, app.child.pid!, { connections, seconds })
    const bare = await startBareServer(body, path, { encodeOnce: true })
    const bareRun = await measureWithCpu(bare.url, bare.pid, { connections, seconds })
    bare.stop()
    const fire = lane.measurement
    const baseline = bareRun.measurement
    const ratio = fire.rps / baseline.rps
    const name = path.replace(token, "{mint}").replace(wallet, "{wallet}")
    windows.push([name, lane.split.window])
    console.log(
      `${`GET ${name}`.padEnd(44)} ${fire.rps.toFixed(0).padStart(8)} ${String(fire.p50).padStart(8)} ${String(fire.p99).padStart(8)} ${ratio.toFixed(2).padStart(6)}${fire.errors > 0 ? `  errors ${fire.errors}` : ""}`
    )
    console.log(
      `${`  bare node:http, same ${Buffer.byteLength(body)} bytes`.padEnd(44)} ${baseline.rps.toFixed(0).padStart(8)} ${String(baseline.p50).padStart(8)} ${String(baseline.p99).padStart(8)}`
    )
    console.log(cpuLine(lane.split, bareRun.split, idleRate))
    console.log(`  target ≥ 0.50 with p99 ≤ 10 ms: ${ratio >= 0.5 && fire.p99 <= 10 ? "meets" : "misses"}`)
  }
  console.log(`app's idle CPU (no request): ${(1000 * idleRate).toFixed(0)} ms/s, taken off its figures above`)
  console.log(
    `uptime: ${execFileSync("uptime").toString().trim()} (2 cores shared with other work: figures are upper bounds)`
  )
} finally {
  await stopApp(app.child)
  NodeFs.rmSync(dataDir, { recursive: true, force: true })
}
if (profileDir !== undefined) {
  const file = NodePath.join(profileDir, "app.cpuprofile")
  for (const [name, window] of windows) {
    console.log(`\nprofile (${file}) of the app's main thread, GET ${name}, measured run:`)
    for (const line of describeProfile(summarizeProfile(file, [window]), 25)) console.log(line)
  }
}
