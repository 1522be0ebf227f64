import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Metric, Schedule } from "effect"
import { parseEventLogs } from "viem"
import { servicesLayer } from "../../layers/App.ts"
import { FireLaunchAbi } from "../../contracts/generated/FireLaunch.ts"
import type { ServiceName } from "../../src/platform/AppConfig.ts"
import { Listening } from "../../src/platform/http/Serve.ts"
import { searchFastLaneResponses } from "../../src/search/SearchFastLane.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { comparableHeaders, rawGet } from "../support/RawHttp.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"

/**
 * The search cache and its fast lane (src/search/SearchCache.ts, src/search/SearchFastLane.ts): an answer from the
 * lane equals, status, headers in order (but the Date) and body bytes, the answer of a search server with the cache
 * off (SEARCH_CACHE=false: the plain HttpApi path); an indexed launch is in the next answer once the index holds it.
 */
const chainId = 31337
const laneCount = Effect.map(Metric.value(searchFastLaneResponses.ok), (s) => s.count)

/** Waits (bounded) until the search server at `base` is ready and holds `block`. */
const holds = (base: string, block: bigint) =>
  fetchJson(`${base}/api/v1/search/index`).pipe(
    Effect.repeat({
      until: (r): boolean => {
        const info = r.body as {
          ready?: boolean
          chains?: ReadonlyArray<{ chainId: number; searchBlock: string | null }>
        }
        const held = info.chains?.find((c) => c.chainId === chainId)?.searchBlock
        return info.ready === true && held != null && BigInt(held) >= block
      },
      schedule: Schedule.spaced("20 millis")
    }),
    Effect.timeout("60 seconds")
  )

/** A second search server over the same database, with the cache off (the HttpApi path of every request). */
const uncachedSearch = Effect.gen(function* () {
  const listening = new Map<ServiceName, string>()
  const env = { ...process.env, SEARCH_CACHE: "false" } as Record<string, string>
  yield* Layer.build(
    servicesLayer(["search"]).pipe(
      Layer.provide(
        Layer.mergeAll(Layer.succeed(Listening, listening), ConfigProvider.layer(ConfigProvider.fromEnv({ env })))
      )
    )
  )
  return listening.get("search")!
})

layer(TestServices(["search", "indexer"]), { timeout: "180 seconds", excludeTestServices: true })(
  "search fast lane",
  (it) => {
    it.effect("a lane answer = the uncached answer: status, headers in order but Date, body bytes", () =>
      Effect.gen(function* () {
        const anvil = yield* AnvilChain
        const head = yield* Effect.promise(() => anvil.publicClient.getBlockNumber())
        const on = yield* baseUrl("search")
        const off = yield* uncachedSearch
        yield* holds(on, head)
        yield* holds(off, head)
        const seeded = anvil.deployments.launches[0]!
        const paths = [
          "/api/v1/autocomplete?q=e",
          "/api/v1/autocomplete?q=emb",
          "/api/v1/autocomplete?q=ember&limit=3",
          `/api/v1/autocomplete?q=${seeded.token.toUpperCase().replace("0X", "0x")}`,
          "/api/v1/autocomplete?q=nothing%20matches%20this",
          "/api/v1/search?q=blze&limit=20",
          "/api/v1/search/tokens?q=&sort=liquidity",
          `/api/v1/search/pools?q=${seeded.token}`
        ]
        const client = { "x-request-id": "search-lane-test" }
        for (const path of paths) {
          const uncached = yield* rawGet(`${off}${path}`, client)
          assert.strictEqual(uncached.status, 200, path)
          const miss = yield* rawGet(`${on}${path}`, client) // the Effect path fills the cache
          const before = yield* laneCount
          const hit = yield* rawGet(`${on}${path}`, client)
          assert.strictEqual(yield* laneCount, before + 1, `${path}: answered by the lane`)
          for (const [answer, what] of [
            [miss, "the filling answer"],
            [hit, "the lane's answer"]
          ] as const) {
            assert.strictEqual(answer.status, 200)
            assert.deepStrictEqual(comparableHeaders(answer), comparableHeaders(uncached), `${path}: ${what}`)
            assert.isTrue(answer.body.equals(uncached.body), `${path}: ${what}, same body bytes`)
          }
        }
        // The cache-off server never answers from a lane.
        const before = yield* laneCount
        for (let i = 0; i < 2; i++) assert.strictEqual((yield* rawGet(`${off}${paths[0]}`)).status, 200)
        assert.strictEqual(yield* laneCount, before)
        // A refused query is not cached: both answers come from the Effect path.
        for (let i = 0; i < 2; i++) assert.strictEqual((yield* rawGet(`${on}/api/v1/autocomplete?q=`)).status, 400)
        assert.strictEqual(yield* laneCount, before)
      }).pipe(Effect.scoped)
    )

    it.effect("a launch indexed after an answer was cached is in the next answer", () =>
      Effect.gen(function* () {
        const anvil = yield* AnvilChain
        const on = yield* baseUrl("search")
        const path = "/api/v1/autocomplete?q=quokka"
        const before = yield* rawGet(`${on}${path}`)
        const count = yield* laneCount
        const cached = yield* rawGet(`${on}${path}`)
        assert.strictEqual(yield* laneCount, count + 1, "the second answer came from the lane")
        assert.deepStrictEqual(JSON.parse(cached.body.toString()).tokens, [])
        assert.isTrue(cached.body.equals(before.body))

        const receipt = yield* Effect.promise(() =>
          anvil.sender.write(anvil.accounts[8]!, anvil.deployments.launchpad!.fireLaunch, FireLaunchAbi, "ignite", [
            "Quokka Nimbus",
            "QKNB"
          ])
        )
        const [ignited] = parseEventLogs({ abi: FireLaunchAbi, logs: receipt.logs, eventName: "Ignited" })
        yield* holds(on, receipt.blockNumber)
        const after = JSON.parse((yield* rawGet(`${on}${path}`)).body.toString())
        assert.deepStrictEqual(
          after.tokens.map((t: { symbol: string; address: string }) => [t.symbol, t.address]),
          [["QKNB", ignited!.args.token.toLowerCase()]]
        )
      })
    )
  }
)
