import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import { scheduledCycleAt } from "../../src/client-api/social/gifts/GiftsRepo.ts"
import { signTicket, verifyTicket } from "../../src/client-api/social/gifts/GiftTickets.ts"

const day = 86_400_000

describe("gift cycle schedule and tickets (pure)", () => {
  it("the first cycle is the UTC day containing now; later ones align to the previous end, skipping idle cycles", () => {
    const now = new Date("2026-11-22T07:50:00Z")
    const first = scheduledCycleAt(Option.none(), now, day)
    assert.deepStrictEqual(
      [first.number, first.startedAt.toISOString(), first.endsAt.toISOString()],
      [1, "2026-11-22T00:00:00.000Z", "2026-11-23T00:00:00.000Z"]
    )
    // After an admin reset at 10:00 the schedule follows that cycle's end (10:00 the next day), in whole cycles.
    const last = {
      number: 5,
      startedAt: new Date("2026-11-20T10:00:00Z"),
      endsAt: new Date("2026-11-21T10:00:00Z"),
      openedBy: "admin_reset" as const
    }
    const next = scheduledCycleAt(Option.some(last), now, day)
    assert.deepStrictEqual(
      [next.number, next.startedAt.toISOString(), next.endsAt.toISOString()],
      [6, "2026-11-21T10:00:00.000Z", "2026-11-22T10:00:00.000Z"]
    )
    const later = scheduledCycleAt(Option.some(last), new Date("2026-11-25T09:00:00Z"), day)
    assert.strictEqual(later.startedAt.toISOString(), "2026-11-24T10:00:00.000Z")
  })

  it("a ticket verifies only with its key and unchanged", () => {
    const key = Buffer.alloc(32, 7)
    const claims = { userId: "u1", cycle: 3, amount: "1000", streak: 2, expiresAtMs: 1_800_000_000_000 }
    const ticket = signTicket(key, claims)
    assert.deepStrictEqual(verifyTicket(key, ticket), Option.some(claims))
    assert.isTrue(Option.isNone(verifyTicket(Buffer.alloc(32, 8), ticket)))
    assert.isTrue(Option.isNone(verifyTicket(key, ticket.replace(".1000.", ".1001."))))
    assert.isTrue(Option.isNone(verifyTicket(key, `${ticket}x`)))
    assert.isTrue(Option.isNone(verifyTicket(key, "v1.a.b")))
  })
})
