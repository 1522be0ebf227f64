import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { Leaderboards } from "../../src/client-api/social/competition/Leaderboards.ts"
import { SocialRefreshConfig } from "../../src/client-api/social/competition/SocialRefreshConfig.ts"
import { client } from "../support/http.ts"
import { newAccount } from "../sessions/support.ts"
import { SocialServer } from "./support.ts"

/** An indexed tip of `amount` wei by a new wallet (written the way the indexer writes it); returns the wallet. */
let logIndex = 0
const tip = (amount: bigint) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const wallet = newAccount().address.toLowerCase()
    yield* sql`INSERT INTO fuel_events (chain_id, block_number, log_index, tx_hash, block_timestamp, kind, token, sender, creator, amount)
      VALUES (31337, 999999999, ${logIndex++}, '0x00', now(), 'given', ${wallet}, ${wallet}, ${wallet}, ${amount.toString()})`
    return wallet
  })

const stats = client("/v1/competition/stats?period=all")
const givers = (res: { body: any }) =>
  (res.body.boards.fuelGiven as Array<{ walletAddress: string }>).map((e) => e.walletAddress.toLowerCase())

/** The server's first computation (at start). */
const firstComputation = stats.pipe(
  Effect.repeat({ until: (r) => r.body.computedAt !== null, schedule: Schedule.spaced("50 millis") }),
  Effect.timeout("30 seconds"),
  Effect.orDie
)

/** A refresh run by another API node on the same database (what the client service's own schedule runs). */
const refreshElsewhere = Effect.flatMap(Leaderboards, (boards) => boards.refresh).pipe(
  Effect.provide(Leaderboards.layer.pipe(Layer.provide(SocialRefreshConfig.layer)))
)

// One refresh at start, the next an hour later: within this test, the server itself never recomputes.
layer(SocialServer({ COMPETITION_REFRESH_SECONDS: "3600" }, ["client"]), {
  timeout: "90 seconds",
  excludeTestServices: true
})("leaderboards are precomputed", (it) => {
  it.effect("a read serves the last refresh: new activity does not show until the next one", () =>
    Effect.gen(function* () {
      const first = yield* firstComputation
      // A computation that has something on its board, so that "unchanged" below is not "still empty".
      const whale = yield* tip(10n ** 22n)
      yield* refreshElsewhere
      const refreshed = yield* stats
      assert.isAbove(Date.parse(refreshed.body.computedAt), Date.parse(first.body.computedAt))
      assert.deepStrictEqual(givers(refreshed), [whale])

      const bigger = yield* tip(10n ** 23n)
      const sql = yield* SqlClient.SqlClient
      const direct = yield* sql<{
        sender: string
      }>`SELECT sender FROM fuel_events WHERE kind = 'given' GROUP BY sender ORDER BY sum(amount) DESC LIMIT 1`
      assert.strictEqual(direct[0]!.sender, bigger, "a direct computation sees it at once")
      const again = yield* stats
      assert.strictEqual(again.body.computedAt, refreshed.body.computedAt)
      assert.deepStrictEqual(again.body.boards, refreshed.body.boards, "the precomputed boards are unchanged")
      assert.deepStrictEqual(givers(again), [whale])
    })
  )
})

layer(SocialServer({ COMPETITION_REFRESH_SECONDS: "1" }, ["client"]), {
  timeout: "90 seconds",
  excludeTestServices: true
})("leaderboards refresh on their schedule", (it) => {
  it.effect("new activity shows once the server's next scheduled refresh has run", () =>
    Effect.gen(function* () {
      const first = yield* firstComputation
      const whale = yield* tip(10n ** 22n)
      // Bounded wait on what the route shows: a later computation that has the tip.
      const later = yield* stats.pipe(
        Effect.repeat({ until: (r) => givers(r).includes(whale), schedule: Schedule.spaced("100 millis") }),
        Effect.timeout("30 seconds"),
        Effect.orDie
      )
      assert.isAbove(Date.parse(later.body.computedAt), Date.parse(first.body.computedAt))
      assert.deepStrictEqual(givers(later), [whale])
    })
  )
})
