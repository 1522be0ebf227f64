import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { HttpServerRequest } from "effect/http"
import { Chain } from "../../platform/Chain.ts"
import { ExchangeApi } from "../ExchangeApi.ts"
import { ExchangeCache } from "../cache/ExchangeCache.ts"
import { exchangeSettings } from "../ExchangeConfig.ts"
import { ExchangeNotFound } from "../ExchangeError.ts"
import { idOf, PAGE_DEFAULT, parseCursor, parseId } from "../Ids.ts"
import { PoolEventsRepo } from "./PoolEventsRepo.ts"
import { PoolsRepo } from "./PoolsRepo.ts"
import { eventPage, poolDetail, poolSummary } from "./PoolViews.ts"
import { Positions } from "./Positions.ts"
import { priceAtTick } from "./PositionMath.ts"
import { ROUTER_MIN_LIQUIDITY } from "../quotes/RoutingSettings.ts"

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** Handlers of the pool routes; hot ones (list, detail, ticks, summaries, metrics) go through the ExchangeCache. */
export const PoolsHttp = HttpApiBuilder.group(ExchangeApi, "pools", (handlers) =>
  Effect.gen(function* () {
    const repo = yield* PoolsRepo
    const events = yield* PoolEventsRepo
    const positions = yield* Positions
    const cache = yield* ExchangeCache
    const chain = yield* Chain
    const settings = yield* exchangeSettings
    const chainId = chain.chainId
    const cached = <A, E, R>(value: Effect.Effect<A, E, R>) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        return yield* cache.respond(request.url, value)
      })

    /** The indexed pool a poolId names, or 404 POOL_NOT_FOUND (also for another chain's id). */
    const poolOf = (poolId: string) => {
      const id = parseId(poolId)
      const missing = new ExchangeNotFound({
        error: `Pool ${poolId} is not indexed`,
        code: "POOL_NOT_FOUND",
        details: { poolId }
      })
      if (id.chainId !== chainId) return Effect.fail(missing)
      return Effect.flatMap(repo.byAddress(chainId, id.address), (row) =>
        row === undefined ? Effect.fail(missing) : Effect.succeed(row)
      )
    }
    const otherChain = (requested: number | undefined) => requested !== undefined && requested !== chainId

    return handlers
      .handle("listPools", ({ query }) =>
        cached(
          Effect.gen(function* () {
            const limit = query.limit ?? PAGE_DEFAULT
            const offset = query.offset ?? 0
            if (otherChain(query.chainId)) return { items: [], page: { limit, offset, total: 0, nextOffset: null } }
            const pair = query.tokens?.toLowerCase().split(",") as [string, string] | undefined
            const { rows, total } = yield* repo.list(
              chainId,
              {
                fee: query.feeTier,
                token: query.token?.toLowerCase(),
                pair,
                minTvlUsd: query.minTvlUsd
              },
              query.sort ?? "tvl",
              query.order ?? "desc",
              limit,
              offset
            )
            return {
              items: rows.map((r) => poolSummary(r, chainId)),
              page: { limit, offset, total, nextOffset: offset + rows.length < total ? offset + rows.length : null }
            }
          }).pipe(Effect.orDie)
        )
      )
      .handle("listAdmittedPools", ({ query }) =>
        Effect.gen(function* () {
          const a = query.tokenA.toLowerCase()
          const b = query.tokenB.toLowerCase()
          const minTvlUsd = query.minTvlUsd ?? settings.admitMinTvlUsd
          if (otherChain(query.chainId)) return { tokenA: a, tokenB: b, minTvlUsd, pools: [] }
          const { rows } = yield* repo.list(chainId, { pair: [a, b] }, "tvl", "desc", 200, 0)
          const allowed = new Set(yield* repo.quoteAllowlist(chainId))
          const pools = rows.map((r) => {
            const reasons: Array<string> = []
            if (r.symbol0 === null || r.symbol1 === null) reasons.push("a token is not on the indexed list")
            if (r.sqrtPriceX96 === null) reasons.push("not initialized")
            if (r.liquidity === null || BigInt(r.liquidity) < ROUTER_MIN_LIQUIDITY)
              reasons.push(`in-range liquidity below the router's floor of ${ROUTER_MIN_LIQUIDITY}`)
            if (allowed.size > 0 && !(allowed.has(r.token0) && allowed.has(r.token1)))
              reasons.push("a token is not on the quote allowlist")
            if (minTvlUsd > 0 && (r.tvlUsd ?? 0) < minTvlUsd) reasons.push(`TVL below the floor of ${minTvlUsd} USD`)
            return { pool: poolSummary(r, chainId), admitted: reasons.length === 0, reasons }
          })
          return { tokenA: a, tokenB: b, minTvlUsd, pools }
        }).pipe(Effect.orDie)
      )
      .handle("listPoolSummaries", ({ query }) =>
        cached(
          Effect.gen(function* () {
            if (otherChain(query.chainId)) return { items: [] }
            if (query.ids === undefined) {
              const { rows } = yield* repo.list(chainId, {}, "tvl", "desc", query.limit ?? PAGE_DEFAULT, 0)
              return { items: rows.map((r) => poolSummary(r, chainId)) }
            }
            const ids = query.ids
              .split(",")
              .slice(0, 100)
              .map((s) => s.trim())
              .filter((s) => /^0x[0-9a-fA-F]{40}-\d+$/.test(s))
              .map(parseId)
            const addresses = ids.filter((id) => id.chainId === chainId).map((id) => id.address)
            const { rows } = yield* repo.list(chainId, { addresses }, "tvl", "desc", 100, 0)
            const byAddress = new Map(rows.map((r) => [r.address, r]))
            return {
              items: addresses.flatMap((a) => (byAddress.has(a) ? [poolSummary(byAddress.get(a)!, chainId)] : []))
            }
          }).pipe(Effect.orDie)
        )
      )
      .handle("getPoolsMetrics", ({ query }) =>
        cached(
          Effect.gen(function* () {
            const [m, tiers, asOf] = yield* Effect.all(
              [repo.metrics(chainId), repo.feeTiers(chainId), repo.asOf(chainId)],
              { concurrency: 3 }
            )
            const none = otherChain(query.chainId)
            return {
              chainId: query.chainId ?? chainId,
              asOf: asOf.toISOString(),
              pools: none ? 0 : m.pools,
              initializedPools: none ? 0 : m.initialized,
              tvlUsd: none ? 0 : (m.tvlUsd ?? 0),
              volume24hUsd: none ? 0 : (m.volume24hUsd ?? 0),
              fees24hUsd: none ? 0 : (m.fees24hUsd ?? 0),
              swaps24h: none ? 0 : m.swaps24h,
              volumeUsdAllTime: none ? 0 : (m.volumeUsdTotal ?? 0),
              swapsAllTime: none ? "0" : m.swapsTotal,
              byFeeTier: none ? [] : tiers.map((t) => ({ feeTier: t.fee, pools: t.pools, tvlUsd: t.tvlUsd ?? 0 }))
            }
          }).pipe(Effect.catchTag("SqlError", Effect.die))
        )
      )
      .handle("getPool", ({ params }) =>
        cached(
          Effect.map(poolOf(params.poolId), (r) => poolDetail(r, chainId)).pipe(Effect.catchTag("SqlError", Effect.die))
        )
      )
      .handle("getPoolTimeseries", ({ params, query }) =>
        Effect.gen(function* () {
          const pool = yield* poolOf(params.poolId)
          const interval = query.interval ?? "hour"
          const to = query.to !== undefined ? new Date(query.to * 1000) : yield* repo.asOf(chainId)
          const from =
            query.from !== undefined
              ? new Date(query.from * 1000)
              : new Date(to.getTime() - (interval === "hour" ? 7 * DAY : 365 * DAY))
          const rows = yield* repo.candles(chainId, pool.address, interval === "hour" ? "1h" : "1d", from, to)
          return {
            poolId: idOf(pool.address, chainId),
            interval,
            from: from.toISOString(),
            to: to.toISOString(),
            points: rows.map((c) => ({
              time: c.bucketStart.toISOString(),
              open: c.open,
              high: c.high,
              low: c.low,
              close: c.close,
              volumeUsd: c.volumeUsd,
              tvlUsd: c.tvlUsd,
              swapCount: c.swapCount,
              volume0: c.volume0,
              volume1: c.volume1
            }))
          }
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
      .handle("listPoolActivity", ({ params, query }) =>
        Effect.gen(function* () {
          const pool = yield* poolOf(params.poolId)
          const limit = query.limit ?? PAGE_DEFAULT
          const kinds = [...new Set((query.types ?? "swap,mint,burn").split(","))] as Array<"swap" | "mint" | "burn">
          const rows = yield* events.activity(
            chainId,
            pool.address,
            kinds,
            query.cursor === undefined ? undefined : parseCursor(query.cursor),
            limit
          )
          return eventPage(rows, limit)
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
      .handle("getPoolTicks", ({ params }) =>
        cached(
          Effect.gen(function* () {
            const pool = yield* poolOf(params.poolId)
            const ticks = yield* repo.ticks(chainId, pool.address)
            return {
              poolId: idOf(pool.address, chainId),
              tickSpacing: pool.tickSpacing,
              currentTick: pool.tick,
              liquidity: pool.liquidity ?? "0",
              ticks: ticks.map((t) => ({
                tick: t.tick,
                liquidityNet: t.liquidityNet,
                liquidityGross: t.liquidityGross,
                liquidityActive: t.liquidityActive,
                // No guessed scale: a token without readable decimals() has none (the indexer stores null).
                price0:
                  pool.decimals0 === null || pool.decimals1 === null
                    ? null
                    : priceAtTick(t.tick, pool.decimals0, pool.decimals1)
              }))
            }
          }).pipe(Effect.catchTag("SqlError", Effect.die))
        )
      )
      .handle("listPoolPositions", ({ params, query }) =>
        Effect.gen(function* () {
          const pool = yield* poolOf(params.poolId)
          const limit = query.limit ?? PAGE_DEFAULT
          const offset = query.offset ?? 0
          const { items, total } = yield* positions.list({ pool: pool.address }, limit, offset, { fees: false })
          return {
            items,
            page: { limit, offset, total, nextOffset: offset + items.length < total ? offset + items.length : null }
          }
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
      .handle("listPoolSwaps", ({ params, query }) =>
        Effect.gen(function* () {
          const pool = yield* poolOf(params.poolId)
          const limit = query.limit ?? PAGE_DEFAULT
          const rows = yield* events.swaps(
            chainId,
            pool.address,
            query.cursor === undefined ? undefined : parseCursor(query.cursor),
            limit
          )
          return eventPage(rows, limit)
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
  })
)
