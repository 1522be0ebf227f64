import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { parseEther } from "viem"
import { indexedHead } from "../exchange/support.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { baseUrl } from "../support/TestServer.ts"
import { scrape, valueOf } from "../observability/prometheus.ts"
import { exchange, query, QuoteServices } from "./support.ts"

/**
 * Quote metrics on the exchange service's /metrics (issue 13): real quotes on the devnet through the Piscina worker
 * (QUOTE_WORKERS 1) show up in `quote_duration_seconds` by endpoint and outcome, and the worker pool's queue depth
 * and busy share are gauges read at scrape time.
 */
const chainId = 31337

layer(QuoteServices({ timeoutMs: 5000, workers: 1 }), { timeout: "180 seconds", excludeTestServices: true })(
  "quote metrics",
  (it) => {
    it.effect("a quote is counted in the latency histogram; the worker queue gauges are exported", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        const launch = chain.deployments.launches.find((l) => l.canonical)!
        yield* indexedHead
        const params = {
          chainId,
          tokenInAddress: c.weth9,
          tokenOutAddress: launch.token,
          amount: parseEther("0.1").toString(),
          recipient: chain.accounts[0]!.address
        }
        const ok = yield* exchange(`/api/v1/quote?${query(params)}`)
        assert.strictEqual(ok.status, 200, JSON.stringify(ok.body))
        // A failure is counted under its reason.
        const small = yield* exchange(`/api/v1/quote?${query({ ...params, amount: "999" })}`)
        assert.strictEqual(small.body.code, "AMOUNT_TOO_SMALL")

        const m = yield* scrape(yield* baseUrl("exchange"))
        assert.strictEqual(m.status, 200)
        assert.strictEqual(m.types.get("quote_duration_seconds"), "histogram")
        assert.isAbove(valueOf(m.samples, "quote_duration_seconds_count", { route: "get", outcome: "ok" }), 0)
        assert.isAbove(valueOf(m.samples, "quote_duration_seconds_sum", { route: "get", outcome: "ok" }), 0)
        assert.isAbove(
          valueOf(m.samples, "quote_duration_seconds_count", { route: "get", outcome: "AMOUNT_TOO_SMALL" }),
          0
        )
        // Nothing is waiting once the quotes have been answered; the busy share is a fraction.
        assert.strictEqual(m.types.get("quote_worker_queue_depth"), "gauge")
        const queue = m.samples.filter((s) => s.name === "quote_worker_queue_depth")
        assert.strictEqual(queue.length, 1)
        assert.strictEqual(queue[0]!.value, 0)
        const utilization = m.samples.filter((s) => s.name === "quote_worker_utilization")
        assert.strictEqual(utilization.length, 1)
        assert.isTrue(utilization[0]!.value >= 0 && utilization[0]!.value <= 1, String(utilization[0]!.value))
      })
    )
  }
)
