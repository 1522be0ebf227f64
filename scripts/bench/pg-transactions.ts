import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { pgClientLayer } from "../../layers/Sql.ts"

/**
 * Transactions committed in a PostgreSQL (`pg_stat_database`), read from the bench: the app's statements run outside
 * explicit transactions, so the difference over a run is its database round trips (a transaction of several
 * statements counts once, and so does a statement with CTEs). Backends publish their counts when idle, at most once a
 * second: `settledTransactions` reads until two readings 1.5 s apart agree (up to 15 s), less its own readings.
 */
const committed = (url: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ n: string }>`
      SELECT (sum(xact_commit) + sum(xact_rollback))::text AS n FROM pg_stat_database`
    return Number(rows[0]!.n)
  }).pipe(Effect.provide(pgClientLayer(Redacted.make(url), 1)), Effect.orDie)

export const settledTransactions = async (url: string): Promise<number> => {
  let last = await Effect.runPromise(committed(url))
  let reads = 1
  for (let waited = 0; waited < 15_000; waited += 1500) {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const now = await Effect.runPromise(committed(url))
    reads++
    if (now - last <= 1) return now - reads
    last = now
  }
  return last - reads
}
