import { assert, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Queue } from "effect"
import {
  CHANGES_CHANNEL,
  type ChangeMessage,
  encodeChange,
  NOTIFY_PAYLOAD_LIMIT
} from "../../src/indexer/IndexerChangeFeed.ts"
import { TestDatabase } from "../support/TestDatabase.ts"

/**
 * The indexer's change message carries the touched pools when they fit in a NOTIFY payload (PostgreSQL refuses 8,000
 * bytes or more), else goes without them (listeners then reload every pool: src/exchange-api/quotes/PoolSync.ts).
 * Sent and received through a real PostgreSQL LISTEN/NOTIFY.
 */
const message: ChangeMessage = {
  kind: "batch",
  origin: "test",
  chainId: 8453,
  fromBlock: "23000000",
  toBlock: "23000001",
  pools: 0,
  tokens: 0,
  status: { phase: "following", eventsPerSecond: 1234, reorgs: 0, lastError: null, head: "23000001" },
  at: Date.now()
}
const pools = (n: number) => Array.from({ length: n }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`)

/** The largest pool list that still fits. */
const fitting = () => {
  let n = 0
  while (encodeChange({ ...message, pools: n + 1 }, pools(n + 1)).includes("poolAddresses")) n++
  return n
}

layer(TestDatabase, { excludeTestServices: true })("indexer change payload", (it) => {
  it.effect("the pool list goes along up to the limit and is dropped past it; both payloads go through NOTIFY", () =>
    Effect.gen(function* () {
      const pg = yield* PgClient.PgClient
      const max = fitting()
      assert.isAtLeast(max, 150, "a block's worth of pools fits")
      const received = yield* Effect.scoped(
        Effect.gen(function* () {
          const queue = yield* pg.listen(CHANGES_CHANNEL)
          for (const n of [max, max + 1, 5_000]) {
            const payload = encodeChange({ ...message, pools: n }, pools(n))
            assert.isBelow(payload.length, NOTIFY_PAYLOAD_LIMIT + 1)
            yield* pg.notify(CHANGES_CHANNEL, payload)
          }
          return yield* Effect.forEach([0, 1, 2], () => Queue.take(queue))
        })
      ).pipe(Effect.timeout("20 seconds"))
      const decoded = received.map((n) => JSON.parse(n.payload) as ChangeMessage)
      assert.deepStrictEqual(decoded[0]!.poolAddresses, pools(max))
      assert.isUndefined(decoded[1]!.poolAddresses)
      assert.isUndefined(decoded[2]!.poolAddresses)
      assert.deepStrictEqual(
        decoded.map((d) => d.pools),
        [max, max + 1, 5_000]
      )
    })
  )
})
