import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TxStatus } from "../../src/exchange-api/tokens/TxStatus.ts"
import { classifyRpcError } from "../../src/indexer/fetch/RpcError.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { Chain } from "../../src/platform/Chain.ts"
import { metricsText } from "../../src/platform/metrics/MetricsText.ts"
import { redactUrl } from "../../src/platform/RedactUrl.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { until } from "../support/until.ts"
import { externalChain, indexerOf, scopedProxy, transfer } from "./support.ts"

/**
 * A provider's WebSocket drops (test/support/RpcProxy.ts closes the sockets and refuses new ones for the drop's
 * length) while the app reads the seeded devnet through the proxy, with the Chain layers/Chain.ts builds for RPC_URL.
 *
 * - RPC_URL http + RPC_WS_URL ws, a 30 s drop (the longest): requests never touch the socket, so the indexer,
 *   the gas price and TxStatus answer throughout; the indexer follows a block made during the drop by polling over
 *   HTTP; after the drop the newHeads socket is back (reconnected with backoff, subscribed again) and announces the
 *   next block.
 * - RPC_URL ws only, a 5 s drop (past viem's 2 s reconnect delay, after which viem's own WebSocket transport never
 *   recovers): requests during the drop fail as retryable, and after it they are answered again and the indexer
 *   catches up. 5 s rather than 30 s: the recovery path is the same past viem's single reconnect attempt, and the
 *   30 s case is covered above.
 */
/** A sample of the metrics text (what /metrics serves) for `name{endpoint="…"}`. */
const sample = (name: string, endpoint: string) =>
  Effect.map(metricsText, (text) => {
    const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && l.includes(`endpoint="${endpoint}"`))
    return line === undefined ? undefined : Number(line.split(" ").at(-1))
  })

const TxStatusOf = (chain: Chain["Service"]) => TxStatus.layer.pipe(Layer.provide(Layer.succeed(Chain, chain)))

