import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Logger, References } from "effect"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { externalChain, indexerOf, scopedProxy, transfer } from "./support.ts"

/**
 * Several RPC URLs (RPC_URL="primary,fallback"): the primary is down (the proxy answers 503 to everything), the
 * fallback healthy. The app starts (the primary is kept with a warning), the indexer follows the chain through the
 * fallback, and once viem's ranking has pinged both, requests no longer go to the primary first. The URLs carry
 * provider keys in their paths: no log line shows them.
 */
layer(Layer.merge(TestDatabase, AnvilChain.layer), { timeout: "300 seconds", excludeTestServices: true })(
  "several RPC URLs",
  (it) => {
    it.effect(
      "a failing primary URL with a healthy fallback: the indexer follows the chain, ranking moves requests off the primary, keys are not logged",
      () =>
        Effect.gen(function* () {
          const anvil = yield* AnvilChain
          const primary = yield* scopedProxy(anvil, { down: true })
          const healthy = yield* scopedProxy(anvil)
          const lines: Array<string> = []
          const capture = Logger.layer([Logger.map(Logger.formatJson, (line) => void lines.push(line))])
          const logged = Layer.mergeAll(capture, Layer.succeed(References.MinimumLogLevel, "Debug"))

          yield* Effect.gen(function* () {
            const chain = yield* externalChain({
              rpcUrl: `${primary.url}/v2/PRIMARY-SECRET-KEY, ${healthy.url}/v2/HEALTHY-SECRET-KEY`,
              rpcWsUrl: `${healthy.wsUrl}/ws/WS-SECRET-KEY`,
              rpcRankIntervalMs: 200
            })
            assert.strictEqual(chain.rpcUrls?.length, 2)
            // Each URL's own client too (a deep reorg is confirmed by asking each: src/indexer/loop/ReorgConfirm.ts),
            // named without its key.
            assert.deepStrictEqual(
              chain.endpoints?.map((e) => e.name),
              [primary.url, healthy.url].map((u) => `${u}/…`)
            )
            yield* Effect.gen(function* () {
              const status = yield* IndexerStatus
              const first = yield* Effect.promise(() => transfer(anvil))
              const reached = yield* status.awaitBlock(first.blockNumber, "60 seconds")
              assert.strictEqual(reached.reorgs, 0)
              const primaryLogs = primary.counts.methods.eth_getLogs ?? 0
              const healthyLogs = healthy.counts.methods.eth_getLogs ?? 0
              assert.isAbove(healthyLogs, 0, "logs read through the fallback")

              const next = yield* Effect.promise(() => transfer(anvil))
              yield* status.awaitBlock(next.blockNumber, "30 seconds")
              assert.strictEqual(
                primary.counts.methods.eth_getLogs ?? 0,
                primaryLogs,
                "ranked last, the primary gets no more eth_getLogs"
              )
              assert.isAbove(healthy.counts.methods.eth_getLogs ?? 0, healthyLogs)
              assert.isAbove(primary.counts.requests, 0, "the primary was tried and pinged")
              assert.strictEqual(primary.counts.faulted, primary.counts.requests, "and answered 503 each time")
            }).pipe(Effect.provide(indexerOf(chain).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)))))
          }).pipe(Effect.scoped, Effect.provide(logged))

          const text = lines.join("\n")
          assert.notInclude(text, "SECRET-KEY")
          const primaryHost = primary.url.replace("http://", "")
          assert.isTrue(
            lines.some((l) => l.includes("does not answer now") && l.includes(primaryHost)),
            "the down primary is named, redacted, at start"
          )
        }).pipe(Effect.scoped),
      120_000
    )
  }
)
