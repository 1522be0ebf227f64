import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { parseEther, parseEventLogs } from "viem"
import { FireLaunchAbi } from "../../contracts/generated/FireLaunch.ts"
import { swapRouter02Abi } from "../../scripts/devnet/abis.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import type { Listening } from "../../src/platform/http/Serve.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"

// The checkpoint poll (the path of a search service running apart from the indexer) is pushed out of the test's
// reach, so what is checked here is the in-process path: documents rebuilt from each indexer commit event.
process.env.SEARCH_POLL_MS = "3600000"

const get = (path: string): Effect.Effect<any, never, Listening> =>
  Effect.flatMap(baseUrl("search"), (base) => fetchJson(`${base}${path}`)).pipe(
    Effect.map((r) => {
      assert.strictEqual(r.status, 200, `${path}: ${JSON.stringify(r.body)}`)
      return r.body
    })
  )

/** Waits (bounded) until the search index holds the indexer's commit of `block` (its batch has been applied). */
const searchHolds = (block: bigint) =>
  get("/api/v1/search/index").pipe(
    Effect.repeat({
      until: (info): boolean =>
        info.ready === true && BigInt(info.chains.find((c: any) => c.chainId === 31337)?.searchBlock ?? -1) >= block,
      schedule: Schedule.spaced("20 millis")
    }),
    Effect.timeout("60 seconds")
  )

layer(TestServices(["search", "indexer"]), { timeout: "180 seconds", excludeTestServices: true })(
  "search follows the indexer",
  (it) => {
    it.effect("the seeded devnet is searchable: launches with their pools, graduation and liquidity", () =>
      Effect.gen(function* () {
        const anvil = yield* AnvilChain
        const head = yield* Effect.promise(() => anvil.publicClient.getBlockNumber())
        yield* searchHolds(head)
        const ember = yield* get("/api/v1/search/tokens?q=ember")
        assert.strictEqual(ember.items[0].token.symbol, "EMBR")
        assert.isTrue(ember.items[0].token.graduated)
        const seeded = anvil.deployments.launches.find((l) => l.symbol === "EMBR")!
        assert.strictEqual(ember.items[0].token.address, seeded.token.toLowerCase())
        assert.strictEqual(ember.items[0].token.creator, seeded.creator.toLowerCase())
        const blze = (yield* get("/api/v1/search/tokens?q=BLZE")).items[0].token
        assert.isAbove(blze.liquidityUsd, 0, "a pool with a USD path has a TVL")
        assert.isAbove(blze.holders, 0)
        assert.notInclude(
          (yield* get("/api/v1/search/tokens?q=offg")).items.map((h: any) => h.token.symbol),
          "OFFG",
          "non-canonical: not indexed"
        )
        const pools = yield* get(`/api/v1/search/pools?q=${seeded.token}`)
        assert.strictEqual(pools.items[0].pool.address, seeded.pool.toLowerCase())
        assert.isTrue(pools.items[0].pool.isLaunchPool)
      })
    )

    it.effect(
      "a launch made with viem is searchable once the batch of its block is applied; a swap updates its figures",
      () =>
        Effect.gen(function* () {
          const anvil = yield* AnvilChain
          const receipt = yield* Effect.promise(() =>
            anvil.sender.write(anvil.accounts[6]!, anvil.deployments.launchpad!.fireLaunch, FireLaunchAbi, "ignite", [
              "Zephyr Kite",
              "ZPHK"
            ])
          )
          const [ignited] = parseEventLogs({ abi: FireLaunchAbi, logs: receipt.logs, eventName: "Ignited" })
          const token = ignited!.args.token.toLowerCase()
          const pool = ignited!.args.pool.toLowerCase()
          yield* searchHolds(receipt.blockNumber)
          const found = yield* get("/api/v1/search?q=zphk")
          assert.strictEqual(found.tokens.items[0].token.address, token)
          assert.strictEqual(found.tokens.items[0].token.creator, anvil.accounts[6]!.address.toLowerCase())
          assert.strictEqual(found.pools.items[0].pool.address, pool)
          assert.deepStrictEqual(
            (yield* get("/api/v1/autocomplete?q=zeph")).tokens.map((t: any) => t.symbol),
            ["ZPHK"]
          )
          assert.strictEqual(found.pools.items[0].pool.swapCount, 0)
          const holdersBefore = found.tokens.items[0].token.holders

          const swap = yield* Effect.promise(() =>
            anvil.sender.write(
              anvil.accounts[6]!,
              anvil.deployments.contracts.swapRouter02,
              swapRouter02Abi,
              "exactInputSingle",
              [
                {
                  tokenIn: anvil.deployments.contracts.weth9,
                  tokenOut: ignited!.args.token,
                  fee: ignited!.args.fee,
                  recipient: anvil.accounts[6]!.address,
                  amountIn: parseEther("0.05"),
                  amountOutMinimum: 0n,
                  sqrtPriceLimitX96: 0n
                }
              ],
              parseEther("0.05")
            )
          )
          yield* searchHolds(swap.blockNumber)
          const after = yield* get(`/api/v1/search/pools?q=${pool}`)
          assert.strictEqual(after.items[0].pool.swapCount, 1)
          assert.isAbove(after.items[0].pool.tvlUsd, 0)
          const tokenAfter = (yield* get(`/api/v1/search/tokens?q=${token}`)).items[0].token
          assert.isAbove(tokenAfter.volume24hUsd, 0)
          assert.isNotNull(tokenAfter.priceUsd)
          assert.strictEqual(tokenAfter.holders, holdersBefore + 1, "the buyer is a new holder")
        })
    )
  }
)
