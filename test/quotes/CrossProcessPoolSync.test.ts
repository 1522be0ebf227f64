import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schedule } from "effect"
import { parseEther } from "viem"
import { scrape, valueOf } from "../observability/prometheus.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { type ServiceProcess, startServiceProcess } from "../support/ServiceProcess.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { fetchJson } from "../support/TestServer.ts"
import { buyWithWeth } from "./chain.ts"
import { matchesQuoter, query } from "./support.ts"

/**
 * An exchange process E and an indexer process I on one database and one chain (the production shape): each batch I
 * commits reaches E through NOTIFY with the pools it touched (src/indexer/IndexerChangeFeed.ts), and E's quote
 * engine reads only those pools (src/exchange-api/quotes/PoolSync.ts) — its full reloads
 * (`quote_pool_state_updates_total{kind="full"}` on E's /metrics) do not grow with the blocks — while its quotes
 * follow every swap and equal QuoterV2 to the wei. A reorg is a delta too: the pools the rollback touched, read again.
 */
class Processes extends Context.Service<Processes, { readonly e: ServiceProcess; readonly i: ServiceProcess }>()(
  "test/quotes/CrossProcessPoolSync/Processes"
) {}

const ProcessesLive = Layer.effect(
  Processes,
  Effect.gen(function* () {
    const [e, i] = yield* Effect.all(
      [
        startServiceProcess(["exchange"], { QUOTE_WORKERS: "1", QUOTE_OPEN: "true", QUOTE_OPEN_RATE_LIMIT: "1000000" }),
        startServiceProcess(["indexer"], { INDEXER_POLL_MS: "100", FINALITY_DEPTH: "10" })
      ],
      { concurrency: "unbounded" }
    )
    return { e, i }
  })
).pipe(Layer.provideMerge(Layer.mergeAll(TestDatabase, AnvilChain.layer)))

const updates = (base: string, kind: "full" | "delta") =>
  Effect.map(scrape(base), (m) => valueOf(m.samples, "quote_pool_state_updates_total", { kind }))

/** E's exchange URL, the launch pool's quote params, and E's quote once its pool state holds a block. */
const setup = Effect.gen(function* () {
  const { e, i } = yield* Processes
  const exchange = e.urls.exchange!
  const chain = yield* AnvilChain
  const c = chain.deployments.contracts
  const launch = chain.deployments.launches.find((l) => l.canonical)!
  const params = {
    chainId: chain.chainId,
    tokenInAddress: c.weth9,
    tokenOutAddress: launch.token,
    amount: parseEther("0.2").toString(),
    recipient: chain.accounts[0]!.address
  }
  let last: { status: number; body: any } | undefined
  /** E's quote once its pool state holds block `head` (bounded polling). */
  const quoteAt = (head: bigint) =>
    fetchJson(`${exchange}/api/v1/quote?${query(params)}`).pipe(
      Effect.tap((r) => Effect.sync(() => (last = r))),
      Effect.repeat({
        until: (r) => r.status === 200 && BigInt(r.body.blockNumber) >= head,
        schedule: Schedule.spaced("50 millis")
      }),
      Effect.timeoutOrElse({
        duration: "90 seconds",
        orElse: () =>
          Effect.die(
            new Error(
              `E's quote never reached block ${head}: ${last?.status} at ${last?.body?.blockNumber}; indexer: ${i
                .output()
                .split("\n")
                .filter((l) => /reorg|rror/i.test(l))
                .slice(-5)
                .join("\n")}`
            )
          )
      }),
      Effect.map((r) => r.body)
    )
  const head = Effect.promise(() => chain.publicClient.getBlockNumber({ cacheTime: 0 }))
  return { exchange, chain, quoter: c.quoterV2!, launch, quoteAt, head }
})

layer(ProcessesLive, { timeout: "300 seconds", excludeTestServices: true })(
  "quote engine in another process than the indexer",
  (it) => {
    it.effect(
      "swaps reach the exchange process as pool deltas, without a full reload, and quotes equal QuoterV2",
      () =>
        Effect.gen(function* () {
          const { exchange, chain, quoter, launch, quoteAt, head } = yield* setup
          let before = yield* quoteAt(yield* head)
          const fullAtStart = yield* updates(exchange, "full")
          const deltasAtStart = yield* updates(exchange, "delta")
          assert.isAtLeast(fullAtStart, 1)
          for (let swap = 0; swap < 3; swap++) {
            yield* buyWithWeth(chain.accounts[4]!, launch.token, launch.fee, parseEther("0.5"))
            const after = yield* quoteAt(yield* head)
            assert.isTrue(
              BigInt(after.amountOut) < BigInt(before.amountOut),
              `swap ${swap} moved the price: ${before.amountOut} → ${after.amountOut} at block ${after.blockNumber}`
            )
            const compared = yield* matchesQuoter(after, quoter)
            assert.strictEqual(
              compared,
              after.route.length,
              `every route compared with QuoterV2 (${after.routeString})`
            )
            before = after
          }
          assert.strictEqual(yield* updates(exchange, "full"), fullAtStart, "no full reload after the start")
          assert.isAtLeast(
            (yield* updates(exchange, "delta")) - deltasAtStart,
            3,
            "one delta per swap's batch at least"
          )
        }),
      240_000
    )

    it.effect(
      "a reorg that drops a swap reaches the exchange process as a delta of the rolled-back pools: quotes as before the swap",
      () =>
        Effect.gen(function* () {
          const { exchange, chain, quoter, launch, quoteAt, head } = yield* setup
          const before = yield* quoteAt(yield* head)
          const fullBefore = yield* updates(exchange, "full")
          // wrap, approve, swap: three blocks, then replaced by three empty ones (anvil_reorg) and one more mined.
          yield* buyWithWeth(chain.accounts[5]!, launch.token, launch.fee, parseEther("0.5"))
          const swapped = yield* quoteAt(yield* head)
          assert.isTrue(BigInt(swapped.amountOut) < BigInt(before.amountOut), "the swap moved the price")
          yield* Effect.promise(() => chain.reorg(3))
          yield* Effect.promise(() => chain.mine(1))
          const after = yield* quoteAt(yield* head)
          assert.strictEqual(after.amountOut, before.amountOut, "the dropped swap is gone from the quote")
          const compared = yield* matchesQuoter(after, quoter)
          assert.strictEqual(compared, after.route.length, `every route compared with QuoterV2 (${after.routeString})`)
          assert.strictEqual(yield* updates(exchange, "full"), fullBefore, "the reorg was applied as a delta")
        }),
      240_000
    )
  }
)
