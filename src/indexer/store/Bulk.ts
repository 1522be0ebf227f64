import { PgTypes } from "@effect/sql-pg"
import { Effect, Result } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { Row } from "../project/Rows.ts"

/** Postgres type of each column the indexer writes, by name (default text). */
const columnTypes: Record<string, string> = {
  chain_id: "int4",
  block_number: "int8",
  first_block: "int8",
  last_block: "int8",
  number: "int8",
  log_index: "int4",
  fee: "int4",
  tick: "int4",
  tick_lower: "int4",
  tick_upper: "int4",
  tick_spacing: "int4",
  decimals: "int4",
  token_is_token0: "bool",
  is_launch: "bool",
  price: "float8",
  token0_price_usd: "float8",
  token1_price_usd: "float8",
  amount_usd: "float8",
  tvl_usd: "float8",
  block_timestamp: "timestamp",
  at: "timestamp",
  timestamp: "timestamp",
  args: "jsonb",
  sqrt_price_x96: "numeric",
  position_id: "numeric",
  token_id: "numeric",
  amount: "numeric",
  amount0: "numeric",
  amount1: "numeric",
  value: "numeric",
  liquidity: "numeric",
  reserve0: "numeric",
  reserve1: "numeric",
  total_supply: "numeric",
  bucket_start: "timestamp",
  open: "float8",
  high: "float8",
  low: "float8",
  close: "float8",
  volume: "numeric",
  volume0: "numeric",
  volume1: "numeric",
  volume_usd: "numeric",
  swap_count: "int4",
  mint_count: "int4",
  burn_count: "int4",
  fees0: "numeric",
  fees1: "numeric",
  balance: "numeric",
  liquidity_gross: "numeric",
  liquidity_net: "numeric"
}

/** How each Postgres type travels: the array's element OID and the JS value its binary codec takes. */
const wire: Record<string, { readonly oid: number; readonly cast: string; readonly value: (v: unknown) => unknown }> = {
  int4: { oid: PgTypes.OID.int4, cast: "int4", value: (v) => Number(v) },
  int8: {
    oid: PgTypes.OID.int8,
    cast: "int8",
    value: (v) => (typeof v === "bigint" ? v : BigInt(v as number | string))
  },
  float8: { oid: PgTypes.OID.float8, cast: "float8", value: (v) => Number(v) },
  bool: { oid: PgTypes.OID.bool, cast: "bool", value: (v) => v === true },
  numeric: { oid: PgTypes.OID.numeric, cast: "numeric", value: (v) => String(v) },
  // Epoch seconds, turned into timestamptz by to_timestamp in the SELECT.
  timestamp: { oid: PgTypes.OID.float8, cast: "float8", value: (v) => Number(v) },
  // JSON text, cast to jsonb in the SELECT.
  jsonb: { oid: PgTypes.OID.text, cast: "text", value: (v) => String(v) },
  text: { oid: PgTypes.OID.text, cast: "text", value: (v) => String(v) }
}

/**
 * One INSERT for any number of rows: each column travels as one array parameter and `unnest` turns them back into
 * rows, so the statement has as many parameters as columns (no 65,535-parameter limit, one round trip, one plan).
 * The arrays are typed and sent in binary (int8 as 8 bytes, numeric as base-10000 digits, ...): the server parses no
 * text and casts nothing (COPY would need a driver that speaks it; @effect/sql-pg 4.0.5 refuses COPY responses).
 * Timestamps travel as epoch seconds; JSON as text.
 */
export const bulkInsert = (
  sql: SqlClient.SqlClient,
  table: string,
  rows: ReadonlyArray<Row>,
  onConflict = ""
): Effect.Effect<void, SqlError.SqlError> => {
  if (rows.length === 0) return Effect.void
  const columns = Object.keys(rows[0]!)
  const types = columns.map((c) => columnTypes[c] ?? "text")
  const select = columns.map((c, i) =>
    types[i] === "timestamp" ? `to_timestamp(u.${c})` : types[i] === "jsonb" ? `u.${c}::jsonb` : `u.${c}`
  )
  const params = columns.map((c, i) => {
    const w = wire[types[i]!]!
    const values = new Array<unknown>(rows.length)
    for (let r = 0; r < rows.length; r++) {
      const v = rows[r]![c]
      values[r] = v === undefined || v === null ? null : w.value(v)
    }
    return Result.getOrThrow(PgTypes.array(values, w.oid))
  })
  const arrays = columns.map((_, i) => `$${i + 1}::${wire[types[i]!]!.cast}[]`)
  const text = `INSERT INTO ${table} (${columns.join(", ")}) SELECT ${select.join(", ")} FROM unnest(${arrays.join(
    ", "
  )}) AS u(${columns.join(", ")}) ${onConflict}`
  return sql.unsafe(text, params).pipe(Effect.asVoid)
}
