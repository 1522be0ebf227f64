import { assert, layer } from "@effect/vitest"
import { Effect, Option, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { IndexerEvents } from "../../src/indexer/IndexerEvents.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { ignite, scopedSeededDevnet, swap } from "./devnet.ts"
import { indexerLayer } from "./harness.ts"
import { parseEther } from "viem"

const launchRows = (token: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT token FROM launches WHERE token = ${token.toLowerCase()}`)

layer(TestDatabase, { timeout: "120 seconds", excludeTestServices: true })("indexer change events", (it) => {
  it.effect(
    "a new launch is announced after its batch committed; a reorg that removes it is announced too",
    () =>
      Effect.gen(function* () {
        const { d } = yield* scopedSeededDevnet
        yield* Effect.gen(function* () {
          const status = yield* IndexerStatus
          yield* status.awaitBlock(
            yield* Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 })),
            "30 seconds"
          )
          const changes = yield* (yield* IndexerEvents).subscribe

          const snapshot = yield* Effect.promise(() => d.chain.test.snapshot())
          const launched = yield* Effect.promise(() => ignite(d, d.accounts.creatorA, "Announced"))
          const change = yield* changes.pipe(
            Stream.filter((c) => c.launches.includes(launched.token.toLowerCase())),
            Stream.runHead,
            Effect.timeout("30 seconds")
          )
          assert.isTrue(Option.isSome(change))
          assert.strictEqual(change.pipe(Option.getOrThrow).kind, "batch")
          assert.include(change.pipe(Option.getOrThrow).pools, launched.pool.toLowerCase())
          // Published after commit: a reader that looks on receipt sees the row.
          assert.strictEqual((yield* launchRows(launched.token)).length, 1)

          yield* Effect.promise(() => d.chain.test.revert({ id: snapshot }))
          yield* Effect.promise(() => swap(d, d.accounts.buyer, d.stable, d.uni.weth, 3000, parseEther("10")))
          yield* Effect.promise(() => swap(d, d.accounts.buyer, d.stable, d.uni.weth, 3000, parseEther("11")))
          const reorg = yield* changes.pipe(
            Stream.filter((c) => c.kind === "reorg"),
            Stream.runHead,
            Effect.timeout("30 seconds")
          )
          assert.isTrue(Option.isSome(reorg))
          assert.include(reorg.pipe(Option.getOrThrow).tokens, launched.token.toLowerCase())
          assert.strictEqual((yield* launchRows(launched.token)).length, 0)
        }).pipe(Effect.provide(indexerLayer(d)))
      }).pipe(Effect.scoped),
    120_000
  )
})
