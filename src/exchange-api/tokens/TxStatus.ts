import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type Hash, toEventSelector } from "viem"
import { Chain } from "../../platform/Chain.ts"
import { exchangeSettings } from "../ExchangeConfig.ts"
import { ExchangeNotFound, type ExchangeUnavailable } from "../ExchangeError.ts"
import { rpcUnavailable } from "../RpcUnavailable.ts"

const SWAP_TOPIC = toEventSelector("Swap(address,address,int256,int256,uint160,uint128,int24)")

const errorName = (e: unknown) => (e as { name?: string } | null)?.name ?? ""

const rpcFailure = (e: unknown) => {
  const unavailable = rpcUnavailable(e)
  return unavailable === undefined ? Effect.die(e) : Effect.fail(unavailable)
}

/**
 * Swap-execution status from the chain: a receipt decides `success` / `failed`; a transaction the node knows
 * without a receipt is `pending`; a hash nobody knows is `pending` for EXCHANGE_TX_PENDING_TIMEOUT_SECONDS after it
 * was first asked about (it may still be on its way to the node), then 404 TX_NOT_FOUND. The first-asked time is
 * kept in `exchange_tx_watch` so every process agrees.
 */
export class TxStatus extends Context.Service<
  TxStatus,
  {
    readonly status: (
      chainId: number,
      txHash: string
    ) => Effect.Effect<
      {
        chainId: number
        txHash: string
        status: "pending" | "success" | "failed"
        blockNumber: string | null
        gasUsed: string | null
        swaps: number
        firstSeenAt: string | null
      },
      ExchangeNotFound | ExchangeUnavailable
    >
  }
>()("app/exchange/TxStatus") {
  static readonly layer = Layer.effect(
    TxStatus,
    Effect.gen(function* () {
      const chain = yield* Chain
      const sql = yield* SqlClient.SqlClient
      const { txPendingTimeoutSeconds } = yield* exchangeSettings
      const client = chain.publicClient

      const receipt = (hash: Hash) =>
        Effect.tryPromise(() => client.getTransactionReceipt({ hash })).pipe(
          Effect.map((r) => r as typeof r | null),
          Effect.catch((e) =>
            errorName((e as { cause?: unknown }).cause) === "TransactionReceiptNotFoundError"
              ? Effect.succeed(null)
              : rpcFailure(e)
          )
        )
      const known = (hash: Hash) =>
        Effect.tryPromise(() => client.getTransaction({ hash })).pipe(
          Effect.as(true),
          Effect.catch((e) =>
            errorName((e as { cause?: unknown }).cause) === "TransactionNotFoundError"
              ? Effect.succeed(false)
              : rpcFailure(e)
          )
        )

      return TxStatus.of({
        status: (chainId, txHash) =>
          Effect.gen(function* () {
            const hash = txHash.toLowerCase() as Hash
            if (chainId !== chain.chainId) {
              return yield* new ExchangeNotFound({
                error: `Chain ${chainId} is not served here`,
                code: "CHAIN_NOT_INDEXED",
                details: { chainId, served: chain.chainId }
              })
            }
            const r = yield* receipt(hash)
            if (r !== null) {
              return {
                chainId,
                txHash: hash,
                status: r.status === "success" ? ("success" as const) : ("failed" as const),
                blockNumber: r.blockNumber.toString(),
                gasUsed: r.gasUsed.toString(),
                swaps: r.logs.filter((l) => l.topics[0] === SWAP_TOPIC).length,
                firstSeenAt: null
              }
            }
            const pending = {
              chainId,
              txHash: hash,
              status: "pending" as const,
              blockNumber: null,
              gasUsed: null,
              swaps: 0
            }
            if (yield* known(hash)) return { ...pending, firstSeenAt: null }
            const rows = yield* sql<{ firstSeenAt: Date; expired: boolean }>`
          WITH ins AS (
            INSERT INTO exchange_tx_watch (chain_id, tx_hash) VALUES (${chainId}, ${hash}) ON CONFLICT DO NOTHING RETURNING first_seen_at
          )
          SELECT first_seen_at, first_seen_at < now() - ${txPendingTimeoutSeconds} * interval '1 second' AS expired FROM (
            SELECT first_seen_at FROM ins UNION ALL
            SELECT first_seen_at FROM exchange_tx_watch WHERE chain_id = ${chainId} AND tx_hash = ${hash}
          ) x LIMIT 1`.pipe(Effect.orDie)
            const row = rows[0]!
            if (row.expired) {
              return yield* new ExchangeNotFound({
                error: `Transaction ${hash} is unknown to the chain ${txPendingTimeoutSeconds} s after it was first asked about`,
                code: "TX_NOT_FOUND",
                details: {
                  txHash: hash,
                  firstSeenAt: row.firstSeenAt.toISOString(),
                  timeoutSeconds: txPendingTimeoutSeconds
                }
              })
            }
            return { ...pending, firstSeenAt: row.firstSeenAt.toISOString() }
          })
      })
    })
  )
}
