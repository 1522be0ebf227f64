import { Duration, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { RateLimitStore, RateLimitStoreError } from "./RateLimitStore.ts"

/**
 * Counters in `rate_limit_counters` (sql/0040, UNLOGGED: a crash may forget the current windows, which only resets
 * limits early). One upsert per increment decides, under the row lock, whether the window is still open; the
 * database clock is the only clock, so processes on different machines agree on window boundaries.
 * Expired rows are deleted every minute (any process may do it; deletes of the same rows are harmless).
 */
export const PostgresRateLimitStoreLive = Layer.effect(
  RateLimitStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const sweep = sql`DELETE FROM rate_limit_counters WHERE expires_at < now() - interval '1 minute'`.pipe(
      Effect.catchCause((cause) => Effect.logWarning("rate limits: sweeping expired counters failed", cause))
    )
    yield* Effect.forkScoped(Effect.repeat(Effect.delay(sweep, Duration.minutes(1)), Schedule.forever))
    return RateLimitStore.of({
      name: "postgres",
      increment: (counter, hits, windowMs) =>
        sql<{ count: string; resetMs: string }>`
          INSERT INTO rate_limit_counters AS c (counter, count, expires_at)
          VALUES (${counter}, ${hits}, now() + ${windowMs} * interval '1 millisecond')
          ON CONFLICT (counter) DO UPDATE SET
            count = CASE WHEN c.expires_at > now() THEN c.count + EXCLUDED.count ELSE EXCLUDED.count END,
            expires_at = CASE WHEN c.expires_at > now() THEN c.expires_at ELSE EXCLUDED.expires_at END
          RETURNING count::text AS count, ceil(extract(epoch FROM (expires_at - now())) * 1000)::text AS reset_ms`.pipe(
          Effect.map((rows) => ({ count: Number(rows[0]!.count), resetMs: Math.max(0, Number(rows[0]!.resetMs)) })),
          Effect.mapError((cause) => new RateLimitStoreError({ store: "postgres", cause }))
        )
    })
  })
)
