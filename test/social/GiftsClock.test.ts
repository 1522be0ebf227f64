import { assert, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { Gifts } from "../../src/client-api/social/gifts/Gifts.ts"
import { GiftsConfig } from "../../src/client-api/social/gifts/GiftsConfig.ts"
import { type CycleRow, GiftsRepo, scheduledCycleAt } from "../../src/client-api/social/gifts/GiftsRepo.ts"

/** The ticket rules against the Effect clock, with an in-memory repository (the SQL side is Gifts.test.ts). */
const InMemoryRepo = Layer.sync(GiftsRepo, () => {
  let last = Option.none<CycleRow>()
  const claims = new Map<string, { amount: string; streak: number; claimedAt: Date }>()
  const current = (now: Date, lengthMs: number) => {
    if (Option.isSome(last) && last.value.endsAt > now) return last.value
    const next: CycleRow = { ...scheduledCycleAt(last, now, lengthMs), openedBy: "schedule" }
    last = Option.some(next)
    return next
  }
  return GiftsRepo.of({
    currentCycle: (now, lengthMs) => Effect.sync(() => current(now, lengthMs)),
    claimOf: (cycle, user) =>
      Effect.sync(() =>
        Option.map(Option.fromNullishOr(claims.get(`${cycle}/${user}`)), (c) => ({ cycleNumber: cycle, ...c }))
      ),
    nextStreak: () => Effect.succeed(1),
    totalCredits: (user) =>
      Effect.sync(() =>
        [...claims]
          .filter(([k]) => k.endsWith(`/${user}`))
          .reduce((s, [, c]) => s + BigInt(c.amount), 0n)
          .toString()
      ),
    claim: ({ amount, cycleNumber, now, streak, userId }) =>
      Effect.sync(() => {
        if (Option.isNone(last) || last.value.number !== cycleNumber || last.value.endsAt <= now)
          return "cycle_closed" as const
        if (claims.has(`${cycleNumber}/${userId}`)) return "already_claimed" as const
        claims.set(`${cycleNumber}/${userId}`, { amount, streak, claimedAt: now })
        return "claimed" as const
      }),
    reset: () => Effect.die("not used")
  })
})

const TestGifts = Gifts.layerWith(Buffer.alloc(32, 1)).pipe(
  Layer.provide(InMemoryRepo),
  Layer.provide(
    Layer.succeed(
      GiftsConfig,
      GiftsConfig.of({ cycleSeconds: 86_400, amountWei: 1000n, maxStreak: 7, ticketTtlSeconds: 300 })
    )
  )
)

it.effect("a ticket expires GIFT_TICKET_TTL_SECONDS after prepare, and never outlives its cycle", () =>
  Effect.gen(function* () {
    const gifts = yield* Gifts
    yield* TestClock.setTime(Date.parse("2026-11-22T08:00:00Z"))
    const p = yield* gifts.prepare("u1")
    assert.strictEqual(p.ticketExpiresAt, "2026-11-22T08:05:00.000Z")
    yield* TestClock.adjust("301 seconds")
    const expired = yield* Effect.flip(gifts.claim("u1", p.ticket))
    assert.strictEqual(expired.code, "GIFT_TICKET_EXPIRED")

    // A ticket prepared just before midnight is capped at the cycle's end, and the next cycle refuses it.
    yield* TestClock.setTime(Date.parse("2026-11-22T23:59:00Z"))
    const late = yield* gifts.prepare("u2")
    assert.strictEqual(late.ticketExpiresAt, "2026-11-23T00:00:00.000Z")
    yield* TestClock.adjust("30 seconds")
    assert.strictEqual((yield* gifts.claim("u2", late.ticket)).amount, "1000")
    const tooLate = yield* gifts.prepare("u3")
    yield* TestClock.setTime(Date.parse("2026-11-23T00:00:00Z"))
    const refused = yield* Effect.flip(gifts.claim("u3", tooLate.ticket))
    assert.strictEqual(refused.code, "GIFT_TICKET_EXPIRED", "capped at the cycle's end")
    const status = yield* gifts.status("u2")
    assert.deepStrictEqual(
      [status.cycle.startedAt, status.state],
      ["2026-11-23T00:00:00.000Z", "UNCLAIMED"],
      "a new day, a new cycle"
    )
  }).pipe(Effect.provide(TestGifts))
)
