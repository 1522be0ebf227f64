import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Notifications } from "../../src/client-api/notifications/Notifications.ts"
import { bearer, client, postJson } from "../support/http.ts"
import { AccountsServer, newAccount, tokenFor } from "../sessions/support.ts"

const userIdOf = (token: string) =>
  Effect.map(client("/v1/users/me", { headers: bearer(token) }), (res) => res.body.id as string)

const withNotifications = <A, E, R>(f: (n: Notifications["Service"]) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Notifications, f).pipe(Effect.provide(Notifications.layer))

const fuel = (i: number) => ({
  chainId: 31337,
  token: "0x00000000000000000000000000000000000000aa",
  sender: "0x00000000000000000000000000000000000000bb",
  amount: `${i}000000000000000`,
  txHash: `0x${i.toString(16).padStart(64, "0")}`,
  logIndex: i,
  blockNumber: 100 + i
})

layer(AccountsServer(), { timeout: "90 seconds", excludeTestServices: true })("notifications", (it) => {
  it.effect("list newest first with stable keyset pages while new ones arrive; unread filter; unread count", () =>
    Effect.gen(function* () {
      const token = yield* tokenFor(newAccount())
      const userId = yield* userIdOf(token)
      yield* withNotifications((n) =>
        Effect.forEach([1, 2, 3, 4, 5], (i) => n.notify(userId, "FUEL_RECEIVED", fuel(i)))
      )
      const page1 = yield* client("/v1/notifications?limit=2", { headers: bearer(token) })
      assert.strictEqual(page1.status, 200)
      assert.deepStrictEqual(
        page1.body.items.map((x: any) => x.payload.logIndex),
        [5, 4]
      )
      assert.strictEqual(page1.body.items[0].kind, "FUEL_RECEIVED")
      // A new notification between pages neither shifts nor repeats the next page.
      yield* withNotifications((n) => n.notify(userId, "FUEL_RECEIVED", fuel(6)))
      const page2 = yield* client(`/v1/notifications?limit=2&cursor=${page1.body.nextCursor}`, {
        headers: bearer(token)
      })
      assert.deepStrictEqual(
        page2.body.items.map((x: any) => x.payload.logIndex),
        [3, 2]
      )
      const page3 = yield* client(`/v1/notifications?limit=2&cursor=${page2.body.nextCursor}`, {
        headers: bearer(token)
      })
      assert.deepStrictEqual(
        page3.body.items.map((x: any) => x.payload.logIndex),
        [1]
      )
      assert.isNull(page3.body.nextCursor)
      assert.deepStrictEqual((yield* client("/v1/notifications/unread-count", { headers: bearer(token) })).body, {
        unread: 6
      })

      const id = page2.body.items[0].id
      const read = yield* postJson(`/v1/notifications/${id}/read`, {}, bearer(token))
      assert.strictEqual(read.status, 200)
      assert.isString(read.body.readAt)
      const again = yield* postJson(`/v1/notifications/${id}/read`, {}, bearer(token))
      assert.deepStrictEqual(again.body, read.body, "marking read twice changes nothing")
      assert.deepStrictEqual((yield* client("/v1/notifications/unread-count", { headers: bearer(token) })).body, {
        unread: 5
      })
      const unread = yield* client("/v1/notifications?unread=true&limit=100", { headers: bearer(token) })
      assert.deepStrictEqual(
        unread.body.items.map((x: any) => x.payload.logIndex),
        [6, 5, 4, 2, 1]
      )
    })
  )

  it.effect("someone else's notification is 404; no session is 401; bad input is 400", () =>
    Effect.gen(function* () {
      const owner = yield* tokenFor(newAccount())
      const other = yield* tokenFor(newAccount())
      yield* withNotifications((n) => Effect.flatMap(userIdOf(owner), (id) => n.notify(id, "FUEL_RECEIVED", fuel(1))))
      const id = (yield* client("/v1/notifications", { headers: bearer(owner) })).body.items[0].id
      const res = yield* postJson(`/v1/notifications/${id}/read`, {}, bearer(other))
      assert.deepStrictEqual([res.status, res.body.code], [404, "NOTIFICATION_NOT_FOUND"])
      assert.strictEqual((yield* client("/v1/notifications")).status, 401)
      assert.strictEqual(
        (yield* client("/v1/notifications?limit=101", { headers: bearer(owner) })).body.code,
        "INVALID_QUERY"
      )
      assert.strictEqual(
        (yield* client("/v1/notifications?unread=yes", { headers: bearer(owner) })).body.code,
        "INVALID_QUERY"
      )
    })
  )

  it.effect(
    "a dedupe key notifies once, even under concurrent calls; mark-all and mark-one racing keep the count exact",
    () =>
      Effect.gen(function* () {
        const token = yield* tokenFor(newAccount())
        const userId = yield* userIdOf(token)
        const created = yield* withNotifications((n) =>
          Effect.all(
            Array.from({ length: 20 }, () =>
              n.notify(userId, "FUEL_RECEIVED", fuel(9), { dedupeKey: `test:${userId}` })
            ),
            {
              concurrency: "unbounded"
            }
          )
        )
        assert.strictEqual(created.filter(Boolean).length, 1)
        yield* withNotifications((n) => Effect.forEach([1, 2, 3, 4], (i) => n.notify(userId, "FUEL_RECEIVED", fuel(i))))
        const ids: Array<number> = (yield* client("/v1/notifications", { headers: bearer(token) })).body.items.map(
          (x: any) => x.id
        )
        assert.strictEqual(ids.length, 5)
        const results = yield* Effect.all(
          [
            postJson("/v1/notifications/read-all", {}, bearer(token)),
            ...ids.map((id) => postJson(`/v1/notifications/${id}/read`, {}, bearer(token))),
            postJson("/v1/notifications/read-all", {}, bearer(token))
          ],
          { concurrency: "unbounded" }
        )
        assert.isTrue(results.every((r) => r.status === 200))
        assert.deepStrictEqual((yield* client("/v1/notifications/unread-count", { headers: bearer(token) })).body, {
          unread: 0
        })
        yield* withNotifications((n) => n.notify(userId, "FUEL_RECEIVED", fuel(5)))
        assert.deepStrictEqual((yield* client("/v1/notifications/unread-count", { headers: bearer(token) })).body, {
          unread: 1
        })
      })
  )
})