layer(Layer.merge(TestDatabase, AnvilChain.layer), { timeout: "300 seconds", excludeTestServices: true })(
  "RPC WebSocket drops",
  (it) => {
    it.effect(
      "RPC_URL http + RPC_WS_URL: through a 30 s drop the indexer, gas price and TxStatus keep answering; newHeads resubscribes",
      () =>
        Effect.gen(function* () {
          const anvil = yield* AnvilChain
          const proxy = yield* scopedProxy(anvil)
          const chain = yield* externalChain({ rpcUrl: proxy.url, rpcWsUrl: proxy.wsUrl })
          const heads = chain.heads!
          assert.isDefined(chain.heads, "new heads come from RPC_WS_URL")
          const announced: Array<bigint> = []
          yield* Effect.acquireRelease(
            Effect.sync(() => heads.listen((n) => announced.push(n))),
            (stop) => Effect.sync(stop)
          )
          yield* Effect.promise(() => until("the newHeads subscription is live", heads.live))

          yield* Effect.gen(function* () {
            const status = yield* IndexerStatus
            const txStatus = yield* TxStatus
            const before = yield* Effect.promise(() => transfer(anvil))
            yield* Effect.promise(() =>
              until("the transfer's block is announced", () => announced.includes(before.blockNumber))
            )
            yield* status.awaitBlock(before.blockNumber, "60 seconds")
            const httpBefore = proxy.counts.requests

            const endpoint = redactUrl(proxy.wsUrl)
            assert.strictEqual(yield* sample("rpc_newheads_live", endpoint), 1)
            const dropsBefore = (yield* sample("rpc_newheads_drops_total", endpoint)) ?? 0
            const dropStarted = Date.now()
            const drop = Effect.runPromise(Effect.promise(() => proxy.dropWebSockets(30_000)))
            yield* Effect.promise(() => until("the socket is seen down", () => !heads.live()))
            assert.strictEqual(proxy.openWebSockets(), 0)

            // During the drop: a block, followed over HTTP; TxStatus and the gas price answer.
            const during = yield* Effect.promise(() => transfer(anvil))
            const reached = yield* status.awaitBlock(during.blockNumber, "20 seconds")
            assert.isTrue(reached.lastIndexedBlock! >= during.blockNumber)
            const tx = yield* txStatus.status(31337, during.hash)
            assert.strictEqual(tx.status, "success")
            assert.strictEqual(tx.blockNumber, during.blockNumber.toString())
            const gasPrice = yield* Effect.promise(() => chain.publicClient.getGasPrice())
            assert.isAbove(Number(gasPrice), 0)
            yield* Effect.promise(() =>
              until("the socket tried to reconnect and was refused", () => proxy.counts.wsRefused > 0)
            )
            assert.isBelow(Date.now() - dropStarted, 30_000, "all of the above happened during the drop")
            assert.isFalse(heads.live())
            assert.isAbove(proxy.counts.requests, httpBefore, "requests went on over HTTP")
            assert.strictEqual(yield* sample("rpc_newheads_live", endpoint), 0)
            assert.strictEqual(yield* sample("rpc_newheads_drops_total", endpoint), dropsBefore + 1)

            // After the drop: subscribed again (backoff ≤ 10 s), the next block is announced and indexed.
            yield* Effect.promise(() => drop)
            yield* Effect.promise(() => until("the newHeads subscription is back", heads.live, 15_000))
            assert.strictEqual(yield* sample("rpc_newheads_live", endpoint), 1)
            const after = yield* Effect.promise(() => transfer(anvil))
            yield* Effect.promise(() =>
              until("the block after the drop is announced", () => announced.includes(after.blockNumber))
            )
            const caughtUp = yield* status.awaitBlock(after.blockNumber, "20 seconds")
            assert.isTrue(caughtUp.lastIndexedBlock! >= after.blockNumber)
          }).pipe(
            Effect.provide(
              Layer.mergeAll(indexerOf(chain, { pollIntervalMs: 500 }), TxStatusOf(chain)).pipe(
                Layer.provideMerge(Layer.fresh(TestDatabase))
              )
            )
          )
        }).pipe(Effect.scoped),
      120_000
    )

    it.effect(
      "RPC_URL ws only: requests fail as retryable during a 5 s drop and are answered after it; the indexer catches up",
      () =>
        Effect.gen(function* () {
          const anvil = yield* AnvilChain
          const proxy = yield* scopedProxy(anvil)
          const chain = yield* externalChain({ rpcUrl: proxy.wsUrl, rpcTimeoutMs: 2_000 })
          assert.isDefined(chain.heads, "new heads from RPC_URL's socket")
          yield* Effect.gen(function* () {
            const status = yield* IndexerStatus
            const txStatus = yield* TxStatus
            const before = yield* Effect.promise(() => transfer(anvil))
            yield* status.awaitBlock(before.blockNumber, "60 seconds")

            const drop = Effect.runPromise(Effect.promise(() => proxy.dropWebSockets(5_000)))
            yield* Effect.promise(() => until("the sockets are closed", () => proxy.openWebSockets() === 0))
            const failed = yield* Effect.promise(() =>
              chain.publicClient.getBlockNumber({ cacheTime: 0 }).then(
                () => undefined,
                (e: unknown) => e
              )
            )
            assert.isDefined(failed, "a request during the drop fails")
            assert.strictEqual(classifyRpcError("eth_blockNumber", failed).kind, "retryable", String(failed))
            const refused = yield* Effect.flip(txStatus.status(31337, before.hash))
            assert.strictEqual(refused.code, "RPC_UNAVAILABLE", "TxStatus answers 503 while the chain is unreachable")

            yield* Effect.promise(() => drop)
            const after = yield* Effect.promise(() => transfer(anvil))
            const caughtUp = yield* status.awaitBlock(after.blockNumber, "30 seconds")
            assert.isTrue(caughtUp.lastIndexedBlock! >= after.blockNumber)
            const tx = yield* txStatus.status(31337, after.hash)
            assert.strictEqual(tx.status, "success")
            const head = yield* Effect.promise(() => chain.publicClient.getBlockNumber({ cacheTime: 0 }))
            assert.isTrue(head >= after.blockNumber)
          }).pipe(
            Effect.provide(
              Layer.mergeAll(indexerOf(chain, { pollIntervalMs: 500 }), TxStatusOf(chain)).pipe(
                Layer.provideMerge(Layer.fresh(TestDatabase))
              )
            )
          )
        }).pipe(Effect.scoped),
      120_000
    )
  }
)
