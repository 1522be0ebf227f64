import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
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
  total_supply: "numeric"
}

// Every element travels as text (the driver wants one element type per array); the `::type[]` casts parse them.
const param = (v: unknown) => (v === undefined || v === null ? null : String(v))

/**
 * One INSERT for any number of rows: each column travels as one array parameter and `unnest` turns them back into
 * rows, so the statement has as many parameters as columns (no 65,535-parameter limit, one round trip, one plan).
 * Timestamps travel as epoch seconds; JSON as text.
 */
export const bulkInsert = (
  sql: SqlClient.SqlClient,
  table: string,
  rows: ReadonlyArray<Row>,
  onConflict = ""
): Effect.Effect<void, unknown> => {
  if (rows.length === 0) return Effect.void
  const columns = Object.keys(rows[0]!)
  const arrayTypes = columns.map((c) => {
    const t = columnTypes[c] ?? "text"
    return t === "timestamp" ? "float8" : t === "jsonb" ? "text" : t
  })
  const select = columns.map((c) => {
    const t = columnTypes[c] ?? "text"
    return t === "timestamp" ? `to_timestamp(u.${c})` : t === "jsonb" ? `u.${c}::jsonb` : `u.${c}`
  })
  const values = columns.map((c) => rows.map((r) => param(r[c])))
  // The driver cannot type an array of NULLs only: such a column is written as a typed array of NULLs instead.
  const params: Array<ReadonlyArray<string | null>> = []
  const arrays = arrayTypes.map((t, i) => {
    if (values[i]!.every((v) => v === null)) return `array_fill(NULL::${t}, ARRAY[${rows.length}])`
    params.push(values[i]!)
    return `$${params.length}::${t}[]`
  })
  const text = `INSERT INTO ${table} (${columns.join(", ")}) SELECT ${select.join(", ")} FROM unnest(${
    arrays.join(", ")
  }) AS u(${columns.join(", ")}) ${onConflict}`
  return sql.unsafe(text, params).pipe(Effect.asVoid)
}
