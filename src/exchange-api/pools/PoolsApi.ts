import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ExchangeNotFound } from "../ExchangeError.ts"
import { AddressParam, ChainIdParam, Cursor, Limit, Offset, PAGE_DEFAULT, PAGE_MAX, PoolId } from "../Ids.ts"
import {
  AdmittedPools,
  PoolDetail,
  PoolEvents,
  PoolList,
  PoolPositions,
  PoolsMetrics,
  PoolSummary,
  PoolTicks,
  PoolTimeseries
} from "./PoolModels.ts"
import { PublicRateLimit } from "../PublicRateLimit.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })
const poolParams = { poolId: PoolId }
const notFound = "404 POOL_NOT_FOUND for a well-formed id the index does not know (or another chain)."

const ListQuery = {
  chainId: Schema.optional(ChainIdParam),
  feeTier: Schema.optional(Schema.Int).annotate({ description: "Only this fee tier (e.g. 500, 3000, 10000)" }),
  token: Schema.optional(AddressParam).annotate({ description: "Pools holding this token on either side" }),
  tokens: Schema.optional(
    Schema.String.check(
      Schema.isPattern(/^0x[0-9a-fA-F]{40},0x[0-9a-fA-F]{40}$/u, {
        message: "expected two addresses separated by a comma"
      })
    )
  ).annotate({ description: "`<address>,<address>`: pools of exactly this pair, either order" }),
  minTvlUsd: Schema.optional(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))),
  sort: Schema.optional(Schema.Literals(["tvl", "volume", "created"])).annotate({
    description: "tvl (default), volume (24 h USD) or created (creation block)"
  }),
  order: Schema.optional(Schema.Literals(["desc", "asc"])).annotate({ description: "desc (default) or asc" }),
  limit: Schema.optional(Limit),
  offset: Schema.optional(Offset)
}

/**
 * The pool routes (spec "Pools"): public GET routes limited per client IP. Ids are `<address>-<chainId>`;
 * a malformed id → 400 INVALID_PATH, an unknown one → 404 POOL_NOT_FOUND.
 */
