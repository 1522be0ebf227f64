import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress } from "viem"
import { Chain } from "../../../platform/Chain.ts"
import { deploymentAddresses } from "../../../platform/Deployments.ts"
import { DareScore, ViralDare, ViralDares, SidebarToken, Sidebar } from "./DiscoveryModels.ts"

interface TokenRow {
  readonly token: string
  readonly symbol: string
  readonly name: string
  readonly priceUsd: number | null
  readonly launchedAt: Date
  readonly swaps: number
  readonly volume: number
  readonly change: number | null
  readonly launchBlock: string
  readonly launchLog: number
}

/** Dares and sidebar widgets: aggregate reads over the index (one query each). */
export class Discovery extends Context.Service<
  Discovery,
  {
    readonly viralDares: (limit: number) => Effect.Effect<ViralDares>
    readonly sidebar: Effect.Effect<Sidebar>
  }
>()("app/feed/Discovery") {
  static readonly layer = Layer.effect(
    Discovery,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const chain = yield* Chain
      const chainId = chain.chainId
      const contracts = deploymentAddresses(chain.deployments).map((a) => a.toLowerCase())
      const windowEnd = sql`(SELECT coalesce((SELECT block_timestamp FROM indexer_checkpoints WHERE chain_id = ${chainId}), now()))`

      const tokenStats = sql`
        SELECT l.token, t.symbol, t.name, t.price_usd, l.block_timestamp AS launched_at, l.block_number::text AS launch_block, l.log_index AS launch_log,
          coalesce(sw.swaps, 0)::int AS swaps, coalesce(sw.volume, 0)::float8 AS volume, gain.change
        FROM launches l
        JOIN tokens t ON t.chain_id = l.chain_id AND t.address = l.token
        CROSS JOIN w
        LEFT JOIN LATERAL (
          SELECT count(*) AS swaps, sum(amount_usd) AS volume FROM swaps s
          WHERE s.chain_id = ${chainId} AND s.pool = l.pool AND s.block_timestamp > w.t_end - interval '24 hours' AND s.block_timestamp <= w.t_end
        ) sw ON true
        LEFT JOIN LATERAL (
          SELECT (now_c.close / NULLIF(then_c.close, 0)) - 1 AS change
          FROM (SELECT close FROM token_candles c WHERE c.chain_id = ${chainId} AND c.token = l.token AND c.period = '1h'
                  AND c.bucket_start <= w.t_end AND c.close IS NOT NULL ORDER BY bucket_start DESC LIMIT 1) now_c,
               (SELECT close FROM token_candles c WHERE c.chain_id = ${chainId} AND c.token = l.token AND c.period = '1h'
                  AND c.bucket_start <= w.t_end - interval '24 hours' AND c.close IS NOT NULL ORDER BY bucket_start DESC LIMIT 1) then_c
        ) gain ON true
        WHERE l.chain_id = ${chainId} AND NOT EXISTS (SELECT 1 FROM token_hides h WHERE h.chain_id = l.chain_id AND h.token_address = l.token)`

      const toToken = (r: TokenRow) =>
        new SidebarToken({
          mintAddress: getAddress(r.token),
          symbol: r.symbol,
          name: r.name,
          priceUsd: r.priceUsd,
          launchedAt: r.launchedAt.toISOString(),
          swaps24h: r.swaps,
          volumeUsd24h: r.volume,
          priceChange24h: r.change
        })

      return Discovery.of({
        viralDares: (limit) =>
          Effect.gen(function* () {
            const hasComments =
              (yield* sql<{ t: string | null }>`SELECT to_regclass('comments')::text AS t`)[0]?.t != null
            const yaps = hasComments
              ? sql`(SELECT count(*) FROM comments c WHERE c.token = l.token AND c.deleted_at IS NULL
                  AND c.created_at > w.t_end - interval '24 hours' AND c.created_at <= w.t_end)`
              : sql`0`
            const rows = yield* sql<{
              token: string
              symbol: string
              name: string
              creator: string
              launchedAt: Date
              tEnd: Date
              swaps: number
              traders: number
              fuelTips: number
              yaps: number
              shares: number
              score: number
            }>`
              WITH w AS (SELECT ${windowEnd} AS t_end),
              d AS (
                SELECT l.token, t.symbol, t.name, l.creator, l.block_timestamp AS launched_at, w.t_end,
                  sw.swaps, sw.traders, fu.tips AS fuel_tips, ${yaps}::int AS yaps, sh.shares
                FROM launches l
                JOIN tokens t ON t.chain_id = l.chain_id AND t.address = l.token AND t.graduated_at IS NULL
                CROSS JOIN w
                CROSS JOIN LATERAL (
                  SELECT count(*)::int AS swaps, count(DISTINCT recipient) FILTER (WHERE recipient NOT IN ${sql.in(contracts)})::int AS traders
                  FROM swaps s WHERE s.chain_id = ${chainId} AND s.pool = l.pool
                    AND s.block_timestamp > w.t_end - interval '24 hours' AND s.block_timestamp <= w.t_end
                ) sw
                CROSS JOIN LATERAL (
                  SELECT count(*)::int AS tips FROM fuel_events f WHERE f.chain_id = ${chainId} AND f.token = l.token AND f.kind = 'given'
                    AND f.block_timestamp > w.t_end - interval '24 hours' AND f.block_timestamp <= w.t_end
                ) fu
                CROSS JOIN LATERAL (
                  SELECT count(*)::int AS shares FROM share_links s WHERE s.chain_id = ${chainId} AND s.token = l.token
                    AND s.created_at > w.t_end - interval '24 hours' AND s.created_at <= w.t_end
                ) sh
                WHERE l.chain_id = ${chainId}
                  AND NOT EXISTS (SELECT 1 FROM token_hides h WHERE h.chain_id = l.chain_id AND h.token_address = l.token)
              )
              SELECT *, (swaps + 3 * traders + 5 * fuel_tips + 2 * yaps + 2 * shares) AS score FROM d
              WHERE swaps + traders + fuel_tips + yaps + shares > 0
              ORDER BY score DESC, launched_at DESC, token LIMIT ${limit}`.pipe(Effect.orDie)
            const end = rows[0]?.tEnd ?? (yield* sql<{ t: Date }>`SELECT ${windowEnd} AS t`.pipe(Effect.orDie))[0]!.t
            return new ViralDares({
              windowStart: new Date(end.getTime() - 86_400_000).toISOString(),
              windowEnd: end.toISOString(),
              items: rows.map(
                (r) =>
                  new ViralDare({
                    mintAddress: getAddress(r.token),
                    symbol: r.symbol,
                    name: r.name,
                    creator: getAddress(r.creator),
                    launchedAt: r.launchedAt.toISOString(),
                    score: r.score,
                    components: new DareScore({
                      swaps: r.swaps,
                      traders: r.traders,
                      fuelTips: r.fuelTips,
                      yaps: r.yaps,
                      shares: r.shares
                    })
                  })
              )
            })
          }).pipe(Effect.orDie, Effect.withSpan("Discovery.viralDares")),
        sidebar: Effect.gen(function* () {
          const rows = yield* sql<TokenRow & { tEnd: Date }>`
            WITH w AS (SELECT ${windowEnd} AS t_end), s AS (${tokenStats})
            SELECT s.*, (SELECT t_end FROM w) AS t_end FROM s`
          const by = (f: (a: TokenRow, b: TokenRow) => number, keep: (r: TokenRow) => boolean = () => true) =>
            rows
              .filter(keep)
              .sort((a, b) => f(a, b) || (a.token < b.token ? -1 : 1))
              .slice(0, 5)
              .map(toToken)
          const end = rows[0]?.tEnd ?? (yield* sql<{ t: Date }>`SELECT ${windowEnd} AS t`)[0]!.t
          return new Sidebar({
            windowEnd: end.toISOString(),
            trending: by(
              (a, b) => b.swaps - a.swaps || b.volume - a.volume,
              (r) => r.swaps > 0
            ),
            newest: by((a, b) => Number(BigInt(b.launchBlock) - BigInt(a.launchBlock)) || b.launchLog - a.launchLog),
            topGainers: by(
              (a, b) => b.change! - a.change!,
              (r) => r.change !== null
            )
          })
        }).pipe(Effect.orDie, Effect.withSpan("Discovery.sidebar"))
      })
    })
  )
}
