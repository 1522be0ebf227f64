/**
 * How should the bulk inserts ship their columns? Inserts BENCH_ROWS synthetic swap rows (the `swaps` table with its
 * indexes, in a scratch database) with three encodings of the unnest arrays, each BENCH_REPEAT times, and prints the
 * wall time, this process's CPU time and the PostgreSQL backend's CPU time (read from /proc):
 *   text     every element as text in a text[], cast to the column's type by the server (the first implementation)
 *   binary   typed arrays in binary (int8 as 8 bytes, numeric as base-10000 digits encoded in JS)
 *   literal  numeric columns as one untyped array literal '{1,2,...}' parsed by the server, the rest binary
 *   literal2 numeric and text columns as literals, the rest binary
 * `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node scripts/bench/bulk-encoding.ts`; BENCH_DROP lists
 * indexes to drop first (their cost, by difference).
 */
import { PgTypes } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted, Result } from "effect"
import { SqlClient } from "effect/sql"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import { pgClientLayer } from "../../layers/Sql.ts"

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000)
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3)
const admin = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
const dbName = "indexer_bulk_encoding_bench"

const types: Record<string, string> = {
  chain_id: "int4",
  block_number: "int8",
  log_index: "int4",
  tx_hash: "text",
  block_timestamp: "timestamp",
  pool: "text",
  sender: "text",
  recipient: "text",
  amount0: "numeric",
  amount1: "numeric",
  sqrt_price_x96: "numeric",
  liquidity: "numeric",
  tick: "int4",
  price: "float8",
  token0_price_usd: "float8",
  token1_price_usd: "float8",
  amount_usd: "float8",
  reserve0: "numeric",
  reserve1: "numeric",
  tvl_usd: "float8"
}
const columns = Object.keys(types)
const hex = (n: number, len: number) => `0x${Math.floor(n).toString(16).padStart(len, "0").slice(-len)}`
const rows = Array.from({ length: ROWS }, (_, i) => ({
  chain_id: 31337,
  block_number: BigInt(1000 + Math.floor(i / 200)),
  log_index: i % 200,
  tx_hash: hex(Math.random() * 2 ** 52, 64),
  block_timestamp: 1_700_000_000 + Math.floor(i / 200),
  pool: hex(i % 22, 40),
  sender: hex(7, 40),
  recipient: hex(8, 40),
  amount0: BigInt(Math.floor(Math.random() * 1e15)) * 1000n,
  amount1: -BigInt(Math.floor(Math.random() * 1e15)) * 1_000_000n,
  sqrt_price_x96: (1n << 96n) + BigInt(i),
  liquidity: 10n ** 24n + BigInt(i),
  tick: -(i % 887272),
  price: Math.random(),
  token0_price_usd: Math.random() * 3000,
  token1_price_usd: Math.random(),
  amount_usd: Math.random() * 1000,
  reserve0: 10n ** 22n + BigInt(i),
  reserve1: 10n ** 27n - BigInt(i),
  tvl_usd: Math.random() * 1e6
})) as Array<Record<string, unknown>>

const oidOf: Record<string, number> = {
  int4: PgTypes.OID.int4,
  int8: PgTypes.OID.int8,
  float8: PgTypes.OID.float8,
  numeric: PgTypes.OID.numeric,
  timestamp: PgTypes.OID.float8,
  text: PgTypes.OID.text
}
const cast = (t: string) => (t === "timestamp" ? "float8" : t)
const select = columns.map((c) => (types[c] === "timestamp" ? `to_timestamp(u.${c})` : `u.${c}`)).join(", ")
const statement = (arrays: ReadonlyArray<string>) =>
  `INSERT INTO swaps (${columns.join(", ")}) SELECT ${select} FROM unnest(${arrays.join(", ")}) AS u(${columns.join(", ")})`

