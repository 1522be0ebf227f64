import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * Every table the indexer writes, compared row for row between two databases (the chaos test's index and a fresh one
 * of the same chain): the tables the indexer's migrations create, read from the files so that a new table is compared
 * without editing the test. Rows are sorted by every compared column, in the table's column order.
 */
const indexerMigrations = ["0010_create_indexer.sql", "0012_create_pool_snapshots.sql"]

export const indexerTables: ReadonlyArray<string> = indexerMigrations.flatMap((file) =>
  [...readFileSync(join(import.meta.dirname, "../../../sql", file), "utf8").matchAll(/CREATE TABLE (\w+)/g)].map(
    (m) => m[1]!
  )
)

/**
 * Columns left out: bookkeeping of the write, not chain data. `indexer_checkpoints.updated_at` is the time of the
 * last commit (now()), different in any two databases.
 */
export const excludedColumns: Readonly<Record<string, ReadonlyArray<string>>> = {
  indexer_checkpoints: ["updated_at"]
}

/**
 * Values left out of some rows only: the column is compared elsewhere. `tokens.total_supply` of the base tokens (WETH,
 * the stablecoin: not launches) is read from the chain once, at the indexer's start (Indexer.ts, `ensureTokens` at
 * the first head), not folded from events: two indexers started at different heads differ there (WETH's supply moves
 * with every deposit). A launch's supply is compared.
 */
export const excludedValues: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  tokens: { total_supply: `CASE WHEN is_launch THEN total_supply END` }
}

/**
 * The rows compared where not all are: `indexer_blocks` keeps the hashes of blocks committed within FINALITY_DEPTH of the head of their
 * batch until a later commit makes them final, so its rows at or below the checkpoint minus FINALITY_DEPTH depend on
 * the heads the commits saw (one block at a time, or caught up in one batch), not on the chain. Those above, the
 * blocks not final at the checkpoint, are compared.
 */
export const comparedRows = (finalityDepth: number): Readonly<Record<string, string>> => ({
  indexer_blocks: `number > (SELECT max(block_number) FROM indexer_checkpoints) - ${finalityDepth}`
})

/** Each indexer table's rows as JSON text, sorted by all its compared columns. */
export const dumpIndex = (finalityDepth: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const out: Record<string, string> = {}
    for (const table of indexerTables) {
      const columns = (yield* sql<{ name: string }>`
      SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`)
        .map((c) => c.name)
        .filter((c) => !(excludedColumns[table] ?? []).includes(c))
      if (columns.length === 0) throw new Error(`table ${table} has no columns: not migrated?`)
      const list = columns.map((c) => `"${c}"`).join(", ")
      const select = columns.map((c) => `${excludedValues[table]?.[c] ?? `"${c}"`} AS "${c}"`).join(", ")
      // Identifiers from information_schema of the indexer's own migrations, quoted; no value is interpolated.
      const rows = yield* sql.unsafe<{ j: string }>(
        `SELECT coalesce(json_agg(x ORDER BY ${list}), '[]')::text AS j FROM (SELECT ${select} FROM "${table}" WHERE ${comparedRows(finalityDepth)[table] ?? "true"}) x`
      )
      out[table] = rows[0]!.j
    }
    return out
  })

/** The rows of one dump missing from the other, each way (at most `max` of each), to say what differs. */
export const rowDiff = (actual: string, expected: string, max = 5) => {
  const a = (JSON.parse(actual) as Array<unknown>).map((r) => JSON.stringify(r))
  const e = (JSON.parse(expected) as Array<unknown>).map((r) => JSON.stringify(r))
  const inE = new Set(e)
  const inA = new Set(a)
  return {
    onlyInActual: a.filter((r) => !inE.has(r)).slice(0, max),
    onlyInExpected: e.filter((r) => !inA.has(r)).slice(0, max)
  }
}
