import { Result } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { recoverMessageAddress } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { recoverMessageSigner } from "../src/client-api/accounts/sessions/SignerRecovery.ts"
import { checkSiwePolicy } from "../src/client-api/accounts/sessions/SiwePolicy.ts"
import { parseSiweMessage } from "../src/client-api/accounts/sessions/SiweMessage.ts"
import { describeTail, opsPerSecond, postAll, postAllWithAutocannon, prepareSignIns } from "./bench/auth-load.ts"
import { addSplits, type CpuSplit, describeCpuSplit, measureCpuSplit } from "./bench/cpu-split.ts"
import { settledTransactions } from "./bench/pg-transactions.ts"
import { describeProfile, summarizeProfile } from "./bench/profile-summary.ts"
import { buildApp, freePort, measure, type Measurement, spawnApp, startBareServer, stopApp } from "./bench/spawn.ts"

/**
 * `npm run bench:auth`:
 *  1. EOA sign-in verification in-process (parse + policy + signature recovery): the CPU floor of one sign-in, with
 *     the server's recovery (tiny-secp256k1, WebAssembly) and viem's pure-JS recovery as the baseline; best of 3
 *     alternating rounds each (the machine may be shared: the best round is the least disturbed).
 *  2. POST /v1/session/wallet/verify over HTTP: BENCH_SIGNINS distinct signed messages (fresh nonces, made before
 *     the clock starts), BENCH_CONNECTIONS in flight, sent by autocannon; then as many again by undici's fetch (the
 *     client before 2026-11-28, which cost the shared cores 0.5–0.6 ms a request). Each one parses, reads the nonce, recovers the signer, then in
 *     one statement consumes the nonce, upserts the user and inserts the session, and signs a JWT.
 *  3. Authenticated GET /v1/users/me (JWT verify + session lookup + user read) with the session cache on
 *     (SESSION_CACHE_MS=1000, the default) and off (0: the session row is read on every request), against a bare
 *     node:http server answering the same body. autocannon, rounds alternating between the three; median round shown.
 * For 2 and 3 it prints how the CPU split between the app, its PostgreSQL and this process (the load generator), in
 * ms per request, and the rate those costs allow on this machine's cores (scripts/bench/cpu-split.ts).
 * Env: BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_ROUNDS (3), BENCH_SIGNINS (2000), BENCH_SIGNIN_WARMUP (1000:
 * sign-ins sent first, neither timed nor counted); BENCH_PROFILE=1 runs the
 * app (cache on) under `--cpu-prof` and prints where its main thread spent the sign-ins and the GET rounds
 * (scripts/bench/profile-summary.ts; the rates are then the profiled app's).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const signIns = Number(process.env.BENCH_SIGNINS ?? 2000)
const signInWarmup = Number(process.env.BENCH_SIGNIN_WARMUP ?? 1000)
const profileDir =
  process.env.BENCH_PROFILE === "1"
    ? NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-bench-auth-prof-"))
    : undefined
const cores = NodeOs.cpus().length

const dirs: Array<string> = []
const appEnv = (extra: Record<string, string> = {}) => {
  const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-bench-auth-"))
  dirs.push(dir)
  // The sign-in limits stay on (their counters are part of a sign-in's cost) but high: one IP signs in thousands of times.
  const limits = {
    SIGNIN_IP_RATE_LIMIT: "1000000000",
    SIGNIN_ADDRESS_RATE_LIMIT: "1000000000",
    RATE_LIMIT_CLIENT_IP_LIMIT: "1000000000"
  }
  return { DATA_DIR: dir, CLIENT_PORT: "0", EMBEDDED_PG_PORT: "0", DEVNET_PORT: "0", ...limits, ...extra }
}

const load = (url: string, headers: Record<string, string>, warmupSeconds = 2) =>
  measure(url, { connections, seconds, headers, warmupSeconds })
type Load = Measurement

const signInOnce = async (base: string) => {
  const [prepared] = await prepareSignIns(base, [privateKeyToAccount(generatePrivateKey())], 1)
  const response = await fetch(`${base}/v1/session/wallet/verify`, {
    method: "POST",
    body: prepared!.body,
    headers: { "content-type": "application/json" }
  })
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { token: string }).token
}

buildApp()
try {
  console.log(
    `machine: ${NodeOs.cpus().length} cores, node ${process.version}; ${connections} connections, ${rounds} rounds of ${seconds} s`
  )
  console.log(
    `load average (1, 5, 15 min) at the start: ${NodeOs.loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`
  )
  console.log(`database: ${process.env.DATABASE_URL ? "DATABASE_URL" : "embedded PostgreSQL"} (one per app process)`)

  // 1. In-process CPU cost of verifying one EOA sign-in.
  const account = privateKeyToAccount(generatePrivateKey())
  const message = `localhost wants you to sign in with your Ethereum account:\n${account.address}\n\n\nURI: http://localhost\nVersion: 1\nChain ID: 31337\nNonce: abcdef0123456789\nIssued At: ${new Date().toISOString()}`
  const signature = await account.signMessage({ message })
  const verifyWith = (recover: () => Promise<string | undefined>) => async () => {
    const fields = Result.getOrThrow(parseSiweMessage(message))
    if (checkSiwePolicy(fields, { domains: ["localhost"], chainIds: [31337] }, new Date()) !== undefined)
      throw new Error("policy")
    if ((await recover())?.toLowerCase() !== account.address.toLowerCase()) throw new Error("signature")
  }
  // The server's recovery (WebAssembly libsecp256k1) and viem's pure-JS one it replaced, alternating, same run.
  const inProcess = {
    wasm: [] as Array<{ wall: number; cpu: number }>,
    viem: [] as Array<{ wall: number; cpu: number }>
  }
  for (let round = 0; round < 3; round++) {
    inProcess.wasm.push(
      await opsPerSecond(
        4000,
        verifyWith(async () => recoverMessageSigner(message, signature))
      )
    )
    inProcess.viem.push(
      await opsPerSecond(
        1000,
        verifyWith(() => recoverMessageAddress({ message, signature }))
      )
    )
  }
  const best = (list: Array<{ wall: number; cpu: number }>) => list.reduce((a, b) => (b.wall > a.wall ? b : a))

  const profileArgs =
    profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--cpu-prof-name=app.cpuprofile"]
  // The measured app's database on a known port: the bench counts its transactions (round trips) per request.
  const pgPort = await freePort()
  const pgUrl = `postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres`
  const cached = await spawnApp(appEnv({ EMBEDDED_PG_PORT: String(pgPort) }), ["--services", "client"], profileArgs)
  const uncached = await spawnApp(appEnv({ SESSION_CACHE_MS: "0" }), ["--services", "client"])
  const base = cached.urls.get("client")!

  // 2. Sign-ins over HTTP.
  const accounts = Array.from({ length: 100 }, () => privateKeyToAccount(generatePrivateKey()))
  // Warm-up: the verify path's first sign-ins pay the JIT (1.9 ms of app CPU each for a fresh process's first 2,000
  // against 1.46 for the next, docs/BENCHMARKS.md); these are neither timed nor counted.
  const warmup = await prepareSignIns(base, accounts, signInWarmup)
  await postAllWithAutocannon(
    `${base}/v1/session/wallet/verify`,
    warmup.map((p) => p.body),
    connections
  )
  // One more per connection: each connection's first request opens it (postAllWithAutocannon's `openers`), reported
  // apart; the percentiles are the BENCH_SIGNINS sent on open connections.
  const prepared = await prepareSignIns(base, accounts, signIns + connections)
  const transactionsBefore = await settledTransactions(pgUrl)
  // The processes' background CPU (no request), taken off the per-request figures below.
  const idleFor = (pid: number) =>
    measureCpuSplit(
      pid,
      () => 0,
      () => new Promise((resolve) => setTimeout(resolve, 5000))
    ).then(({ split }) => split)
  const [idle, idleUncached] = await Promise.all([idleFor(cached.child.pid!), idleFor(uncached.child.pid!)])
  console.log(
    `idle CPU, 5 s, no request (app, its PostgreSQL, anvil): ${[...idle.seconds]
      .filter(([name]) => name !== "load generator")
      .map(([name, seconds]) => `${name} ${((1000 * seconds) / idle.wallSeconds).toFixed(0)} ms/s`)
      .join(", ")}`
  )
  const { result: verify, split: verifySplit } = await measureCpuSplit(
    cached.child.pid!,
    () => prepared.length,
    () =>
      postAllWithAutocannon(
        `${base}/v1/session/wallet/verify`,
        prepared.map((p) => p.body),
        connections,
        connections
      )
  )
  const verifyTransactions = (await settledTransactions(pgUrl)) - transactionsBefore
  // The same with undici's fetch as the client (the generator before 2026-11-28), fresh nonces: what a costlier
  // generator on the same cores does to the figures.
  const preparedForFetch = await prepareSignIns(base, accounts, signIns)
  const { result: verifyByFetch, split: verifyByFetchSplit } = await measureCpuSplit(
    cached.child.pid!,
    () => preparedForFetch.length,
    () =>
      postAll(
        `${base}/v1/session/wallet/verify`,
        preparedForFetch.map((p) => p.body),
        connections
      )
  )

  // 3. GET /v1/users/me, cache on / off / bare.
  const targets = {
    cached: { url: `${base}/v1/users/me`, headers: { authorization: `Bearer ${await signInOnce(base)}` } },
    uncached: {
      url: `${uncached.urls.get("client")!}/v1/users/me`,
      headers: { authorization: `Bearer ${await signInOnce(uncached.urls.get("client")!)}` }
    }
  }
  const body = await (await fetch(targets.cached.url, { headers: targets.cached.headers })).text()
  const bare = await startBareServer(body, "/v1/users/me")
  const runs: Record<"cached" | "uncached" | "bare", Array<Load>> = { cached: [], uncached: [], bare: [] }
  const splits: Record<"cached" | "uncached" | "bare", Array<CpuSplit>> = { cached: [], uncached: [], bare: [] }
  // The 2 s warm-up before the CPU is read, so the split counts the measured requests only.
  const measured = async (which: "cached" | "uncached" | "bare", pid: number) => {
    const target = which === "bare" ? { url: bare.url, headers: targets.cached.headers } : targets[which]
    await measure(target.url, { connections, seconds: 2, headers: target.headers, warmupSeconds: 0 })
    const { result, split } = await measureCpuSplit(
      pid,
      (m: Load) => m.total,
      () => load(target.url, target.headers, 0)
    )
    splits[which].push(split)
    return result
  }
  const cachedTransactionsBefore = await settledTransactions(pgUrl)
  for (let round = 0; round < rounds; round++) {
    runs.cached.push(await measured("cached", cached.child.pid!))
    runs.uncached.push(await measured("uncached", uncached.child.pid!))
    runs.bare.push(await measured("bare", bare.pid))
  }
  bare.stop()
  // Warm-ups included: they send requests to the same PostgreSQL (counted with them below).
  const cachedTransactions = (await settledTransactions(pgUrl)) - cachedTransactionsBefore
  await stopApp(cached.child)
  await stopApp(uncached.child)

  const median = (list: Array<Load>) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)]!
  const row = (name: string, rps: number, p50: number, p99: number, errors: number) =>
    `${name.padEnd(44)} ${rps.toFixed(0).padStart(8)} ${String(p50).padStart(8)} ${String(p99).padStart(8)} ${String(errors).padStart(7)}`
  const header = (title: string, unit: string) =>
    `\n${title.padEnd(44)} ${unit.padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"errors".padStart(7)}`

  console.log(header("EOA sign-in verification", "per s"))
  const inProcessRow = (name: string, rate: { wall: number; cpu: number }) =>
    console.log(
      `${row(name, rate.wall, 0, 0, 0).replace(/ +0 +0 +0$/, "        -        -       -")}   (${rate.cpu.toFixed(0)} per CPU-second, ${(1000 / rate.cpu).toFixed(3)} ms CPU each)`
    )
  inProcessRow("in-process, one core: tiny-secp256k1 (server)", best(inProcess.wasm))
  inProcessRow("in-process, one core: viem recover (baseline)", best(inProcess.viem))
  console.log(
    row(`HTTP POST /v1/session/wallet/verify (${signIns})`, verify.perSecond, verify.p50, verify.p99, verify.failures)
  )
  const opening = verify.opening.map((a) => a.ms).sort((a, b) => a - b)
  console.log(
    `  the ${opening.length} requests that opened the connections (not in the row): median ${opening[Math.floor(opening.length / 2)]?.toFixed(0)} ms, max ${opening[opening.length - 1]?.toFixed(0)} ms`
  )
  for (const line of describeTail(verify.answers)) console.log(line)
  console.log(
    row(
      `  the same, undici fetch as the client`,
      verifyByFetch.perSecond,
      verifyByFetch.p50,
      verifyByFetch.p99,
      verifyByFetch.failures
    )
  )
  const met = verify.perSecond >= 500 && verify.p99 <= 100 && verify.failures === 0
  console.log(
    `target (issue 26): >= 500/s with p99 <= 100 ms at 50 in flight: ${met ? "met" : "NOT met"} ` +
      `(${verify.perSecond.toFixed(0)}/s, p99 ${verify.p99} ms, ${connections} in flight)`
  )
  console.log(
    `PostgreSQL transactions (round trips) per sign-in: ${(verifyTransactions / prepared.length).toFixed(2)} ` +
      `(${verifyTransactions} for ${prepared.length}, the sign-in limits' counter flushes included)`
  )
  for (const line of describeCpuSplit(verifySplit, cores, idle)) console.log(line)
  console.log("the same sign-ins with undici fetch as the client:")
  for (const line of describeCpuSplit(verifyByFetchSplit, cores, idle)) console.log(line)

  console.log(header("GET /v1/users/me (Bearer JWT)", "req/s"))
  for (const [name, list] of [
    ["fire-api, SESSION_CACHE_MS=1000 (default)", runs.cached],
    ["fire-api, SESSION_CACHE_MS=0 (row per request)", runs.uncached],
    ["bare node:http, same body (baseline)", runs.bare]
  ] as const) {
    const m = median(list)
    console.log(row(name, m.rps, m.p50, m.p99, m.errors))
  }
  console.log(
    `rounds (req/s): cache on ${runs.cached.map((r) => r.rps.toFixed(0)).join(", ")} | cache off ${runs.uncached
      .map((r) => r.rps.toFixed(0))
      .join(", ")} | bare ${runs.bare.map((r) => r.rps.toFixed(0)).join(", ")}`
  )
  console.log(
    `load average (1, 5, 15 min) at the end: ${NodeOs.loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`
  )
  console.log(`ratio fire (cache on)/bare req/s: ${(median(runs.cached).rps / median(runs.bare).rps).toFixed(2)}`)
  console.log("\nGET /v1/users/me, SESSION_CACHE_MS=1000, all rounds:")
  for (const line of describeCpuSplit(addSplits(splits.cached), cores, idle)) console.log(line)
  const cachedRequests = splits.cached.reduce((n, s) => n + s.requests, 0)
  console.log(
    `  PostgreSQL transactions: ${cachedTransactions} over these rounds and their warm-ups ` +
      `(${((1000 * cachedTransactions) / Math.max(1, cachedRequests)).toFixed(2)} per 1,000 measured requests)`
  )
  console.log("GET /v1/users/me, SESSION_CACHE_MS=0, all rounds:")
  for (const line of describeCpuSplit(addSplits(splits.uncached), cores, idleUncached)) console.log(line)
  console.log("bare node:http, same body, all rounds (the app's row is the bare server):")
  for (const line of describeCpuSplit(addSplits(splits.bare), cores)) console.log(line)

  if (profileDir !== undefined) {
    const file = NodePath.join(profileDir, "app.cpuprofile")
    console.log(`\nprofile (${file}) of the app's main thread, POST /v1/session/wallet/verify:`)
    for (const line of describeProfile(summarizeProfile(file, [verifySplit.window]))) console.log(line)
    console.log("profile, GET /v1/users/me (SESSION_CACHE_MS=1000), measured rounds:")
    for (const line of describeProfile(
      summarizeProfile(
        file,
        splits.cached.map((s) => s.window)
      )
    ))
      console.log(line)
  }
} finally {
  for (const dir of dirs) NodeFs.rmSync(dir, { recursive: true, force: true })
}
