import { assert, layer } from "@effect/vitest"
import { Effect, Schedule, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { parseEther } from "viem"
import { defaultIndexerSettings } from "../../src/indexer/IndexerConfig.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { scopedSeededDevnet, swap } from "./devnet.ts"
import { indexerLayer } from "./harness.ts"

const lockKey = defaultIndexerSettings(31337).lockKey

layer(TestDatabase, { timeout: "120 seconds", excludeTestServices: true })("indexer single writer", (it) => {
  it.effect(
    "when the lock's connection is terminated and another session takes the lock, the indexer writes nothing until it gets the lock back",
    () =>
      Effect.gen(function* () {
        const { d } = yield* scopedSeededDevnet
        const sql = yield* SqlClient.SqlClient
        const checkpoint = sql<{ n: string }>`SELECT block_number::text AS n FROM indexer_checkpoints`.pipe(
          Effect.map((rows) => BigInt(rows[0]!.n))
        )
        const swapCount = sql<{ n: string }>`SELECT count(*)::text AS n FROM swaps`.pipe(
          Effect.map((rows) => Number(rows[0]!.n))
        )

        yield* Effect.gen(function* () {
          const status = yield* IndexerStatus
          const head = yield* Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))
          yield* status.awaitBlock(head, "30 seconds")
          const swapsBefore = yield* swapCount

          // The backend holding the writer lock in this database (bigint key: objid = its low 32 bits, objsubid 1).
          const holders = yield* sql<{ pid: number }>`
          SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND objid = ${lockKey}::oid
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`
          assert.strictEqual(holders.length, 1)
          // "Another process": a session of ours that takes the lock as soon as the server releases it.
          const other = yield* sql.reserve
          yield* sql`SELECT pg_terminate_backend(${holders[0]!.pid})`
          yield* other.executeUnprepared(`SELECT pg_advisory_lock(${lockKey})`, [], undefined)

          // New blocks the indexer sees and would index: its commit must notice that the lock is gone.
          yield* Effect.promise(() => swap(d, d.accounts.buyer, d.stable, d.uni.weth, 3000, parseEther("10")))
          const newHead = yield* Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))
          // It stops (writing nothing), restarts and waits for the lock that the other session holds.
          const stopped = yield* status.changes.pipe(
            Stream.filter((s) => s.phase === "waiting-for-lock"),
            Stream.runHead,
            Effect.timeout("30 seconds")
          )
          assert.isTrue(stopped._tag === "Some")
          assert.strictEqual(yield* checkpoint, head)
          assert.strictEqual(yield* swapCount, swapsBefore)

          // The other session lets go: the indexer takes the lock again and indexes the new blocks once.
          yield* other.executeUnprepared(`SELECT pg_advisory_unlock(${lockKey})`, [], undefined)
          yield* status.awaitBlock(newHead, "30 seconds")
          yield* checkpoint.pipe(
            Effect.repeat({ until: (n) => n >= newHead, schedule: Schedule.spaced("20 millis") }),
            Effect.timeout("10 seconds")
          )
          assert.strictEqual(yield* swapCount, swapsBefore + 1)
        }).pipe(Effect.provide(indexerLayer(d)))
      }).pipe(Effect.scoped),
    120_000
  )
})
