import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { parseEther } from "viem"
import { FuelVaultAbi } from "../../contracts/generated/index.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { write } from "../contracts/chain.ts"
import { TestDatabase } from "../layers/TestDatabase.ts"
import { type Devnet, erc20, ignite, seed, startDevnet, swap } from "./devnet.ts"
import { dumpTables, indexerLayer } from "./harness.ts"

type Seeded = Awaited<ReturnType<typeof seed>>

/**
 * `blocks` blocks of activity, one transaction each, varied by `salt` so that two branches differ: swaps on a launch
 * pool and on the stablecoin pool, token transfers, fuel, and (from 5 blocks) a new launch with its pool.
 */
const branch = async (d: Devnet, s: Seeded, blocks: number, salt: number) => {
  const { buyer, other, giver, creatorA } = d.accounts
  for (let i = 0; i < blocks; i++) {
    const amount = parseEther("0.01") * BigInt(1 + ((i + salt) % 7))
    if (i === 2 && blocks >= 5) await ignite(d, creatorA, `Fork${salt}x${i}`)
    else if (i % 4 === 0) await swap(d, buyer, d.uni.weth, s.a.token, s.a.fee, amount)
    else if (i % 4 === 1) await write(d.chain, buyer, s.a.token, erc20, "transfer", [other, amount * 1000n])
    else if (i % 4 === 2) await swap(d, buyer, d.stable, d.uni.weth, 3000, amount * 3000n)
    else await write(d.chain, giver, d.pad.fuelVault, FuelVaultAbi, "give", [s.b.token], amount)
  }
}

const head = (d: Devnet) => Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))

/** Indexes a fresh database (Layer.fresh: not the file's memoized one) from the start block to `block` and dumps it. */
const freshDump = (d: Devnet, block: bigint) =>
  Effect.gen(function*() {
    yield* (yield* IndexerStatus).awaitBlock(block, "60 seconds")
    return yield* dumpTables
  }).pipe(Effect.provide(indexerLayer(d).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)))))

layer(TestDatabase, { timeout: "120 seconds", excludeTestServices: true })("indexer reorgs (anvil evm_snapshot/evm_revert)", (it) => {
  let d: Devnet
  let s: Seeded

  it.effect("devnet seeded", () =>
    Effect.gen(function*() {
      d = yield* Effect.promise(() => startDevnet())
      s = yield* Effect.promise(() => seed(d))
    }), 60_000)

  for (const depth of [1, 5, 20]) {
    it.effect(`reorg of depth ${depth}: every table equals a fresh index of the new chain`, () =>
      Effect.gen(function*() {
        const snapshot = yield* Effect.promise(() => d.chain.test.snapshot())
        const fork = yield* head(d)
        yield* Effect.promise(() => branch(d, s, depth, 0))
        const oldHead = yield* head(d)
        assert.strictEqual(oldHead, fork + BigInt(depth))

        const afterReorg = yield* Effect.gen(function*() {
          const status = yield* IndexerStatus
          yield* status.awaitBlock(oldHead, "60 seconds")
          const reorgsBefore = (yield* status.get).reorgs
          // The new branch: back to the fork, then one block more than the old one, with other transactions.
          yield* Effect.promise(() => d.chain.test.revert({ id: snapshot }))
          yield* Effect.promise(() => branch(d, s, depth + 1, depth + 3))
          const newHead = yield* head(d)
          yield* status.awaitBlock(newHead, "60 seconds")
          const st = yield* status.get
          assert.isAbove(st.reorgs, reorgsBefore, "the reorg was noticed")
          return { dump: yield* dumpTables, newHead }
        }).pipe(Effect.provide(indexerLayer(d)))

        const fresh = yield* freshDump(d, afterReorg.newHead)
        for (const table of Object.keys(fresh)) {
          assert.strictEqual(afterReorg.dump[table], fresh[table], `table ${table} after a reorg of depth ${depth}`)
        }
      }), 120_000)
  }

  it.effect("devnet: a reorg deeper than the kept hashes (a restarted devnet) rebuilds the index from the start block", () =>
    Effect.gen(function*() {
      const snapshot = yield* Effect.promise(() => d.chain.test.snapshot())
      yield* Effect.promise(() => branch(d, s, 8, 1))
      const oldHead = yield* head(d)
      const afterReorg = yield* Effect.gen(function*() {
        const status = yield* IndexerStatus
        yield* status.awaitBlock(oldHead, "60 seconds")
        yield* Effect.promise(() => d.chain.test.revert({ id: snapshot }))
        yield* Effect.promise(() => branch(d, s, 9, 11))
        const newHead = yield* head(d)
        yield* status.awaitBlock(newHead, "60 seconds")
        assert.isAbove((yield* status.get).reorgs, 0)
        return { dump: yield* dumpTables, newHead }
      }).pipe(Effect.provide(indexerLayer(d, { finalityDepth: 2 }, { reindexOnDeepReorg: true })))
      const fresh = yield* freshDump(d, afterReorg.newHead)
      for (const table of Object.keys(fresh)) {
        assert.strictEqual(afterReorg.dump[table], fresh[table], `table ${table} after a deep reorg`)
      }
    }), 120_000)

  it.effect("stops the devnet", () => Effect.promise(() => d.anvil.stop()))
})
