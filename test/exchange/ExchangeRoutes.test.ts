import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress } from "viem"
import { AnvilChain } from "../support/AnvilChain.ts"
import { TestServices } from "../support/TestServer.ts"
import { erc20Abi, exchange, indexedHead, poolAbi, read } from "./support.ts"

/**
 * Every exchange data route against the seeded devnet indexed by the real indexer (exchange + indexer services in one
 * test process, as `npm start` runs them): figures cross-checked against eth_call at the indexed block and against
 * independent SQL over the indexed tables.
 */
const chainId = 31337
const ids = (address: string) => `${address}-${chainId}`

layer(TestServices(["exchange", "indexer"]), { timeout: "120 seconds", excludeTestServices: true })(
  "exchange data routes",
  (it) => {
    it.effect("indexer status: height, last indexed block, lag 0, ready; readiness 200", () =>
      Effect.gen(function* () {
        const block = yield* indexedHead
        const chain = yield* AnvilChain
        const head = yield* Effect.promise(() => chain.blockNumber())
        const status = (yield* exchange("/api/v1/indexer/status")).body
        assert.strictEqual(status.chainId, chainId)
        assert.strictEqual(BigInt(status.lastIndexedBlock), block)
        assert.strictEqual(BigInt(status.height), head)
        assert.strictEqual(status.lagBlocks, "0")
        assert.isTrue(status.ready)
        // The indexer's own phase comes with its change notices: after the backfill's last batch it says "following"
        // (it said "backfilling" until a next block came).
        const following = yield* exchange("/api/v1/indexer/status").pipe(
          Effect.repeat({
            until: (r) => r.body.indexer?.phase === "following",
            schedule: Schedule.spaced("50 millis")
          }),
          Effect.timeout("10 seconds")
        )
        assert.strictEqual(following.body.indexer.phase, "following")
        const ready = yield* exchange("/api/health/ready")
        assert.strictEqual(ready.status, 200)
        assert.strictEqual(ready.body.database.status, "up")
        const live = yield* exchange("/api/health")
        assert.strictEqual(live.status, 200)
      })
    )

    it.effect(
      "pools list: every indexed pool, slot0/liquidity/tokens/fee equal eth_call at the indexed block; sorts; offset pages",
      () =>
        Effect.gen(function* () {
          const block = yield* indexedHead
          const sql = yield* SqlClient.SqlClient
          const n = (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM pools WHERE chain_id = ${chainId}`)[0]!.n
          const res = yield* exchange("/api/v1/pools/list?limit=200")
          assert.strictEqual(res.status, 200)
          assert.strictEqual(res.body.page.total, n)
          assert.strictEqual(res.body.items.length, n)
          assert.isNull(res.body.page.nextOffset)
          const tvls = res.body.items.map((p: any) => p.tvlUsd ?? 0)
          assert.deepStrictEqual(
            tvls,
            [...tvls].sort((a: number, b: number) => b - a)
          )
          for (const p of res.body.items) {
            const detail = (yield* exchange(`/api/v1/pools/${p.poolId}`)).body
            const slot0 = yield* read<readonly [bigint, number]>(p.address, poolAbi, "slot0", [], block)
            assert.strictEqual(detail.slot0.sqrtPriceX96, slot0[0].toString(), p.poolId)
            assert.strictEqual(detail.slot0.tick, slot0[1])
            assert.strictEqual(
              detail.liquidity,
              (yield* read<bigint>(p.address, poolAbi, "liquidity", [], block)).toString()
            )
            assert.strictEqual(
              detail.token0.address,
              (yield* read<string>(p.address, poolAbi, "token0", [], block)).toLowerCase()
            )
            assert.strictEqual(
              detail.token1.address,
              (yield* read<string>(p.address, poolAbi, "token1", [], block)).toLowerCase()
            )
            assert.strictEqual(detail.feeTier, yield* read<number>(p.address, poolAbi, "fee", [], block))
            assert.strictEqual(detail.tickSpacing, yield* read<number>(p.address, poolAbi, "tickSpacing", [], block))
            // Reserves: what the pool holds of each token (nobody sends tokens to a pool outside swaps and mints here).
            assert.strictEqual(
              detail.reserve0,
              (yield* read<bigint>(p.token0.address, erc20Abi, "balanceOf", [p.address], block)).toString()
            )
            assert.strictEqual(
              detail.reserve1,
              (yield* read<bigint>(p.token1.address, erc20Abi, "balanceOf", [p.address], block)).toString()
            )
            const [sw] = yield* sql<{
              n: string
            }>`SELECT count(*)::text AS n FROM swaps WHERE chain_id = ${chainId} AND pool = ${p.address}`
            assert.strictEqual(detail.totals.swapCount, sw!.n)
          }
          // Launch pools carry the launchpad flags; the stablecoin pool does not.
          const [launch] = yield* sql<{
            pool: string
            token: string
          }>`SELECT pool, token FROM launches WHERE chain_id = ${chainId} LIMIT 1`
          const lp = res.body.items.find((p: any) => p.address === launch!.pool)
          assert.isTrue(lp.launchpad.launchedHere)
          assert.strictEqual(lp.launchpad.token, launch!.token)
          // Offset pages of 1 visit every pool once; past the end → empty.
          const seen: Array<string> = []
          let offset: number | null = 0
          while (offset !== null) {
            const page: any = (yield* exchange(`/api/v1/pools/list?limit=1&offset=${offset}`)).body
            seen.push(...page.items.map((p: any) => p.address))
            offset = page.page.nextOffset
          }
          assert.deepStrictEqual(
            seen,
            res.body.items.map((p: any) => p.address)
          )
          assert.strictEqual((yield* exchange(`/api/v1/pools/list?offset=${n}`)).body.items.length, 0)
          for (const bad of [
            "limit=0",
            "limit=201",
            "offset=-1",
            "offset=10001",
            "sort=price",
            "token=0x12",
            "feeTier=abc"
          ]) {
            const r = yield* exchange(`/api/v1/pools/list?${bad}`)
            assert.strictEqual(r.status, 400, bad)
            assert.strictEqual(r.body.code, "INVALID_QUERY", bad)
            assert.isString(r.body.error)
          }
          // Filters: fee tier and token.
          const fee = res.body.items[0].feeTier
          const byFee = (yield* exchange(`/api/v1/pools/list?feeTier=${fee}&limit=200`)).body
          const nFee = (yield* sql<{
            n: number
          }>`SELECT count(*)::int AS n FROM pools WHERE chain_id = ${chainId} AND fee = ${fee}`)[0]!.n
          assert.strictEqual(byFee.page.total, nFee)
          const weth = (yield* AnvilChain).deployments.contracts.weth9.toLowerCase()
          const byToken = (yield* exchange(
            `/api/v1/pools/list?token=${weth.toUpperCase().replace("0X", "0x")}&limit=200`
          )).body
          const nWeth = (yield* sql<{
            n: number
          }>`SELECT count(*)::int AS n FROM pools WHERE chain_id = ${chainId} AND (token0 = ${weth} OR token1 = ${weth})`)[0]!
            .n
          assert.strictEqual(byToken.page.total, nWeth)
          const created = (yield* exchange(`/api/v1/pools/list?sort=created&order=asc&limit=200`)).body.items.map(
            (p: any) => BigInt(p.createdBlock)
          )
          assert.deepStrictEqual(
            created,
            [...created].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
          )
        })
    )

    it.effect(
      "pool ids: malformed → 400 INVALID_PATH, unknown or another chain → 404 POOL_NOT_FOUND, on every pool route",
      () =>
        Effect.gen(function* () {
          for (const suffix of ["", "/timeseries", "/activity", "/ticks", "/positions", "/swaps"]) {
            const bad = yield* exchange(`/api/v1/pools/0x1234-31337${suffix}`)
            assert.strictEqual(bad.status, 400, suffix)
            assert.strictEqual(bad.body.code, "INVALID_PATH")
            const unknown = yield* exchange(`/api/v1/pools/0x${"ab".repeat(20)}-31337${suffix}`)
            assert.strictEqual(unknown.status, 404, suffix)
            assert.strictEqual(unknown.body.code, "POOL_NOT_FOUND")
          }
          const pools = (yield* exchange("/api/v1/pools/list")).body.items
          const other = yield* exchange(`/api/v1/pools/${pools[0].address}-1`)
          assert.strictEqual(other.status, 404)
        })
    )

    it.effect(
      "ids: a checksummed poolId/tokenId in the path → every response carries the lowercase id of the list routes",
      () =>
        Effect.gen(function* () {
          yield* indexedHead
          const pools = (yield* exchange("/api/v1/pools/list?limit=200")).body.items
          for (const p of pools) {
            const mixed = `${getAddress(p.address)}-${chainId}`
            assert.notStrictEqual(mixed, p.poolId)
            assert.strictEqual(p.poolId, ids(p.address.toLowerCase()))
            // Twice: the second answer of the cached routes comes from the ExchangeCache entry of this exact target.
            for (let i = 0; i < 2; i++) {
              assert.strictEqual((yield* exchange(`/api/v1/pools/${mixed}`)).body.poolId, p.poolId)
              assert.strictEqual((yield* exchange(`/api/v1/pools/${mixed}/timeseries`)).body.poolId, p.poolId)
              assert.strictEqual((yield* exchange(`/api/v1/pools/${mixed}/ticks`)).body.poolId, p.poolId)
              for (const position of (yield* exchange(`/api/v1/pools/${mixed}/positions`)).body.items)
                assert.strictEqual(position.poolId, p.poolId)
            }
          }
          const tokens = (yield* exchange("/api/v1/tokens/bluechip")).body.items
          assert.isAbove(tokens.length, 0)
          for (const t of tokens) {
            const mixed = `${getAddress(t.address)}-${chainId}`
            assert.notStrictEqual(mixed, t.tokenId)
            assert.strictEqual(t.tokenId, ids(t.address.toLowerCase()))
            assert.strictEqual((yield* exchange(`/api/v1/tokens/${mixed}`)).body.tokenId, t.tokenId)
            assert.strictEqual((yield* exchange(`/api/v1/tokens/${mixed}/history`)).body.tokenId, t.tokenId)
            const prices = (yield* exchange(`/api/v1/tokens/prices?addresses=${getAddress(t.address)}`)).body.items
            assert.deepStrictEqual(
              prices.map((x: any) => x.tokenId),
              [t.tokenId]
            )
          }
        })
    )

    it.effect(
      "ticks: liquidityNet equals ticks(t) by eth_call; active liquidity at the current tick equals liquidity()",
      () =>
        Effect.gen(function* () {
          const block = yield* indexedHead
          const pools = (yield* exchange("/api/v1/pools/list?limit=200")).body.items
          for (const p of pools) {
            const res = (yield* exchange(`/api/v1/pools/${p.poolId}/ticks`)).body
            assert.isAbove(res.ticks.length, 0, p.poolId)
            for (const t of res.ticks) {
              const onChain = yield* read<readonly [bigint, bigint]>(p.address, poolAbi, "ticks", [t.tick], block)
              assert.strictEqual(t.liquidityGross, onChain[0].toString())
              assert.strictEqual(t.liquidityNet, onChain[1].toString())
            }
            const active = [...res.ticks].reverse().find((t: any) => t.tick <= res.currentTick)
            const liquidity = (yield* read<bigint>(p.address, poolAbi, "liquidity", [], block)).toString()
            assert.strictEqual(active === undefined ? "0" : active.liquidityActive, liquidity, p.poolId)
            assert.strictEqual(res.liquidity, liquidity)
            assert.strictEqual(res.ticks.at(-1).liquidityActive, "0", "all liquidity ends above the last tick")
          }
        })
    )

    it.effect("activity and swaps: keyset pages walk every event once, newest first; counts equal SQL", () =>
      Effect.gen(function* () {
        yield* indexedHead
        const sql = yield* SqlClient.SqlClient
        const pools = (yield* exchange("/api/v1/pools/list?sort=volume&limit=200")).body.items
        const p = pools.find((x: any) => x.launchpad.launchedHere)
        const walk = (path: string) =>
          Effect.gen(function* () {
            const out: Array<any> = []
            let cursor: string | null = null
            for (let i = 0; i < 1000; i++) {
              const page: any = (yield* exchange(
                `${path}${path.includes("?") ? "&" : "?"}limit=2${cursor === null ? "" : `&cursor=${cursor}`}`
              )).body
              out.push(...page.items)
              cursor = page.page.nextCursor
              if (cursor === null) break
            }
            return out
          })
        const activity = yield* walk(`/api/v1/pools/${p.poolId}/activity`)
        const [counts] = yield* sql<{ s: number; m: number; b: number }>`SELECT
        (SELECT count(*)::int FROM swaps WHERE chain_id = ${chainId} AND pool = ${p.address}) AS s,
        (SELECT count(*)::int FROM mints WHERE chain_id = ${chainId} AND pool = ${p.address}) AS m,
        (SELECT count(*)::int FROM burns WHERE chain_id = ${chainId} AND pool = ${p.address}) AS b`
        assert.strictEqual(activity.length, counts!.s + counts!.m + counts!.b)
        assert.strictEqual(new Set(activity.map((e: any) => `${e.blockNumber}:${e.logIndex}`)).size, activity.length)
        const keys = activity.map((e: any) => BigInt(e.blockNumber) * 100_000n + BigInt(e.logIndex))
        assert.deepStrictEqual(
          keys,
          [...keys].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))
        )
        assert.isAbove(counts!.s, 0)
        const swaps = yield* walk(`/api/v1/pools/${p.poolId}/swaps`)
        assert.strictEqual(swaps.length, counts!.s)
        assert.isTrue(swaps.every((e: any) => e.type === "swap"))
        const mintsOnly = yield* walk(`/api/v1/pools/${p.poolId}/activity?types=mint`)
        assert.strictEqual(mintsOnly.length, counts!.m)
        assert.strictEqual((yield* exchange(`/api/v1/pools/${p.poolId}/swaps?cursor=abc`)).status, 400)
      })
    )

    it.effect(
      "timeseries: hourly and daily points sum to the pool's swap count; /pools summaries and /pools/metrics equal SQL",
      () =>
        Effect.gen(function* () {
          yield* indexedHead
          const sql = yield* SqlClient.SqlClient
          const pools = (yield* exchange("/api/v1/pools/list?limit=200")).body.items
          for (const p of pools) {
            for (const interval of ["hour", "day"]) {
              const ts = (yield* exchange(
                `/api/v1/pools/${p.poolId}/timeseries?interval=${interval}&from=0&to=4000000000`
              )).body
              const n = (yield* sql<{
                n: number
              }>`SELECT count(*)::int AS n FROM swaps WHERE chain_id = ${chainId} AND pool = ${p.address}`)[0]!.n
              assert.strictEqual(
                ts.points.reduce((a: number, c: any) => a + c.swapCount, 0),
                n,
                `${p.poolId} ${interval}`
              )
            }
          }
          const some = pools.slice(0, 2).map((p: any) => p.poolId)
          const summaries = (yield* exchange(`/api/v1/pools?ids=${some.join(",")},0x${"cd".repeat(20)}-31337`)).body
            .items
          assert.deepStrictEqual(
            summaries.map((s: any) => s.poolId),
            some
          )
          const metrics = (yield* exchange("/api/v1/pools/metrics")).body
          const [m] = yield* sql<{ pools: number; tvl: number; total: number }>`
        SELECT count(*)::int AS pools, coalesce(sum(s.tvl_usd), 0) AS tvl, coalesce(sum(s.volume_usd), 0)::float8 AS total
        FROM pools p LEFT JOIN pool_states s ON s.chain_id = p.chain_id AND s.pool = p.address WHERE p.chain_id = ${chainId}`
          assert.strictEqual(metrics.pools, m!.pools)
          assert.closeTo(metrics.tvlUsd, m!.tvl, 1e-6 * Math.max(1, m!.tvl))
          assert.closeTo(metrics.volumeUsdAllTime, m!.total, 1e-6 * Math.max(1, m!.total))
          const [v] = yield* sql<{ v: number; n: number }>`
        SELECT coalesce(sum(w.amount_usd), 0)::float8 AS v, count(*)::int AS n FROM swaps w
        WHERE w.chain_id = ${chainId} AND w.block_timestamp >= date_trunc('hour', (SELECT block_timestamp FROM indexer_checkpoints WHERE chain_id = ${chainId})) - interval '23 hours'`
          assert.closeTo(metrics.volume24hUsd, v!.v, 1e-6 * Math.max(1, v!.v))
          assert.strictEqual(metrics.swaps24h, v!.n)
          const stats = (yield* exchange("/api/v1/stats/global")).body
          assert.strictEqual(stats.pools, m!.pools)
          assert.closeTo(stats.volume24hUsd, v!.v, 1e-6 * Math.max(1, v!.v))
          const [t] = yield* sql<{
            tokens: number
            launches: number
          }>`SELECT count(*)::int AS tokens, (SELECT count(*)::int FROM launches WHERE chain_id = ${chainId}) AS launches FROM tokens WHERE chain_id = ${chainId}`
          assert.strictEqual(stats.tokens, t!.tokens)
          assert.strictEqual(stats.launches, t!.launches)
          const [d] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM swaps WHERE chain_id = ${chainId}`
          assert.strictEqual(
            stats.series.reduce((a: number, x: any) => a + x.swapCount, 0),
            d!.n
          )
        })
    )
  }
)
