import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Chain } from "../../layers/Chain.ts"

export type FeedSource = "LAUNCH" | "FUEL" | "YAP" | "SHILL"

/** Position in the feed order (tier, time desc, key desc); opaque to clients. */
export interface FeedPosition {
  readonly tier: number
  readonly atUs: string
  readonly k: string
  /** The snapshot the first page saw: chain items up to this block, off-chain items created up to this time. */
  readonly asOfBlock: string
  readonly asOfUs: string
}

export interface FeedRow {
  readonly type: FeedSource
  readonly at: Date
  readonly atUs: string
  readonly k: string
  readonly tier: number
  readonly relevance: "CREATED" | "HOLDING" | "FAVORITE" | null
  readonly token: string
  readonly actor: string | null
  readonly amount: string | null
  readonly txHash: string | null
  readonly text: string | null
  readonly symbol: string | null
  readonly name: string | null
  readonly userId: string | null
  readonly username: string | null
  readonly userName: string | null
  readonly image: string | null
  readonly asOfBlock: string
  readonly asOfUs: string
}

const us = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint`

/**
 * The feed query: one SQL statement per page over the union of the selected sources (launches and FuelGiven events
 * from the index, share links, yaps when the comments table exists), keyset-paginated, personalised by a tier:
 * tier 0 = items about tokens the viewer created, holds or favorited, tier 1 = the rest.
 */
export class FeedRepo extends Context.Service<FeedRepo, {
  readonly page: (input: {
    readonly sources: ReadonlyArray<FeedSource>
    /** Lower-case wallet of the viewer; none = anonymous (one tier). */
    readonly viewer: Option.Option<string>
    readonly after: Option.Option<FeedPosition>
    readonly limit: number
  }) => Effect.Effect<ReadonlyArray<FeedRow>>
}>()("app/feed/FeedRepo") {
  static readonly layer = Layer.effect(
    FeedRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { chainId } = yield* Chain

      const branch = (source: FeedSource) => {
        switch (source) {
          case "LAUNCH":
            return sql`
              SELECT 'LAUNCH' AS type, l.block_timestamp AS at, ${sql.unsafe(us("l.block_timestamp"))} AS at_us,
                'launch:' || l.block_number || ':' || l.log_index AS k, l.block_number AS blk, l.token, l.creator AS actor, NULL::uuid AS user_id,
                NULL::text AS amount, l.tx_hash, NULL::text AS text
              FROM launches l WHERE l.chain_id = ${chainId}`
          case "FUEL":
            return sql`
              SELECT 'FUEL' AS type, f.block_timestamp AS at, ${sql.unsafe(us("f.block_timestamp"))} AS at_us,
                'fuel:' || f.block_number || ':' || f.log_index AS k, f.block_number AS blk, f.token, f.sender AS actor, NULL::uuid AS user_id,
                f.amount::text AS amount, f.tx_hash, NULL::text AS text
              FROM fuel_events f WHERE f.chain_id = ${chainId} AND f.kind = 'given'`
          case "SHILL":
            return sql`
              SELECT 'SHILL' AS type, s.created_at AS at, ${sql.unsafe(us("s.created_at"))} AS at_us, 'shill:' || s.code AS k,
                NULL::bigint AS blk, s.token, NULL::text AS actor, s.user_id, NULL::text AS amount, NULL::text AS tx_hash, NULL::text AS text
              FROM share_links s WHERE s.chain_id = ${chainId}`
          case "YAP":
            // Yaps come with the comments feature; until its table exists this source is empty.
            return sql`SELECT 'YAP' AS type, now() AS at, 0::bigint AS at_us, '' AS k, NULL::bigint AS blk, '' AS token, NULL::text AS actor,
              NULL::uuid AS user_id, NULL::text AS amount, NULL::text AS tx_hash, NULL::text AS text WHERE false`
        }
      }

      return FeedRepo.of({
        page: ({ after, limit, sources, viewer }) => {
          const wallet = Option.getOrElse(viewer, () => "")
          const union = sources.map(branch).reduce((all, b) => sql`${all} UNION ALL ${b}`)
          // Later pages read the first page's snapshot: what arrived since sorts before the position or is left
          // out, so pages neither repeat nor skip nor gain items, in every tier.
          const below = Option.match(after, {
            onNone: () => sql`true`,
            onSome: (p) =>
              sql`(i.tier > ${p.tier} OR (i.tier = ${p.tier} AND (i.at_us, i.k) < (${p.atUs}::bigint, ${p.k})))
                AND (CASE WHEN i.blk IS NULL THEN i.at_us <= ${p.asOfUs}::bigint ELSE i.blk <= ${p.asOfBlock}::bigint END)`
          })
          const asOf = Option.match(after, {
            onNone: () =>
              sql`SELECT coalesce((SELECT block_number FROM indexer_checkpoints WHERE chain_id = ${chainId}), 0) AS blk,
                ${sql.unsafe(us("now()"))} AS us`,
            onSome: (p) => sql`SELECT ${p.asOfBlock}::bigint AS blk, ${p.asOfUs}::bigint AS us`
          })
          return sql<FeedRow>`
            WITH as_of AS (${asOf}),
            rel AS (
              SELECT DISTINCT ON (token) token, reason FROM (
                SELECT token, 'CREATED' AS reason, 1 AS r FROM launches WHERE chain_id = ${chainId} AND creator = ${wallet}
                UNION ALL
                SELECT token, 'HOLDING', 2 FROM token_balances WHERE chain_id = ${chainId} AND holder = ${wallet} AND balance > 0
              ) x ORDER BY token, r
            ),
            items AS (
              SELECT u.*, CASE WHEN rel.reason IS NULL THEN 1 ELSE 0 END AS tier, rel.reason AS relevance
              FROM (${union}) u LEFT JOIN rel ON rel.token = u.token
            )
            SELECT i.type, i.at, i.at_us::text AS at_us, i.k, i.tier, i.relevance, i.token, i.amount, i.tx_hash,
              i.text, t.symbol, t.name, usr.id AS user_id, usr.username, usr.name AS user_name, usr.image,
              coalesce(i.actor, lower(usr.wallet_address)) AS actor, as_of.blk::text AS as_of_block, as_of.us::text AS as_of_us
            FROM (SELECT * FROM items i WHERE ${below} ORDER BY i.tier, i.at_us DESC, i.k DESC LIMIT ${limit + 1}) i
            CROSS JOIN as_of
            LEFT JOIN tokens t ON t.chain_id = ${chainId} AND t.address = i.token
            LEFT JOIN LATERAL (
              SELECT id, username, name, image, wallet_address FROM users
              WHERE hidden_at IS NULL AND (CASE WHEN i.user_id IS NOT NULL THEN id = i.user_id ELSE lower(wallet_address) = i.actor END)
              LIMIT 1
            ) usr ON true
            ORDER BY i.tier, i.at_us DESC, i.k DESC`.pipe(Effect.orDie)
        }
      })
    })
  )
}
