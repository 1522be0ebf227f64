import { assert, layer } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Redacted, Schedule, Scope, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { spawn } from "node:child_process"
import { parseEther } from "viem"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { write } from "../contracts/chain.ts"
import { TestDatabase, TestDatabaseInfo } from "../support/TestDatabase.ts"
import { erc20, ignite, scopedSeededDevnet, swap } from "./devnet.ts"
import { dumpTables, indexerLayer } from "./harness.ts"

const checkpoint = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`SELECT block_number FROM indexer_checkpoints`.pipe(
    Effect.map((rows) => (rows[0] === undefined ? -1n : BigInt((rows[0] as { blockNumber: bigint }).blockNumber)))
  )
)

/** Polls the checkpoint another process commits until `until` holds (bounded: 30 s). */
const awaitCheckpoint = (until: (n: bigint) => boolean) =>
  checkpoint.pipe(Effect.repeat({ until, schedule: Schedule.spaced("20 millis") }), Effect.timeout("30 seconds"))

layer(TestDatabase, { timeout: "120 seconds", excludeTestServices: true })("indexer crash and restart", (it) => {
  it.effect(
    "SIGKILL mid-backfill, a second indexer waits for the lock, then resumes: no gap, no duplicate; a launch made while it was down is indexed",
    () =>
      Effect.gen(function* () {
        const { d } = yield* scopedSeededDevnet
        const seededHead = yield* Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))
        const info = yield* TestDatabaseInfo

        // Process 1 indexes one block per transaction so that it is killed in the middle of the backfill.
        const child = spawn(process.execPath, ["test/indexer/run-indexer.ts"], {
          env: {
            ...process.env,
            DATABASE_URL: Redacted.value(info.url),
            RPC_URL: d.anvil.rpcUrl,
            START_BLOCK: d.startBlock.toString(),
            CONTRACTS: JSON.stringify(d.contracts),
            INDEXER_MAX_BLOCK_RANGE: "1",
            FINALITY_DEPTH: "32"
          },
          stdio: ["ignore", "inherit", "inherit"]
        })
        yield* Effect.addFinalizer(() => Effect.sync(() => child.kill("SIGKILL")))
        yield* awaitCheckpoint((n) => n >= d.startBlock + 10n)

        // Process 2 (this one) starts while process 1 holds the writer lock: it waits.
        const scope = yield* Scope.make()
        const services = yield* Layer.buildWithScope(indexerLayer(d), scope)
        const status = Context.get(services, IndexerStatus)
        yield* status.changes.pipe(
          Stream.filter((s) => s.phase === "waiting-for-lock"),
          Stream.runHead,
          Effect.timeout("10 seconds")
        )

        const killedAt = yield* checkpoint
        child.kill("SIGKILL")
        assert.isBelow(Number(killedAt), Number(seededHead), "killed before the end of the backfill")

        // While no indexer writes: a new launch (its token and pool come from factory events) with trades.
        const { buyer, creatorB, other } = d.accounts
        const late = yield* Effect.promise(() => ignite(d, creatorB, "Late"))
        yield* Effect.promise(() => swap(d, buyer, d.uni.weth, late.token, late.fee, parseEther("0.3")))
        yield* Effect.promise(async () => {
          const balance = await d.chain.public.readContract({
            address: late.token,
            abi: erc20Balance,
            functionName: "balanceOf",
            args: [buyer]
          })
          await write(d.chain, buyer, late.token, erc20, "transfer", [other, balance / 3n])
        })
        const head = yield* Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))

        yield* status.awaitBlock(head, "60 seconds")
        const resumed = yield* dumpTables
        yield* Scope.close(scope, Exit.void)

        const fresh = yield* Effect.gen(function* () {
          yield* (yield* IndexerStatus).awaitBlock(head, "60 seconds")
          return yield* dumpTables
        }).pipe(Effect.provide(indexerLayer(d).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)))))
        for (const table of Object.keys(fresh)) assert.strictEqual(resumed[table], fresh[table], `table ${table}`)
        assert.include(resumed.launches, late.token.toLowerCase())
        assert.include(resumed.token_balances, late.token.toLowerCase())
        assert.include(resumed.pools, late.pool.toLowerCase())
      }).pipe(Effect.scoped),
    120_000
  )
})

const erc20Balance = [
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "a", type: "address" }],
    outputs: [{ name: "", type: "uint256" }]
  }
] as const
