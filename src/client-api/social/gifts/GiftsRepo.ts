import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

export interface CycleRow {
  readonly number: number
  readonly startedAt: Date
  readonly endsAt: Date
  readonly openedBy: "schedule" | "admin_reset"
}

export interface ClaimRow {
  readonly cycleNumber: number
  readonly amount: string
  readonly streak: number
  readonly claimedAt: Date
}

/** The next scheduled cycle containing `now`: aligned to `length` after the previous cycle's end (or the epoch). */
export const scheduledCycleAt = (last: Option.Option<CycleRow>, now: Date, lengthMs: number) => {
  const anchor = Option.match(last, { onNone: () => 0, onSome: (c) => c.endsAt.getTime() })
  const start = anchor + Math.floor((now.getTime() - anchor) / lengthMs) * lengthMs
  return {
    number: Option.match(last, { onNone: () => 1, onSome: (c) => c.number + 1 }),
    startedAt: new Date(start),
    endsAt: new Date(start + lengthMs)
  }
}

/** All SQL of gift_cycles and gift_claims. Database failures are defects. */
export class GiftsRepo extends Context.Service<
  GiftsRepo,
  {
    /** The open cycle at `now`, creating the scheduled one if the last has ended (concurrent callers agree on one). */
    readonly currentCycle: (now: Date, lengthMs: number) => Effect.Effect<CycleRow>
    readonly claimOf: (cycleNumber: number, userId: string) => Effect.Effect<Option.Option<ClaimRow>>
    /** The streak a claim in `cycle` would have: 1 + the claim of the directly preceding cycle, if any. */
    readonly nextStreak: (cycle: CycleRow, userId: string) => Effect.Effect<number>
    readonly totalCredits: (userId: string) => Effect.Effect<string>
    /**
     * Inserts the claim if the cycle is still open at `now` and the user has none in it, in one transaction holding a
     * share lock on the cycle row (a reset waits for it). The primary key (cycle, user) makes it happen once.
     */
    readonly claim: (input: {
      readonly cycleNumber: number
      readonly userId: string
      readonly amount: string
      readonly streak: number
      readonly now: Date
    }) => Effect.Effect<"claimed" | "already_claimed" | "cycle_closed">
    /** Ends the open cycle at `now` and opens the next (number + 1) for `lengthMs`, locking the cycle row. */
    readonly reset: (
      now: Date,
      lengthMs: number,
      adminId: string
    ) => Effect.Effect<{ closed: CycleRow; opened: CycleRow }>
  }
>()("app/gifts/GiftsRepo") {
  static readonly layer = Layer.effect(
    GiftsRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const latest = (lock: boolean) =>
        sql<CycleRow>`SELECT number, started_at, ends_at, opened_by FROM gift_cycles ORDER BY number DESC LIMIT 1
          ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.map((rows) => Option.fromNullishOr(rows[0])))

      const currentCycle = (now: Date, lengthMs: number): Effect.Effect<CycleRow> =>
        Effect.gen(function* () {
          const last = yield* latest(false)
          if (Option.isSome(last) && last.value.endsAt.getTime() > now.getTime()) return last.value
          const next = scheduledCycleAt(last, now, lengthMs)
          yield* sql`
            INSERT INTO gift_cycles (number, started_at, ends_at, opened_by)
            VALUES (${next.number}, ${next.startedAt}, ${next.endsAt}, 'schedule')
            ON CONFLICT (number) DO NOTHING`
          // Another process may have inserted it (or a reset opened one): read what is there now.
          return Option.getOrThrow(yield* latest(false))
        }).pipe(Effect.orDie)

      const claimOf = (cycleNumber: number, userId: string) =>
        sql<ClaimRow>`SELECT cycle_number, amount::text AS amount, streak, claimed_at FROM gift_claims
          WHERE cycle_number = ${cycleNumber} AND user_id = ${userId}`.pipe(
          Effect.map((rows) => Option.fromNullishOr(rows[0])),
          Effect.orDie
        )

      return GiftsRepo.of({
        currentCycle,
        claimOf,
        nextStreak: (cycle, userId) =>
          sql<{ streak: number }>`
            SELECT c.streak FROM gift_claims c JOIN gift_cycles p ON p.number = c.cycle_number
            WHERE c.user_id = ${userId} AND c.cycle_number = ${cycle.number - 1} AND p.ends_at = ${cycle.startedAt}`.pipe(
            Effect.map((rows) => (rows[0]?.streak ?? 0) + 1),
            Effect.orDie
          ),
        totalCredits: (userId) =>
          sql<{
            total: string
          }>`SELECT coalesce(sum(amount), 0)::text AS total FROM gift_claims WHERE user_id = ${userId}`.pipe(
            Effect.map((rows) => rows[0]?.total ?? "0"),
            Effect.orDie
          ),
        claim: ({ amount, cycleNumber, now, streak, userId }) =>
          sql
            .withTransaction(
              Effect.gen(function* () {
                const cycle = yield* sql<{
                  endsAt: Date
                }>`SELECT ends_at FROM gift_cycles WHERE number = ${cycleNumber} FOR SHARE`
                if (cycle[0] === undefined || cycle[0].endsAt.getTime() <= now.getTime()) return "cycle_closed" as const
                const inserted = yield* sql`
              INSERT INTO gift_claims (cycle_number, user_id, amount, streak, claimed_at)
              VALUES (${cycleNumber}, ${userId}, ${amount}, ${streak}, ${now})
              ON CONFLICT (cycle_number, user_id) DO NOTHING
              RETURNING 1`
                return inserted.length === 1 ? ("claimed" as const) : ("already_claimed" as const)
              })
            )
            .pipe(Effect.orDie),
        reset: (now, lengthMs, adminId) =>
          Effect.gen(function* () {
            yield* currentCycle(now, lengthMs)
            return yield* sql.withTransaction(
              Effect.gen(function* () {
                const open = Option.getOrThrow(yield* latest(true))
                const endedAt = open.endsAt.getTime() > now.getTime() ? now : open.endsAt
                yield* sql`UPDATE gift_cycles SET ends_at = ${endedAt} WHERE number = ${open.number}`
                const opened: CycleRow = {
                  number: open.number + 1,
                  startedAt: endedAt,
                  endsAt: new Date(endedAt.getTime() + lengthMs),
                  openedBy: "admin_reset"
                }
                yield* sql`
                INSERT INTO gift_cycles (number, started_at, ends_at, opened_by, reset_by)
                VALUES (${opened.number}, ${opened.startedAt}, ${opened.endsAt}, 'admin_reset', ${adminId})`
                return { closed: { ...open, endsAt: endedAt }, opened }
              })
            )
          }).pipe(Effect.orDie)
      })
    })
  )
}
