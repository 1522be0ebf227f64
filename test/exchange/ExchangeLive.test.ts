import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { encodeFunctionData, type Hex, parseEther } from "viem"
import { AnvilChain } from "../support/AnvilChain.ts"
import { TestServices } from "../support/TestServer.ts"
import { exchange, indexedHead, routerAbi } from "./support.ts"

/**
 * What changes with the chain: swap status for a successful swap, a swap made to revert on purpose and an unknown
 * hash; the cache of the hot routes (stale DB edits stay invisible until an indexer commit invalidates it; ETag and
 * If-None-Match before and after).
 */
const chainId = 31337

const swapTx = (minOut: bigint) =>
  Effect.gen(function* () {
    const chain = yield* AnvilChain
    const sql = yield* SqlClient.SqlClient
    const [launch] = yield* sql<{
      token: string
      fee: number
      pool: string
    }>`SELECT token, fee, pool FROM launches WHERE chain_id = ${chainId} ORDER BY block_number LIMIT 1`
    const wallet = chain.wallets[7]!
    const data = encodeFunctionData({
      abi: routerAbi,
      functionName: "exactInputSingle",
      args: [
        {
          tokenIn: chain.deployments.contracts.weth9,
          tokenOut: launch!.token as Hex,
          fee: launch!.fee,
          recipient: wallet.account.address,
          amountIn: parseEther("0.01"),
          amountOutMinimum: minOut,
          sqrtPriceLimitX96: 0n
        }
      ]
    })
    // Explicit gas: a transaction that will revert is still sent and mined (no estimate refusing it first).
    const hash = yield* Effect.promise(() =>
      wallet.sendTransaction({
        to: chain.deployments.contracts.swapRouter02,
        data,
        value: parseEther("0.01"),
        gas: 600_000n
      })
    )
    const receipt = yield* Effect.tryPromise(() => chain.publicClient.getTransactionReceipt({ hash })).pipe(
      Effect.retry(Schedule.spaced("20 millis")),
      Effect.timeout("20 seconds")
    )
    return { hash, receipt, launch: launch! }
  })

const statusOf = (hash: string) => exchange(`/api/v1/status?chainId=${chainId}&txHash=${hash}`)

layer(TestServices(["exchange", "indexer"]), { timeout: "120 seconds", excludeTestServices: true })(
  "exchange: swap status and cache",
  (it) => {
    it.effect(
      "status: success for a swap, failed for a swap that reverts, pending for an unknown hash until the timeout, then 404",
      () =>
        Effect.gen(function* () {
          yield* indexedHead
          const ok = yield* swapTx(0n)
          assert.strictEqual(ok.receipt.status, "success")
          const s1 = (yield* statusOf(ok.hash)).body
          assert.strictEqual(s1.status, "success")
          assert.strictEqual(s1.blockNumber, ok.receipt.blockNumber.toString())
          assert.strictEqual(s1.swaps, 1)
          // amountOutMinimum no swap can meet: the router reverts ("Too little received").
          const bad = yield* swapTx(2n ** 200n)
          assert.strictEqual(bad.receipt.status, "reverted")
          const s2 = (yield* statusOf(bad.hash)).body
          assert.strictEqual(s2.status, "failed")
          assert.strictEqual(s2.swaps, 0)
          const unknown = `0x${"ab".repeat(32)}`
          const s3 = yield* statusOf(unknown)
          assert.strictEqual(s3.status, 200)
          assert.strictEqual(s3.body.status, "pending")
          assert.isString(s3.body.firstSeenAt)
          assert.strictEqual((yield* statusOf(unknown)).body.firstSeenAt, s3.body.firstSeenAt, "the first time is kept")
          // The timeout passes (the watch row ages past EXCHANGE_TX_PENDING_TIMEOUT_SECONDS = 600 by default).
          const sql = yield* SqlClient.SqlClient
          yield* sql`UPDATE exchange_tx_watch SET first_seen_at = now() - interval '601 seconds' WHERE tx_hash = ${unknown}`
          const gone = yield* statusOf(unknown)
          assert.strictEqual(gone.status, 404)
          assert.strictEqual(gone.body.code, "TX_NOT_FOUND")
          assert.strictEqual((yield* statusOf("0x12")).status, 400)
          assert.strictEqual(
            (yield* exchange(`/api/v1/status?chainId=1&txHash=${ok.hash}`)).body.code,
            "CHAIN_NOT_INDEXED"
          )
          assert.strictEqual((yield* exchange(`/api/v1/status?txHash=${ok.hash}`)).status, 400)
        })
    )

    it.effect(
      "cache: served from memory until an indexer commit; ETag/If-None-Match → 304, a new tag after the commit",
      () =>
        Effect.gen(function* () {
          yield* indexedHead
          const sql = yield* SqlClient.SqlClient
          const [launch] = yield* sql<{
            token: string
            pool: string
          }>`SELECT token, pool FROM launches WHERE chain_id = ${chainId} ORDER BY block_number LIMIT 1`
          const tokenPath = `/api/v1/tokens/${launch!.token}-${chainId}`
          const first = yield* exchange(tokenPath)
          const etag = first.headers.get("etag")!
          assert.match(etag, /^"[A-Za-z0-9_-]+"$/)
          assert.strictEqual(first.headers.get("cache-control"), "no-cache")
          const notModified = yield* exchange(tokenPath, { headers: { "if-none-match": etag } })
          assert.strictEqual(notModified.status, 304)
          assert.strictEqual(notModified.body, "")
          const lists = [
            "/api/v1/pools/list",
            "/api/v1/tokens/trending",
            "/api/v1/stats/global",
            `/api/v1/pools/${launch!.pool}-${chainId}/ticks`
          ]
          const before = yield* Effect.forEach(lists, (p) => Effect.map(exchange(p), (r) => r.headers.get("etag")))
          // An edit behind the indexer's back is not seen while the cache holds the answer...
          yield* sql`UPDATE tokens SET name = 'Edited behind the cache' WHERE chain_id = ${chainId} AND address = ${launch!.token}`
          assert.strictEqual((yield* exchange(tokenPath)).body.name, first.body.name)
          assert.strictEqual((yield* exchange(tokenPath)).headers.get("etag"), etag)
          // ...until the indexer commits a block (a swap in the token's pool): then the next answer is read afresh.
          const swap = yield* swapTx(0n)
          const after = yield* exchange(tokenPath).pipe(
            Effect.repeat({ until: (r) => r.headers.get("etag") !== etag, schedule: Schedule.spaced("50 millis") }),
            Effect.timeout("30 seconds")
          )
          assert.strictEqual(after.body.name, "Edited behind the cache")
          assert.strictEqual(after.body.swaps24h, first.body.swaps24h + 1)
          assert.notStrictEqual(after.body.priceUsd, first.body.priceUsd)
          assert.isTrue(
            BigInt((yield* exchange("/api/v1/indexer/status")).body.lastIndexedBlock) >= swap.receipt.blockNumber
          )
          assert.strictEqual(
            (yield* exchange(tokenPath, { headers: { "if-none-match": etag } })).status,
            200,
            "the old tag is stale"
          )
          const changed = yield* Effect.forEach(lists, (p) => Effect.map(exchange(p), (r) => r.headers.get("etag")))
          lists.forEach((p, i) => assert.notStrictEqual(changed[i], before[i], p))
          // The indexer's own status reached the exchange with the commit.
          const status = (yield* exchange("/api/v1/indexer/status")).body
          assert.strictEqual(status.indexer.phase, "following")
        })
    )
  }
)
