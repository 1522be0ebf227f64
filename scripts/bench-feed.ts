import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as NodeOs from "node:os"
import { execSync } from "node:child_process"
import { Chain } from "../src/platform/Chain.ts"
import { emptyDeployments } from "../src/platform/Deployments.ts"
import { MigrationsLive, pgClientLayer } from "../layers/Sql.ts"
import { makePublicClient } from "../layers/PublicClient.ts"
import { FeedRepo } from "../src/client-api/social/feed/FeedRepo.ts"

/**
 * `npm run bench:feed` (needs DATABASE_URL of a server where it may create a database): one page of GET /v1/feed as
 * the feed query runs it (FeedRepo.page: launches + fuel + shills, the personalisation tiers, the user join), over
 * BENCH_FUEL FuelGiven rows and BENCH_LAUNCHES launches, first page and a deep page, anonymous and personalised;
 * baseline: the plain keyset page of one indexed table (fuel_events by its time index), the floor of any feed page.
 * Env: BENCH_FUEL (100000), BENCH_LAUNCHES (2000), BENCH_ITERATIONS (50).
 */
const fuelRows = Number(process.env.BENCH_FUEL ?? 100_000)
const launchRows = Number(process.env.BENCH_LAUNCHES ?? 2_000)
const iterations = Number(process.env.BENCH_ITERATIONS ?? 50)
const admin = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
const dbName = `bench_feed_${Date.now().toString(36)}`
const url = new URL(admin)
url.pathname = `/${dbName}`

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`
const chainStub = Layer.succeed(
  Chain,
  Chain.of({
    chainId: 31337,
    rpcUrl: "http://127.0.0.1:1",
    publicClient: makePublicClient(31337, "http://127.0.0.1:1"),
    mode: "external",
    deployments: emptyDeployments(31337)
  })
)

const percentile = (xs: Array<number>, p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!
const time = <A, E, R>(label: string, run: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    yield* run // warm
    const ms: Array<number> = []
    for (let i = 0; i < iterations; i++) {
      const t = performance.now()
      yield* run
      ms.push(performance.now() - t)
    }
    console.log(
      `${label.padEnd(46)} ${percentile(ms, 0.5).toFixed(2).padStart(8)} ${percentile(ms, 0.99).toFixed(2).padStart(8)}`
    )
  })

const program = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const repo = yield* FeedRepo
  // Synthetic index: launches by 500 creators, fuel given by 5,000 wallets, one block every 12 s.
  yield* sql`INSERT INTO launches SELECT 31337, g * 10, 0, 'tx', to_timestamp(1.7e9 + g * 120), ${"0x"} || lpad(to_hex(g), 40, '0'),
    ${"0x"} || lpad(to_hex(1000000 + g % 500), 40, '0'), ${"0x"} || lpad(to_hex(2000000 + g), 40, '0'), 10000, 0, 100, 1, true, g
    FROM generate_series(1, ${launchRows}) g`
  yield* sql`INSERT INTO tokens (chain_id, address, name, symbol, decimals, total_supply, is_launch, first_block)
    SELECT 31337, token, 'Token', 'TKN', 18, 0, true, block_number FROM launches`
  yield* sql`INSERT INTO fuel_events SELECT 31337, g, 1, 'tx', to_timestamp(1.7e9 + g * 12), 'given',
    ${"0x"} || lpad(to_hex(1 + g % ${launchRows}), 40, '0'), ${"0x"} || lpad(to_hex(3000000 + g % 5000), 40, '0'),
    ${"0x"} || lpad(to_hex(1000000 + (1 + g % ${launchRows}) % 500), 40, '0'), 1000 FROM generate_series(1, ${fuelRows}) g`
  const viewer = addr(1000000 + 7)
  yield* sql`INSERT INTO token_balances SELECT 31337, token, ${viewer}, 1 FROM launches WHERE token_is_token0 AND position_id % 97 = 0`
  yield* sql`INSERT INTO indexer_checkpoints (chain_id, block_number, block_hash, block_timestamp) VALUES (31337, ${fuelRows + launchRows * 10}, 'h', now())`
  yield* sql`ANALYZE`

  const me = { wallet: viewer, userId: "00000000-0000-4000-8000-000000000000" }
  const sources = ["LAUNCH", "FUEL", "YAP", "SHILL"] as const
  type Viewer = Option.Option<{ readonly wallet: string; readonly userId: string }>
  const firstPage = (viewerWallet: Viewer) =>
    repo.page({ sources, viewer: viewerWallet, after: Option.none(), limit: 20 })
  const deep = (viewerWallet: Viewer) =>
    Effect.gen(function* () {
      let rows = yield* firstPage(viewerWallet)
      if (rows.length < 20)
        throw new Error(
          `first page: ${rows.length} rows; ${JSON.stringify(yield* sql`SELECT (SELECT count(*) FROM launches) l, (SELECT count(*) FROM fuel_events) f`)}`
        )
      for (let i = 0; i < 49; i++) {
        const last = rows[19]!
        rows = yield* repo.page({ sources, viewer: viewerWallet, after: Option.some(last), limit: 20 })
      }
      return rows[19]!
    })
  const at50 = { anon: yield* deep(Option.none()), personal: yield* deep(Option.some(me)) }
  const page = (viewerWallet: Viewer, after: typeof at50.anon) =>
    repo.page({ sources, viewer: viewerWallet, after: Option.some(after), limit: 20 })

  execSync("uptime", { stdio: "inherit" })
  console.log(
    `machine: ${NodeOs.cpus().length} cores, node ${process.version}; ${fuelRows} fuel rows, ${launchRows} launches, ${iterations} iterations, limit 20`
  )
  console.log(`${"query".padEnd(46)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`)
  yield* time(
    "baseline: fuel_events keyset page (index)",
    sql`SELECT * FROM fuel_events WHERE chain_id = 31337 AND kind = 'given'
    ORDER BY block_timestamp DESC, log_index DESC LIMIT 21`
  )
  yield* time("feed ALL, first page, anonymous", firstPage(Option.none()))
  yield* time("feed ALL, first page, personalised", firstPage(Option.some(me)))
  yield* time("feed ALL, page 51, anonymous", page(Option.none(), at50.anon))
  yield* time("feed ALL, page 51, personalised", page(Option.some(me), at50.personal))
})

const admin$ = pgClientLayer(Redacted.make(admin), 2)
await Effect.runPromise(
  Effect.scoped(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE DATABASE ${dbName}`)).pipe(Effect.provide(admin$))
  )
)
try {
  await Effect.runPromise(
    program.pipe(
      Effect.provide(
        FeedRepo.layer.pipe(
          Layer.provideMerge(MigrationsLive),
          Layer.provideMerge(pgClientLayer(Redacted.make(url.toString()), 4)),
          Layer.provideMerge(chainStub),
          Layer.provide(NodeServices.layer)
        )
      )
    )
  )
} finally {
  await Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP DATABASE ${dbName} WITH (FORCE)`)).pipe(
        Effect.provide(admin$)
      )
    )
  )
}
