import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Chain } from "../../platform/Chain.ts"
import { ExchangeApi } from "../ExchangeApi.ts"
import { ExchangeCache } from "../cache/ExchangeCache.ts"
import { exchangeSettings } from "../ExchangeConfig.ts"
import { ExchangeBadRequest, ExchangeNotFound, ExchangeUnavailable } from "../ExchangeError.ts"
import { idOf, PAGE_DEFAULT, parseId } from "../Ids.ts"
import { IndexerProgress } from "../IndexerProgress.ts"
import { PoolsRepo } from "../pools/PoolsRepo.ts"
import { Positions } from "../pools/Positions.ts"
import { MAX_BATCH } from "./TokensApi.ts"
import { type TokenRow, TokensRepo } from "./TokensRepo.ts"
import { type ClaimState, fireMeta, tokenOverview } from "./TokenViews.ts"
import { TxStatus } from "./TxStatus.ts"
import { sendRetryAfter } from "../RpcUnavailable.ts"

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** Handlers of the token, stats, position, status and readiness routes. */
export const TokensHttp = HttpApiBuilder.group(ExchangeApi, "tokens", (handlers) =>
  Effect.gen(function* () {
    const repo = yield* TokensRepo
    const pools = yield* PoolsRepo
    const positions = yield* Positions
    const cache = yield* ExchangeCache
    const progress = yield* IndexerProgress
    const tx = yield* TxStatus
    const chain = yield* Chain
    const sql = yield* SqlClient.SqlClient
    const settings = yield* exchangeSettings
    const chainId = chain.chainId
    const weth = chain.deployments.contracts.weth9.toLowerCase()
    const bluechip =
      settings.bluechipTokens.length > 0
        ? settings.bluechipTokens
        : [weth, chain.deployments.contracts.stablecoin.toLowerCase()]
    const cached = <A, E, R>(value: Effect.Effect<A, E, R>) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        return yield* cache.respond(request.url, value)
      })
    const otherChain = (requested: number | undefined) => requested !== undefined && requested !== chainId
    // Claim/hide state comes from the client API's listings tables when this database has them.
    const listings = yield* repo.hasListings.pipe(Effect.orDie)
    const claimsOf = (addresses: ReadonlyArray<string>) =>
      listings ? repo.claims(chainId, addresses) : Effect.succeed(new Map<string, ClaimState>())
    const claimOf = (map: ReadonlyMap<string, ClaimState>, address: string) =>
      listings ? (map.get(address) ?? null) : null
    const overviews = <T extends TokenRow>(rows: ReadonlyArray<T>) =>
      Effect.map(claimsOf(rows.map((r) => r.address)), (claims) =>
        rows.map((r) => ({ row: r, token: tokenOverview(r, chainId, claimOf(claims, r.address)) }))
      )

    /** Parses a comma list of at most MAX_BATCH addresses (the spec's batch limit: 101 → 400). */
    const batch = (list: string) => {
      const addresses = [...new Set(list.toLowerCase().split(","))]
      if (list.split(",").length > MAX_BATCH) {
        return Effect.fail(
          new ExchangeBadRequest({
            error: `At most ${MAX_BATCH} addresses per request; got ${list.split(",").length}`,
            code: "TOO_MANY_ADDRESSES",
            details: { max: MAX_BATCH, given: list.split(",").length }
          })
        )
      }
      return Effect.succeed(addresses)
    }
    const tokenOf = (tokenId: string) => {
      const id = parseId(tokenId)
      const missing = new ExchangeNotFound({
        error: `Token ${tokenId} is not indexed`,
        code: "TOKEN_NOT_FOUND",
        details: { tokenId }
      })
      if (id.chainId !== chainId) return Effect.fail(missing)
      return Effect.flatMap(repo.byAddresses(chainId, weth, [id.address]), (rows) =>
        rows[0] === undefined ? Effect.fail(missing) : Effect.succeed(rows[0])
      )
    }

    return handlers
      .handle("getGlobalStats", ({ query }) =>
        cached(
          Effect.gen(function* () {
            const [m, counts, asOf] = yield* Effect.all(
              [pools.metrics(chainId), repo.global(chainId), repo.asOf(chainId)],
              { concurrency: 3 }
            )
            const series = yield* repo.globalDaily(chainId, new Date(asOf.getTime() - 90 * DAY))
            const none = otherChain(query.chainId)
            return {
              chainId: query.chainId ?? chainId,
              asOf: asOf.toISOString(),
              tvlUsd: none ? 0 : (m.tvlUsd ?? 0),
              volume24hUsd: none ? 0 : (m.volume24hUsd ?? 0),
              fees24hUsd: none ? 0 : (m.fees24hUsd ?? 0),
              swaps24h: none ? 0 : m.swaps24h,
              pools: none ? 0 : m.pools,
              tokens: none ? 0 : counts.tokens,
              launches: none ? 0 : counts.launches,
              graduated: none ? 0 : counts.graduated,
              series: none
                ? []
                : series.map((d) => ({
                    date: d.bucketStart.toISOString().slice(0, 10),
                    volumeUsd: d.volumeUsd ?? 0,
                    feesUsd: d.feesUsd ?? 0,
                    swapCount: d.swapCount
                  }))
            }
          }).pipe(Effect.orDie)
        )
      )
      .handle("getIndexerStatus", () => progress.report)
      .handle("listTrendingTokens", ({ query }) =>
        cached(
          Effect.gen(function* () {
            if (otherChain(query.chainId)) return { items: [] }
            // Tokens an admin hid from the listings are left out.
            const rows = (yield* overviews(yield* repo.trending(chainId, weth, query.limit ?? PAGE_DEFAULT))).filter(
              ({ token }) => token.launchpad?.hidden !== true
            )
            return { items: rows.map(({ row, token }, i) => ({ rank: i + 1, score: row.score, token })) }
          }).pipe(Effect.orDie)
        )
      )
      .handle("listBluechipTokens", ({ query }) =>
        cached(
          Effect.gen(function* () {
            if (otherChain(query.chainId)) return { items: [] }
            const rows = yield* overviews(yield* repo.byAddresses(chainId, weth, bluechip))
            const byAddress = new Map(rows.map((r) => [r.row.address, r.token]))
            return { items: bluechip.flatMap((a) => (byAddress.has(a) ? [byAddress.get(a)!] : [])) }
          }).pipe(Effect.orDie)
        )
      )
      .handle("getTokenPrices", ({ query }) =>
        Effect.gen(function* () {
          const addresses = yield* batch(query.addresses)
          if (otherChain(query.chainId)) return { items: [], missing: addresses }
          const rows = yield* repo.byAddresses(chainId, weth, addresses).pipe(Effect.orDie)
          const found = new Set(rows.map((r) => r.address))
          return {
            items: rows.map((r) => ({
              tokenId: idOf(r.address, chainId),
              address: r.address,
              symbol: r.symbol,
              decimals: r.decimals,
              priceUsd: r.priceUsd,
              priceEth: r.priceEth
            })),
            missing: addresses.filter((a) => !found.has(a))
          }
        })
      )
      .handle("getFireMeta", ({ query }) =>
        Effect.gen(function* () {
          const addresses = yield* batch(query.addresses)
          if (otherChain(query.chainId)) return { items: [], missing: addresses }
          const rows = yield* repo.byAddresses(chainId, weth, addresses).pipe(Effect.orDie)
          const found = new Set(rows.map((r) => r.address))
          const claims = yield* claimsOf(rows.map((r) => r.address)).pipe(Effect.orDie)
          return {
            items: rows.map((r) => fireMeta(r, chainId, claimOf(claims, r.address))),
            missing: addresses.filter((a) => !found.has(a))
          }
        })
      )
      .handle("getToken", ({ params }) =>
        cached(
          Effect.flatMap(tokenOf(params.tokenId), (t) => Effect.map(overviews([t]), (o) => o[0]!.token)).pipe(
            Effect.catchTag("SqlError", Effect.die)
          )
        )
      )
      .handle("getTokenHistory", ({ params, query }) =>
        Effect.gen(function* () {
          const token = yield* tokenOf(params.tokenId)
          const timeframe = query.timeframe ?? "hours"
          const to = query.to !== undefined ? new Date(query.to * 1000) : yield* repo.asOf(chainId)
          const span = timeframe === "days" ? 365 * DAY : timeframe === "hours" ? 7 * DAY : DAY
          const from = query.from !== undefined ? new Date(query.from * 1000) : new Date(to.getTime() - span)
          const rows =
            timeframe === "minutes"
              ? yield* repo.minuteCandles(chainId, token.address, from, to)
              : yield* repo.candles(chainId, token.address, timeframe === "days" ? "1d" : "1h", from, to)
          return {
            tokenId: idOf(token.address, chainId),
            timeframe,
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
              volume: c.volume
            }))
          }
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
      .handle("listWalletPositions", ({ params, query }) =>
        Effect.gen(function* () {
          const owner = params.owner.toLowerCase()
          if (otherChain(query.chainId)) return { owner, chainId: query.chainId!, items: [] }
          const cp = yield* sql<{
            n: string
          }>`SELECT block_number::text AS n FROM indexer_checkpoints WHERE chain_id = ${chainId}`
          const block = cp[0] === undefined ? undefined : BigInt(cp[0].n)
          const { items } = yield* positions.list({ owner }, 500, 0, { fees: true, block })
          return { owner, chainId, items }
        }).pipe(Effect.orDie)
      )
      .handle("getSwapStatus", ({ query }) =>
        tx.status(query.chainId, query.txHash).pipe(Effect.tapError(sendRetryAfter))
      )
      .handle("getReadiness", () =>
        Effect.gen(function* () {
          const t0 = performance.now()
          const db = yield* sql`SELECT 1`.pipe(
            Effect.timeout("2 seconds"),
            Effect.as(true),
            Effect.catchCause(() => Effect.succeed(false))
          )
          const latencyMs = Math.round((performance.now() - t0) * 100) / 100
          if (!db)
            return yield* new ExchangeUnavailable({
              error: "The database does not answer",
              code: "NOT_READY",
              details: { database: "down" }
            })
          const indexer = yield* progress.report
          if (!indexer.ready) {
            return yield* new ExchangeUnavailable({
              error: `The indexer is ${indexer.lagBlocks ?? "an unknown number of"} blocks behind the chain head (at most ${settings.readyMaxLagBlocks})`,
              code: "NOT_READY",
              details: { indexer }
            })
          }
          return { status: "ready" as const, database: { status: "up" as const, latencyMs }, indexer }
        })
      )
  })
)
