import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress } from "viem"
import { Chain } from "../../../platform/Chain.ts"
import { deploymentAddresses } from "../../../platform/Deployments.ts"
import { NotFound } from "../../../platform/ApiError.ts"
import {
  Badge,
  BadgeCriteria,
  type BadgeDefinition,
  BadgeDetail,
  BadgeHolder,
  BadgeList,
  type BadgeMetric,
  BADGES,
  EarnedBadge,
  METRIC_DESCRIPTIONS
} from "./BadgeCatalog.ts"

const toBadge = (d: BadgeDefinition, holders: number) =>
  new Badge({
    badgeId: d.badgeId,
    name: d.name,
    description: d.description,
    criteria: new BadgeCriteria({
      metric: d.metric,
      description: METRIC_DESCRIPTIONS[d.metric],
      threshold: d.threshold
    }),
    holders
  })

/** The catalog with holder counts, and the awarding of badges from activity (run by the social refresh). */
export class Badges extends Context.Service<
  Badges,
  {
    readonly list: Effect.Effect<BadgeList>
    readonly get: (badgeId: string) => Effect.Effect<BadgeDetail, NotFound>
    readonly earnedBy: (wallet: string) => Effect.Effect<ReadonlyArray<EarnedBadge>>
    /** Awards every badge whose criterion a wallet now meets (idempotent). */
    readonly award: Effect.Effect<void>
  }
>()("app/badges/Badges") {
  static readonly layer = Layer.effect(
    Badges,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const chain = yield* Chain
      const chainId = chain.chainId
      const contracts = deploymentAddresses(chain.deployments).map((a) => a.toLowerCase())

      /** `(wallet, value)` rows of a metric, wallet lower-case. */
      const metric = (m: BadgeMetric, comments: boolean) => {
        switch (m) {
          case "launches":
            return sql`SELECT creator AS wallet, count(*)::numeric AS value FROM launches WHERE chain_id = ${chainId} GROUP BY creator`
          case "graduatedLaunches":
            return sql`SELECT l.creator AS wallet, count(*)::numeric AS value FROM launches l
              JOIN tokens t ON t.chain_id = l.chain_id AND t.address = l.token
              WHERE l.chain_id = ${chainId} AND t.graduated_at IS NOT NULL GROUP BY l.creator`
          case "fuelTipsGiven":
            return sql`SELECT sender AS wallet, count(*)::numeric AS value FROM fuel_events
              WHERE chain_id = ${chainId} AND kind = 'given' GROUP BY sender`
          case "fuelGivenWei":
            return sql`SELECT sender AS wallet, sum(amount) AS value FROM fuel_events
              WHERE chain_id = ${chainId} AND kind = 'given' GROUP BY sender`
          case "fuelTipsReceived":
            return sql`SELECT creator AS wallet, count(*)::numeric AS value FROM fuel_events
              WHERE chain_id = ${chainId} AND kind = 'given' GROUP BY creator`
          case "swaps":
            return sql`SELECT recipient AS wallet, count(*)::numeric AS value FROM swaps
              WHERE chain_id = ${chainId} AND recipient NOT IN ${sql.in(contracts)} GROUP BY recipient`
          case "volumeUsd":
            return sql`SELECT recipient AS wallet, sum(amount_usd)::numeric AS value FROM swaps
              WHERE chain_id = ${chainId} AND amount_usd IS NOT NULL AND recipient NOT IN ${sql.in(contracts)} GROUP BY recipient`
          case "giftStreak":
            return sql`SELECT lower(u.wallet_address) AS wallet, max(g.streak)::numeric AS value FROM gift_claims g
              JOIN users u ON u.id = g.user_id WHERE u.wallet_address IS NOT NULL GROUP BY u.wallet_address`
          case "yaps":
            return comments
              ? sql`SELECT lower(u.wallet_address) AS wallet, count(*)::numeric AS value FROM comments c
                JOIN users u ON u.id = c.author_id WHERE u.wallet_address IS NOT NULL AND c.deleted_at IS NULL
                GROUP BY u.wallet_address`
              : sql`SELECT NULL::text AS wallet, 0::numeric AS value WHERE false`
        }
      }

      const holders = sql<{
        badgeId: string
        n: number
      }>`SELECT badge_id, count(*)::int AS n FROM wallet_badges GROUP BY badge_id`.pipe(
        Effect.map((rows) => new Map(rows.map((r) => [r.badgeId, r.n]))),
        Effect.orDie
      )

      return Badges.of({
        list: Effect.map(
          holders,
          (counts) => new BadgeList({ badges: BADGES.map((d) => toBadge(d, counts.get(d.badgeId) ?? 0)) })
        ),
        get: (badgeId) =>
          Effect.gen(function* () {
            const d = BADGES.find((b) => b.badgeId === badgeId)
            if (d === undefined)
              return yield* new NotFound({ code: "BADGE_NOT_FOUND", message: `No badge "${badgeId}"` })
            const counts = yield* holders
            const recent = yield* sql<{ wallet: string; earnedAt: Date }>`
              SELECT wallet, earned_at FROM wallet_badges WHERE badge_id = ${badgeId}
              ORDER BY earned_at DESC, wallet LIMIT 20`.pipe(Effect.orDie)
            return new BadgeDetail({
              ...toBadge(d, counts.get(badgeId) ?? 0),
              recentHolders: recent.map(
                (r) => new BadgeHolder({ walletAddress: getAddress(r.wallet), earnedAt: r.earnedAt.toISOString() })
              )
            })
          }),
        earnedBy: (wallet) =>
          sql<{
            badgeId: string
            earnedAt: Date
          }>`SELECT badge_id, earned_at FROM wallet_badges WHERE wallet = ${wallet.toLowerCase()}`.pipe(
            Effect.orDie,
            Effect.map((rows) =>
              BADGES.flatMap((d) => {
                const row = rows.find((r) => r.badgeId === d.badgeId)
                return row === undefined
                  ? []
                  : [new EarnedBadge({ badgeId: d.badgeId, name: d.name, earnedAt: row.earnedAt.toISOString() })]
              })
            )
          ),
        award: Effect.gen(function* () {
          const now = new Date(yield* Clock.currentTimeMillis)
          const comments = (yield* sql<{ t: string | null }>`SELECT to_regclass('comments')::text AS t`)[0]?.t != null
          yield* Effect.forEach(
            BADGES,
            (d) =>
              sql`
              INSERT INTO wallet_badges (wallet, badge_id, earned_at)
              SELECT wallet, ${d.badgeId}, ${now} FROM (${metric(d.metric, comments)}) m
              WHERE wallet IS NOT NULL AND value >= ${d.threshold}::numeric
              ON CONFLICT (wallet, badge_id) DO NOTHING`,
            { discard: true }
          )
        }).pipe(Effect.orDie, Effect.withSpan("Badges.award"))
      })
    })
  )
}
