import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { metricsText } from "../../src/platform/metrics/MetricsText.ts"
import { redactUrl } from "../../src/platform/RedactUrl.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { until } from "../support/until.ts"
import { rangeErrorVectors } from "../indexer/rpc-error-vectors.ts"
import { externalChain, indexerOf, scopedProxy, transfer } from "./support.ts"

/** The samples of `name` in a Prometheus text whose labels include `match`, summed. */
const sum = (text: string, name: string, match: Record<string, string>) => {
  let total = 0
  for (const line of text.split("\n")) {
    const m = line.match(/^([a-z_]+)\{(.*)\} (\S+)$/)
    if (m === null || m[1] !== name) continue
    const labels = Object.fromEntries([...m[2]!.matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]))
    if (Object.entries(match).every(([k, v]) => labels[k] === v)) total += Number(m[3])
  }
  return total
}

/**
 * The RPC metrics on /metrics (src/platform/metrics/Metrics.ts, recorded by layers/RpcMetrics.ts for every request of
 * the app's viem clients) count what the proxy did: the indexer reads the seeded devnet through a proxy that delays
 * every answer by 30 ms, answers every 5th request with HTTP 429 and refuses eth_getLogs over more than 8 blocks with
 * QuickNode's -32614 text. Afterwards, for the proxy's endpoint: requests = requests the proxy answered, 429s = its
 * 429s, errors of class "range" = its refusals, errors in all = 429s + refusals + the node's own error answers (a
 * token that does not implement a metadata call reverts), and no request took under 25 ms.
 */
layer(Layer.merge(TestDatabase, AnvilChain.layer), { timeout: "300 seconds", excludeTestServices: true })(
  "RPC metrics",
  (it) => {
    it.effect(
      "requests, errors by class, 429s and latency count what the proxy did",
      () =>
        Effect.gen(function* () {
          const anvil = yield* AnvilChain
          const quickNode = rangeErrorVectors.find((v) => v.provider === "QuickNode")!
          const proxy = yield* scopedProxy(anvil, {
            latencyMs: 30,
            rateLimit: { every: 5, retryAfterSeconds: 0 },
            range: {
              maxBlocks: 8,
              code: quickNode.code,
              message: quickNode.message.replace(/10,?000/, "8"),
              httpStatus: quickNode.httpStatus
            }
          })
          const endpoint = redactUrl(proxy.url)
          yield* Effect.gen(function* () {
            const status = yield* IndexerStatus
            const tx = yield* Effect.promise(() => transfer(anvil))
            yield* status.awaitBlock(tx.blockNumber, "90 seconds")
          }).pipe(
            Effect.scoped,
            Effect.provide(
              Layer.unwrap(
                Effect.map(externalChain({ rpcUrl: proxy.url }), (chain) =>
                  indexerOf(chain).pipe(Layer.provideMerge(Layer.fresh(TestDatabase)))
                )
              )
            ),
            Effect.scoped
          )
          // The indexer is stopped; a request it left in flight is still answered, and recorded, after the interrupt.
          const requests = () =>
            Effect.runSync(metricsText.pipe(Effect.map((t) => sum(t, "rpc_requests_total", { endpoint }))))
          yield* Effect.promise(() =>
            until(
              "the metrics saw every answered request",
              () => proxy.counts.requests === proxy.counts.answered && requests() === proxy.counts.answered
            )
          )
          const text = yield* metricsText
          assert.isAbove(proxy.counts.rateLimited, 0, "the proxy answered 429s")
          assert.isAbove(proxy.counts.rangeRefused, 0, "the proxy refused ranges")
          assert.strictEqual(sum(text, "rpc_requests_total", { endpoint }), proxy.counts.answered)
          assert.isAbove(sum(text, "rpc_requests_total", { endpoint, method: "eth_getLogs" }), 0)
          assert.strictEqual(sum(text, "rpc_rate_limited_total", { endpoint }), proxy.counts.rateLimited)
          assert.strictEqual(
            sum(text, "rpc_errors_total", { endpoint, method: "eth_getLogs", class: "range" }),
            proxy.counts.rangeRefused
          )
          assert.strictEqual(
            sum(text, "rpc_errors_total", { endpoint }),
            proxy.counts.rateLimited + proxy.counts.rangeRefused + proxy.counts.nodeErrors
          )
          assert.strictEqual(sum(text, "rpc_request_duration_seconds_count", { endpoint }), proxy.counts.answered)
          assert.strictEqual(sum(text, "rpc_request_duration_seconds_bucket", { endpoint, le: "0.025" }), 0)
          assert.strictEqual(
            sum(text, "rpc_request_duration_seconds_bucket", { endpoint, le: "+Inf" }),
            proxy.counts.answered
          )
        }).pipe(Effect.scoped),
      150_000
    )
  }
)
