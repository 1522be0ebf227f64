import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Chain } from "../platform/Chain.ts"
import { exchangeSettings } from "./ExchangeConfig.ts"
import { IndexerChangeFeed } from "../indexer/IndexerChangeFeed.ts"

/**
 * `/indexer/status` and readiness from any process: the checkpoint row (what is committed), the chain head
 * (eth_blockNumber, reused for 1 s so a flood of status requests costs one RPC call a second), and the indexer
 * process's own IndexerStatus as it was sent with its last commit (IndexerChangeFeed).
 */
export class IndexerProgress extends Context.Service<
  IndexerProgress,
  {
    readonly report: Effect.Effect<{
      chainId: number
      height: string | null
      lastIndexedBlock: string | null
      lastIndexedAt: string | null
      lagBlocks: string | null
      lagSeconds: number | null
      ready: boolean
      indexer: {
        phase: string
        eventsPerSecond: number
        reorgs: number
        lastError: string | null
        reportedAt: string
      } | null
    }>
  }
>()("app/exchange/IndexerProgress") {
  static readonly layer = Layer.effect(
    IndexerProgress,
    Effect.gen(function* () {
      const chain = yield* Chain
      const sql = yield* SqlClient.SqlClient
      const feed = yield* IndexerChangeFeed
      const { readyMaxLagBlocks } = yield* exchangeSettings
      const head = yield* Effect.cachedWithTTL(
        Effect.tryPromise(() => chain.publicClient.getBlockNumber({ cacheTime: 0 })).pipe(
          Effect.map((n): bigint | null => n),
          Effect.catchCause((cause) =>
            Effect.as(Effect.logWarning("indexer status: eth_blockNumber failed", cause), null)
          )
        ),
        "1 second"
      )
      const report = Effect.gen(function* () {
        const [rows, height] = yield* Effect.all(
          [
            sql<{ blockNumber: string; blockTimestamp: Date }>`
          SELECT block_number::text AS block_number, block_timestamp FROM indexer_checkpoints WHERE chain_id = ${chain.chainId}`.pipe(
              Effect.orDie
            ),
            head
          ],
          { concurrency: 2 }
        )
        const cp = rows[0]
        const last = cp === undefined ? null : BigInt(cp.blockNumber)
        const lag = last !== null && height !== null ? (height > last ? height - last : 0n) : null
        const message = feed.last()
        return {
          chainId: chain.chainId,
          height: height?.toString() ?? null,
          lastIndexedBlock: last?.toString() ?? null,
          lastIndexedAt: cp?.blockTimestamp.toISOString() ?? null,
          lagBlocks: lag?.toString() ?? null,
          lagSeconds:
            cp === undefined ? null : Math.max(0, Math.round((Date.now() - cp.blockTimestamp.getTime()) / 1000)),
          ready: lag !== null && lag <= BigInt(readyMaxLagBlocks),
          indexer:
            message === undefined
              ? null
              : {
                  phase: message.status.phase,
                  eventsPerSecond: message.status.eventsPerSecond,
                  reorgs: message.status.reorgs,
                  lastError: message.status.lastError,
                  reportedAt: new Date(message.at).toISOString()
                }
        }
      })
      return IndexerProgress.of({ report })
    })
  )
}