export class PoolsApi extends HttpApiGroup.make("pools")
  .add(
    HttpApiEndpoint.get("listPools", "/api/v1/pools/list", { query: ListQuery, success: PoolList }).annotateMerge(
      doc(
        "Pool directory",
        `Indexed pools (canonical launch pools and the base pairs) with filters, sorted by TVL, 24 h volume or creation. ` +
          `Offset pages: limit default ${PAGE_DEFAULT}, at most ${PAGE_MAX}; offset at most 10000. Cached until the next indexed block (ETag).`
      )
    ),
    HttpApiEndpoint.get("listAdmittedPools", "/api/v1/pools/admitted", {
      query: {
        chainId: Schema.optional(ChainIdParam),
        tokenA: AddressParam,
        tokenB: AddressParam,
        minTvlUsd: Schema.optional(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))).annotate({
          description: "Liquidity floor in USD (default EXCHANGE_ADMIT_MIN_TVL_USD)"
        })
      },
      success: AdmittedPools
    }).annotateMerge(
      doc(
        "Admitted pools for a trading pair",
        "Every indexed pool of the pair (either order), each marked admitted or not: the pools the quote router may route " +
          "through. A pool is admitted when both tokens are indexed (canonical launches, the configured base tokens and tokens " +
          "paired with a launch), it is initialized, its in-range liquidity reaches the router's liquidity floor (1: pools " +
          "with no in-range liquidity are never candidates), both tokens are on the chain's quote allowlist when one is " +
          "configured (QUOTE_ALLOWLIST / `npm run quote-admin`; no list = no restriction), and its TVL reaches the floor " +
          "(EXCHANGE_ADMIT_MIN_TVL_USD, default 0; a pool without a USD price passes a floor of 0 only). `reasons` says why a " +
          "pool is not admitted."
      )
    ),
    HttpApiEndpoint.get("listPoolSummaries", "/api/v1/pools", {
      query: {
        chainId: Schema.optional(ChainIdParam),
        ids: Schema.optional(Schema.String).annotate({
          description: "Comma-separated poolIds (at most 100); default: the top pools by TVL"
        }),
        limit: Schema.optional(Limit)
      },
      success: Schema.Struct({ items: Schema.Array(PoolSummary) })
    }).annotateMerge(
      doc(
        "Pool summaries with metrics",
        "Summaries (tokens, fee, price, liquidity, TVL, 24 h volume and fees) of the given pools in the given order (unknown ids are left out), " +
          `or of the top pools by TVL (limit default ${PAGE_DEFAULT}).`
      )
    ),
    HttpApiEndpoint.get("getPoolsMetrics", "/api/v1/pools/metrics", {
      query: { chainId: Schema.optional(ChainIdParam) },
      success: PoolsMetrics
    }).annotateMerge(
      doc(
        "Aggregate pool metrics",
        "Totals across all indexed pools: TVL, 24 h volume, fees and swaps, all-time volume, per fee tier."
      )
    ),
    HttpApiEndpoint.get("getPool", "/api/v1/pools/:poolId", {
      params: poolParams,
      success: PoolDetail,
      error: ExchangeNotFound
    }).annotateMerge(
      doc(
        "Pool detail",
        `Tokens, fee, tick spacing, slot0, liquidity, TVL, 24 h volume/fees, all-time counters, launchpad flags. ${notFound}`
      )
    ),
    HttpApiEndpoint.get("getPoolTimeseries", "/api/v1/pools/:poolId/timeseries", {
      params: poolParams,
      query: {
        interval: Schema.optional(Schema.Literals(["hour", "day"])).annotate({ description: "hour (default) or day" }),
        from: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))).annotate({
          description: "Unix seconds; default: to − 7 days (hour) or − 365 days (day)"
        }),
        to: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))).annotate({
          description: "Unix seconds; default: the last indexed block's time"
        })
      },
      success: PoolTimeseries,
      error: ExchangeNotFound
    }).annotateMerge(
      doc(
        "Pool time series",
        `OHLC price (token1 per token0), USD volume, TVL and swap count per hour or day; at most 2000 points. ${notFound}`
      )
    ),
    HttpApiEndpoint.get("listPoolActivity", "/api/v1/pools/:poolId/activity", {
      params: poolParams,
      query: {
        types: Schema.optional(
          Schema.String.check(
            Schema.isPattern(/^(swap|mint|burn)(,(swap|mint|burn))*$/u, {
              message: "expected swap, mint, burn separated by commas"
            })
          )
        ).annotate({ description: "Comma-separated subset of swap,mint,burn (default all)" }),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      success: PoolEvents,
      error: ExchangeNotFound
    }).annotateMerge(doc("Pool activity", `Swaps, mints and burns merged, newest first, in keyset pages. ${notFound}`)),
    HttpApiEndpoint.get("getPoolTicks", "/api/v1/pools/:poolId/ticks", {
      params: poolParams,
      success: PoolTicks,
      error: ExchangeNotFound
    }).annotateMerge(
      doc(
        "Tick liquidity (depth chart)",
        `Every initialized tick with liquidityNet and the liquidity active from it to the next one. ${notFound}`
      )
    ),
    HttpApiEndpoint.get("listPoolPositions", "/api/v1/pools/:poolId/positions", {
      params: poolParams,
      query: { limit: Schema.optional(Limit), offset: Schema.optional(Offset) },
      success: PoolPositions,
      error: ExchangeNotFound
    }).annotateMerge(
      doc(
        "Active liquidity providers",
        `Positions with liquidity in the pool, with token amounts at the current price (uncollected fees are read only on the wallet ` +
          `route): position-manager NFTs and positions held directly on the pool (\`positionId\` null) in one list, ordered by liquidity ` +
          `(largest first), then NFT token id, then (direct positions, after NFTs of equal liquidity) owner, tickLower, tickUpper. ` +
          `\`limit\`/\`offset\` page that list and \`total\` counts both kinds. ${notFound}`
      )
    ),
    HttpApiEndpoint.get("listPoolSwaps", "/api/v1/pools/:poolId/swaps", {
      params: poolParams,
      query: { limit: Schema.optional(Limit), cursor: Schema.optional(Cursor) },
      success: PoolEvents,
      error: ExchangeNotFound
    }).annotateMerge(
      doc("Swap history", `Swaps newest first with USD size and price after, in keyset pages. ${notFound}`)
    )
  )
  .middleware(PublicRateLimit)
  .annotateMerge(OpenApi.annotations({ description: "Pools: public, limited per client IP" })) {}
