import { Cause, Duration, Effect, Exit, Fiber, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { RateLimitStore, RateLimitStoreError, type WindowCount } from "./RateLimitStore.ts"

/** An increment waiting for the next statement. */
interface Pending {
  readonly counter: string
  readonly hits: number
  readonly windowMs: number
  readonly resume: (result: Effect.Effect<WindowCount, RateLimitStoreError>) => void
}

/**
 * Counters in `rate_limit_counters` (sql/0040, UNLOGGED: a crash may forget the current windows, which only resets
 * limits early). One upsert per counter decides, under the row lock, whether the window is still open; the database
 * clock is the only clock, so processes on different machines agree on window boundaries.
 *
 * Increments asked for in the same turn of the event loop, or while a statement is in flight, go as one statement
 * (a row per counter): the limiter sends each busy counter's hits on its own (RateLimiter.ts), and with many callers
 * (100 wallets signing in, the IPs of a busy hour) that was a transaction per request (bench:auth, 1.96 per sign-in).
 * Each increment keeps its own answer; a counter asked for twice waits for the next statement, as an upsert cannot
 * touch one row twice. Rows are upserted in counter order, so two processes' statements lock shared rows in the same
 * order and cannot deadlock. A failed statement fails each of its increments (the limiter then allows, logged).
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
    const context = yield* Effect.context<never>()
    const scope = yield* Effect.scope

    const upsert = (batch: ReadonlyArray<Pending>) =>
      sql<{ counter: string; count: string; resetMs: string }>`
        INSERT INTO rate_limit_counters AS c (counter, count, expires_at)
        SELECT t.counter, t.hits, now() + t.window_ms * interval '1 millisecond'
        FROM unnest(${batch.map((p) => p.counter)}::text[], ${batch.map((p) => BigInt(p.hits))}::int8[],
                    ${batch.map((p) => BigInt(p.windowMs))}::int8[]) WITH ORDINALITY AS t(counter, hits, window_ms, ord)
        ORDER BY t.ord
        ON CONFLICT (counter) DO UPDATE SET
          count = CASE WHEN c.expires_at > now() THEN c.count + EXCLUDED.count ELSE EXCLUDED.count END,
          expires_at = CASE WHEN c.expires_at > now() THEN c.expires_at ELSE EXCLUDED.expires_at END
        RETURNING counter, count::text AS count, ceil(extract(epoch FROM (expires_at - now())) * 1000)::text AS reset_ms`

    let queue: Array<Pending> = []
    let sending = false
    let armed = false
    const failed = (cause: unknown) => Effect.fail(new RateLimitStoreError({ store: "postgres", cause }))

    const send = () => {
      armed = false
      if (sending || queue.length === 0) return
      const seen = new Set<string>()
      const batch: Array<Pending> = []
      const later: Array<Pending> = []
      for (const p of queue) {
        if (seen.has(p.counter)) later.push(p)
        else {
          seen.add(p.counter)
          batch.push(p)
        }
      }
      queue = later
      batch.sort((a, b) => (a.counter < b.counter ? -1 : a.counter > b.counter ? 1 : 0))
      sending = true
      let answered = false
      const answer = (exit: Exit.Exit<ReadonlyArray<{ counter: string; count: string; resetMs: string }>, unknown>) => {
        if (answered) return
        answered = true
        sending = false
        if (Exit.isSuccess(exit)) {
          const rows = new Map(exit.value.map((r) => [r.counter, r]))
          for (const p of batch) {
            const row = rows.get(p.counter)
            p.resume(
              row === undefined
                ? failed(new Error(`no row returned for ${p.counter}`))
                : Effect.succeed({ count: Number(row.count), resetMs: Math.max(0, Number(row.resetMs)) })
            )
          }
        } else {
          const cause = Cause.squash(exit.cause)
          for (const p of batch) p.resume(failed(cause))
        }
        // What was asked for meanwhile goes at once, as one statement.
        send()
      }
      const fiber = Effect.runForkWith(context)(Effect.onExit(upsert(batch), (exit) => Effect.sync(() => answer(exit))))
      Fiber.runIn(fiber, scope)
    }

    return RateLimitStore.of({
      name: "postgres",
      increment: (counter, hits, windowMs) =>
        Effect.callback<WindowCount, RateLimitStoreError>((resume) => {
          queue.push({ counter, hits, windowMs, resume })
          if (!sending && !armed) {
            armed = true
            // The rest of this turn's requests join the statement.
            setImmediate(send)
          }
        })
    })
  })
)