const encodings: Record<string, () => { text: string; params: Array<unknown> }> = {
  text: () => ({
    text: statement(columns.map((c, i) => `$${i + 1}::${cast(types[c]!)}[]`)),
    params: columns.map((c) => rows.map((r) => String(r[c])))
  }),
  binary: () => ({
    text: statement(columns.map((c, i) => `$${i + 1}::${cast(types[c]!)}[]`)),
    params: columns.map((c) => {
      const t = types[c]!
      const values = rows.map((r) => (t === "numeric" || t === "text" ? String(r[c]) : r[c]))
      return Result.getOrThrow(PgTypes.array(values, oidOf[t]!))
    })
  }),
  literal: () => ({
    text: statement(columns.map((c, i) => `$${i + 1}::${cast(types[c]!)}[]`)),
    params: columns.map((c) => {
      const t = types[c]!
      if (t === "numeric") return `{${rows.map((r) => String(r[c])).join(",")}}`
      const values = rows.map((r) => (t === "text" ? String(r[c]) : r[c]))
      return Result.getOrThrow(PgTypes.array(values, oidOf[t]!))
    })
  }),
  literal2: () => ({
    text: statement(columns.map((c, i) => `$${i + 1}::${cast(types[c]!)}[]`)),
    params: columns.map((c) => {
      const t = types[c]!
      if (t === "numeric" || t === "text") return `{${rows.map((r) => String(r[c])).join(",")}}`
      return Result.getOrThrow(
        PgTypes.array(
          rows.map((r) => r[c]),
          oidOf[t]!
        )
      )
    })
  })
}

const ticks = 100
const procCpu = (pid: number) => {
  const f = NodeFs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(f[11]) + Number(f[12])) / ticks
}
const selfCpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

const clientOf = (url: string) =>
  Layer.build(pgClientLayer(Redacted.make(url), 1)).pipe(Effect.map((ctx) => Context.get(ctx, SqlClient.SqlClient)))

const program = Effect.gen(function* () {
  console.log(
    `bulk encoding: ${ROWS} swap rows x ${REPEAT}, load average ${NodeOs.loadavg()
      .map((x) => x.toFixed(2))
      .join(", ")}`
  )
  const root = yield* clientOf(admin)
  yield* root.unsafe(`DROP DATABASE IF EXISTS ${dbName}`)
  yield* root.unsafe(`CREATE DATABASE ${dbName}`)
  const url = new URL(admin)
  url.pathname = `/${dbName}`
  const sql = yield* clientOf(url.toString())
  const ddl = NodeFs.readFileSync(new URL("../../sql/0010_create_indexer.sql", import.meta.url), "utf8")
  const swaps = ddl.slice(ddl.indexOf("CREATE TABLE swaps"), ddl.indexOf("CREATE TABLE mints"))
  for (const s of swaps.split(/;\s*$/m).filter((x) => x.replace(/--.*$/gm, "").trim() !== "")) yield* sql.unsafe(s)
  // BENCH_DROP=swaps_tx,swaps_recipient: the cost of those indexes (by difference).
  for (const index of (process.env.BENCH_DROP ?? "").split(",").filter((x) => x !== ""))
    yield* sql.unsafe(`DROP INDEX ${index}`)
  const pid = ((yield* sql.unsafe(`SELECT pg_backend_pid() AS pid`)) as unknown as Array<{ pid: number }>)[0]!.pid
  for (let round = 0; round < REPEAT; round++) {
    for (const [name, encode] of Object.entries(encodings)) {
      yield* sql.unsafe(`TRUNCATE swaps`)
      const w0 = performance.now()
      const c0 = selfCpu()
      const p0 = procCpu(pid)
      const { text, params } = encode()
      const c1 = selfCpu()
      yield* sql.unsafe(text, params)
      const wall = performance.now() - w0
      const node = selfCpu() - c0
      const pg = procCpu(pid) - p0
      console.log(
        `${name.padEnd(8)} wall ${wall.toFixed(0).padStart(5)} ms  node ${(node * 1000).toFixed(0).padStart(5)} ms (building params ${((c1 - c0) * 1000).toFixed(0)} ms)  postgres backend ${(pg * 1000).toFixed(0).padStart(5)} ms`
      )
    }
  }
  yield* root.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
}).pipe(Effect.scoped)

await Effect.runPromise(program)
