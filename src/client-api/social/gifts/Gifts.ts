import { Clock, Context, Effect, Layer, Option } from "effect"
import { BadRequest, Conflict } from "../../../platform/ApiError.ts"
import { generatedSecret } from "../../../platform/GeneratedSecret.ts"
import { GiftClaim, GiftCycle, GiftCycleReset, GiftPreparation, GiftStatus } from "./Gift.ts"
import { GiftsConfig } from "./GiftsConfig.ts"
import { type CycleRow, GiftsRepo } from "./GiftsRepo.ts"
import { signTicket, verifyTicket } from "./GiftTickets.ts"

const toCycle = (c: CycleRow) =>
  new GiftCycle({
    number: c.number,
    startedAt: c.startedAt.toISOString(),
    endsAt: c.endsAt.toISOString(),
    openedBy: c.openedBy
  })

const alreadyClaimed = (cycle: number) =>
  new Conflict({
    code: "GIFT_ALREADY_CLAIMED",
    message: `The gift of cycle ${cycle} was already claimed`,
    details: { cycle }
  })
const cycleChanged = () =>
  new Conflict({ code: "GIFT_CYCLE_CHANGED", message: "The cycle of this ticket has ended: prepare again" })

/** The gift cycle and claims (rules in Gift.ts). */
export class Gifts extends Context.Service<
  Gifts,
  {
    readonly status: (userId: string) => Effect.Effect<GiftStatus>
    readonly prepare: (userId: string) => Effect.Effect<GiftPreparation, Conflict>
    readonly claim: (userId: string, ticket: string) => Effect.Effect<GiftClaim, BadRequest | Conflict>
    readonly resetCycle: (adminId: string) => Effect.Effect<GiftCycleReset>
  }
>()("app/gifts/Gifts") {
  /** With the ticket key generated once and kept in `app_settings` (shared by every process). */
  static readonly layer = Layer.unwrap(Effect.map(generatedSecret("gift_ticket_key"), (key) => Gifts.layerWith(key)))

  static readonly layerWith = (key: Buffer) =>
    Layer.effect(
      Gifts,
      Effect.gen(function* () {
        const repo = yield* GiftsRepo
        const config = yield* GiftsConfig
        const lengthMs = config.cycleSeconds * 1000
        const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
        const amountFor = (streak: number) => (config.amountWei * BigInt(Math.min(streak, config.maxStreak))).toString()

        const status = Effect.fn("Gifts.status")(function* (userId: string) {
          const cycle = yield* repo.currentCycle(yield* now, lengthMs)
          const [claim, total, streak] = yield* Effect.all(
            [repo.claimOf(cycle.number, userId), repo.totalCredits(userId), repo.nextStreak(cycle, userId)],
            { concurrency: "unbounded" }
          )
          return new GiftStatus({
            cycle: toCycle(cycle),
            state: Option.isSome(claim) ? "CLAIMED" : "UNCLAIMED",
            claimed: Option.isSome(claim),
            claimedAt: Option.match(claim, { onNone: () => null, onSome: (c) => c.claimedAt.toISOString() }),
            amount: Option.match(claim, { onNone: () => amountFor(streak), onSome: (c) => c.amount }),
            streak: Option.match(claim, { onNone: () => streak, onSome: (c) => c.streak }),
            nextResetAt: cycle.endsAt.toISOString(),
            totalCredits: total
          })
        })

        const prepare = Effect.fn("Gifts.prepare")(function* (userId: string) {
          const at = yield* now
          const cycle = yield* repo.currentCycle(at, lengthMs)
          if (Option.isSome(yield* repo.claimOf(cycle.number, userId))) return yield* alreadyClaimed(cycle.number)
          const streak = yield* repo.nextStreak(cycle, userId)
          const amount = amountFor(streak)
          const expiresAtMs = Math.min(at.getTime() + config.ticketTtlSeconds * 1000, cycle.endsAt.getTime())
          return new GiftPreparation({
            cycle: toCycle(cycle),
            amount,
            streak,
            ticket: signTicket(key, { userId, cycle: cycle.number, amount, streak, expiresAtMs }),
            ticketExpiresAt: new Date(expiresAtMs).toISOString()
          })
        })

        const claim = Effect.fn("Gifts.claim")(function* (userId: string, ticket: string) {
          const claims = verifyTicket(key, ticket)
          if (Option.isNone(claims) || claims.value.userId !== userId) {
            return yield* new BadRequest({
              code: "INVALID_GIFT_TICKET",
              message: "This ticket was not issued to you by GET /v1/gifts/prepare"
            })
          }
          const t = claims.value
          const at = yield* now
          if (t.expiresAtMs <= at.getTime()) {
            return yield* new BadRequest({
              code: "GIFT_TICKET_EXPIRED",
              message: "The ticket has expired: prepare again"
            })
          }
          const cycle = yield* repo.currentCycle(at, lengthMs)
          if (cycle.number !== t.cycle) return yield* cycleChanged()
          const outcome = yield* repo.claim({
            cycleNumber: t.cycle,
            userId,
            amount: t.amount,
            streak: t.streak,
            now: at
          })
          if (outcome === "already_claimed") return yield* alreadyClaimed(t.cycle)
          if (outcome === "cycle_closed") return yield* cycleChanged()
          return new GiftClaim({
            cycle: toCycle(cycle),
            amount: t.amount,
            streak: t.streak,
            claimedAt: at.toISOString(),
            totalCredits: yield* repo.totalCredits(userId)
          })
        })

        return Gifts.of({
          status,
          prepare,
          claim,
          resetCycle: (adminId) =>
            Effect.flatMap(now, (at) => repo.reset(at, lengthMs, adminId)).pipe(
              Effect.map(
                ({ closed, opened }) => new GiftCycleReset({ closed: toCycle(closed), opened: toCycle(opened) })
              ),
              Effect.withSpan("Gifts.resetCycle")
            )
        })
      })
    )
}
