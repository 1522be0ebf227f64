/**
 * `npm run fuzz`: the contract fuzz at full size against the built app, started the way `npm start` starts it
 * (embedded PostgreSQL and devnet in a temporary DATA_DIR, all four services, ephemeral ports). Sends at least
 * FUZZ_REQUESTS (default 10,000) requests spread evenly over every route of the client, exchange and search OpenAPI
 * documents, then prints the count per status class and status, every violation (5xx, hang, dropped connection,
 * 4xx without the error body) and the app's logged internal errors, and checks that every service is still alive.
 * Exits 1 on any violation.
 *
 * Env: FUZZ_REQUESTS (10000), FUZZ_SEED (random; printed), FUZZ_CONCURRENCY (8), FUZZ_ONLY (regex over
 * "METHOD /path"), FUZZ_DATABASE_URL (use this PostgreSQL instead of an embedded one; it gets migrated).
 */
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { privateKeyToAccount } from "viem/accounts"
import { buildApp, spawnApp, stopApp } from "./bench/spawn.ts"
import { loadRoutes, runFuzz, stillAlive, summarize, type Urls } from "./fuzz/Fuzzer.ts"
import { FUZZ_ADMIN_KEY, startLocalJwks } from "./fuzz/LocalJwks.ts"

const target = Number(process.env.FUZZ_REQUESTS ?? 10_000)
const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))
const concurrency = Number(process.env.FUZZ_CONCURRENCY ?? 8)
const only = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY, "u") : undefined
const maxBodyBytes = 1_048_576

const waitReady = async (exchange: string) => {
  // Ready = database up and the indexer within EXCHANGE_READY_MAX_LAG_BLOCKS of the head (fresh devnet: caught up).
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${exchange}/api/health/ready`).catch(() => undefined)
    if (res?.status === 200) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error("the stack did not become ready within 60 s")
}

const main = async () => {
  const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-fuzz-"))
  const jwks = await startLocalJwks()
  console.log(`building, then starting the stack in ${dataDir} (seed ${seed})`)
  buildApp()
  const app = await spawnApp(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.FUZZ_DATABASE_URL,
      EMBEDDED_PG_PORT: "0",
      DEVNET_PORT: "0",
      CLIENT_PORT: "0",
      EXCHANGE_PORT: "0",
      SEARCH_PORT: "0",
      INDEXER_PORT: "0",
      HOST: "127.0.0.1",
      MAX_BODY_BYTES: String(maxBodyBytes),
      JWT_SECRET: `fuzz-${crypto.randomUUID()}-${crypto.randomUUID()}`,
      ADMIN_WALLETS: privateKeyToAccount(FUZZ_ADMIN_KEY).address,
      // One caller, one address, a wallet per session: the per-IP, per-address and per-user limits would answer
      // most requests with 429 before the route runs (and refuse the fuzz's own sign-ins: 120 a minute per IP).
      // The limiters still run, with the fuzz's own limits; the production defaults are not touched.
      RATE_LIMIT_EXCHANGE_PUBLIC_LIMIT: "100000000",
      RATE_LIMIT_CLIENT_IP_LIMIT: "100000000",
      // Every session mode signs in from this one address (a sign-in is a nonce and a verify).
      SIGNIN_IP_RATE_LIMIT: "100000000",
      SIGNIN_ADDRESS_RATE_LIMIT: "100000000",
      QUOTE_OPEN_RATE_LIMIT: "100000000",
      COMMENT_RATE_LIMIT: "100000000",
      COMMENT_EDIT_RATE_LIMIT: "100000000",
      CLAIM_RATE_LIMIT: "100000000",
      ...jwks.env
    },
    ["--services", "client,exchange,search,indexer"]
  )
  const logs: Array<string> = []
  app.child.stdout!.on("data", (chunk: Buffer) => logs.push(chunk.toString()))
  app.child.stderr!.on("data", (chunk: Buffer) => logs.push(chunk.toString()))
  try {
    const urls: Urls = {
      client: app.urls.get("client")!,
      exchange: app.urls.get("exchange")!,
      search: app.urls.get("search")!
    }
    await waitReady(urls.exchange)
    const routes = (await loadRoutes(urls)).filter((r) => only?.test(`${r.method} ${r.path}`) ?? true)
    const jobs = routes.reduce((n, r) => n + (r.secured ? 2 : 1), 0)
    const perRoute = Math.ceil(target / jobs)
    console.log(`${routes.length} routes, ${jobs} route × session modes, ${perRoute} requests each`)
    const report = await runFuzz({
      urls,
      perRoute,
      seed,
      concurrency,
      oversizeBytes: maxBodyBytes + 1,
      timeoutMs: 15_000,
      adminKey: FUZZ_ADMIN_KEY,
      ...(only ? { only } : {})
    })
    const alive = await stillAlive(urls)
    const internal = logs
      .join("")
      .split("\n")
      .filter((l) => l.includes('"level":"ERROR"') || l.includes(" ERROR "))
    console.log(
      `\nfuzz: ${report.total} requests to ${report.routes} routes in ${report.seconds.toFixed(1)} s (seed ${seed})`
    )
    console.log(
      `by class:  ${Object.entries(report.byClass)
        .sort()
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`
    )
    console.log(
      `by status: ${Object.entries(report.byStatus)
        .sort()
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`
    )
    console.log(`violations: ${report.violations.length}; internal errors logged: ${internal.length}`)
    console.log(
      `alive after: ${Object.entries(alive)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`
    )
    if (report.violations.length > 0) console.log(`\n${summarize(report.violations)}`)
    if (internal.length > 0)
      console.log(
        `\n${internal
          .slice(0, 10)
          .map((l) => l.slice(0, 1500))
          .join("\n")}`
      )
    process.exitCode = report.violations.length > 0 || Object.values(alive).some((s) => s !== 200) ? 1 : 0
  } finally {
    await stopApp(app.child)
    await jwks.close()
    NodeFs.rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
