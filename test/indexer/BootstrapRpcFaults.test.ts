import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Address } from "viem"
import { makePublicClient } from "../../layers/PublicClient.ts"
import { emptyStats, runCalls } from "../../src/indexer/bootstrap/PoolReads.ts"
import { type MainnetShapedChain, mainnetShapedIndexer, scopedMainnetShaped } from "../support/MainnetShaped.ts"
import { startAnvilChain } from "../support/AnvilChain.ts"
import { startRpcProxy } from "../support/RpcProxy.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { readerOver } from "./fake-reader.ts"
import { indexEqualsChain, poolAbi } from "./pools-equal-chain.ts"

/**
 * The bootstrap of tracked pools (src/indexer/bootstrap/) through the fault-injecting proxy (test/support/RpcProxy.ts)
 * in front of anvil: its Multicall3 reads meet HTTP 429s and closed connections, as on a hosted plan, and retry them
 * as every other read of the indexer does; a read no retry cures fails the bootstrap, saying where.
 */

/** No code at this address on the devnet. */
const NO_CONTRACT: Address = "0x000000000000000000000000000000000000dEaD"

layer(TestDatabase, { timeout: "300 seconds", excludeTestServices: true })(
  "tracked pools read through a faulty RPC",
  (it) => {
    it.effect(
      "every 3rd eth_call answered 429 and every 7th connection closed: every tracked pool equals the chain",
      () =>
        Effect.gen(function* () {
          const m = yield* scopedMainnetShaped()
          const { scenario } = m
          const proxy = yield* Effect.acquireRelease(
            Effect.promise(() =>
              startRpcProxy(m.chain.rpcUrl, {
                faultMethods: ["eth_call"],
                rateLimit: { every: 3 },
                reset: { every: 7 }
              })
            ),
            (p) => Effect.promise(() => p.close())
          )
          const client = makePublicClient(m.chain.chainId, proxy.url, 5_000)
          const faulty: MainnetShapedChain = { ...m, chain: { ...m.chain, rpcUrl: proxy.url, publicClient: client } }
          const ticksOf = new Map([...scenario.positionTicks].map(([pool, ticks]) => [pool, new Set(ticks)]))
          yield* Effect.gen(function* () {
            // The chain is read directly (`m`), the indexer reads through the proxy.
            yield* indexEqualsChain(m, scenario.pools, ticksOf)
            const sql = yield* SqlClient.SqlClient
            const snapshots = yield* sql<{ pool: string }>`SELECT pool FROM pool_snapshots ORDER BY pool`
            assert.deepStrictEqual(
              snapshots.map((s) => s.pool),
              scenario.pools.map((p) => p.address.toLowerCase()).sort()
            )
          }).pipe(Effect.provide(mainnetShapedIndexer(faulty)))
          assert.isAbove(proxy.counts.rateLimited, 0, "429s answered")
          assert.isAbove(proxy.counts.reset, 0, "connections closed")
        }).pipe(Effect.scoped),
      300_000
    )

    it.effect("a Multicall3 read no retry cures (no contract at its address) fails, naming the address and block", () =>
      Effect.gen(function* () {
        const chain = yield* Effect.acquireRelease(
          Effect.promise(() => startAnvilChain({ state: "empty" })),
          (c) => Effect.promise(c.stop)
        )
        const blockNumber = yield* Effect.promise(() => chain.publicClient.getBlockNumber({ cacheTime: 0 }))
        const ctx = { multicall3: NO_CONTRACT, blockNumber, concurrency: 1, stats: emptyStats() }
        const calls = [{ address: NO_CONTRACT, abi: poolAbi, functionName: "liquidity" }]
        const error = yield* runCalls(ctx, calls).pipe(Effect.provide(readerOver(chain.publicClient)), Effect.flip)
        assert.strictEqual(error.kind, "fatal")
        assert.include(error.message, `Multicall3 ${NO_CONTRACT} at block ${blockNumber}`)
      }).pipe(Effect.scoped)
    )
  }
)
