import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { client, newAccount } from "../sessions/support.ts"
import { SocialServer } from "./support.ts"

// One refresh at start, the next an hour later: within this test, only the startup computation exists.
layer(SocialServer({ COMPETITION_REFRESH_SECONDS: "3600" }, ["client"]), { timeout: "90 seconds", excludeTestServices: true })(
  "leaderboards are precomputed",
  (it) => {
    it.effect("a read serves the last refresh: new activity does not show until the next one", () =>
      Effect.gen(function*() {
        const first = yield* client("/v1/competition/stats?period=all").pipe(
          Effect.repeat({ until: (r) => r.body.computedAt !== null, schedule: Schedule.spaced("50 millis") }),
          Effect.timeout("30 seconds"),
          Effect.orDie
        )
        const sql = yield* SqlClient.SqlClient
        const whale = newAccount().address.toLowerCase()
        // An indexed tip far above any other (written the way the indexer writes it).
        yield* sql`INSERT INTO fuel_events (chain_id, block_number, log_index, tx_hash, block_timestamp, kind, token, sender, creator, amount)
          VALUES (31337, 999999999, 0, '0x00', now(), 'given', ${whale}, ${whale}, ${whale}, 10000000000000000000000)`
        const direct = yield* sql<{ sender: string }>`SELECT sender FROM fuel_events WHERE kind = 'given' GROUP BY sender ORDER BY sum(amount) DESC LIMIT 1`
        assert.strictEqual(direct[0]!.sender, whale, "a direct computation sees it at once")
        const again = yield* client("/v1/competition/stats?period=all")
        assert.strictEqual(again.body.computedAt, first.body.computedAt)
        assert.deepStrictEqual(again.body.boards, first.body.boards, "the precomputed boards are unchanged")
      }))
  }
)
