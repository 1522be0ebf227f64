import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Chain } from "../../../platform/Chain.ts"

export type FeedSource = "LAUNCH" | "FUEL" | "YAP" | "SHILL"

/**
 * Position in the feed order: tier ascending, then time, source rank and sequence descending. The sequence is unique
 * within a source: block_number × 10^6 + log_index for chain events, the row id for yaps and shills.
 */
export interface FeedPosition {
  readonly tier: number
  readonly atUs: string
  readonly src: number
  readonly seq: string
  /** The snapshot the first page saw: chain items up to this block, off-chain items created up to this time. */
  readonly asOfBlock: string
  readonly asOfUs: string
}

export interface FeedRow extends FeedPosition {
  readonly type: FeedSource
  readonly at: Date
  readonly k: string
  readonly relevance: "CREATED" | "HOLDING" | "FAVORITE" | null
  readonly token: string
  readonly actor: string | null
  readonly amount: string | null
  readonly txHash: string | null
  readonly text: string | null
  readonly symbol: string | null
  readonly name: string | null
  readonly tokenImage: string | null
  readonly userId: string | null
  readonly username: string | null
  readonly userName: string | null
  readonly image: string | null
}

/** Source ranks: the tie-break between sources at the same microsecond. */
const RANK: Record<FeedSource, number> = { LAUNCH: 4, FUEL: 3, YAP: 2, SHILL: 1 }

interface Branch {
  readonly table: string
  /** Time column, and the columns that make (time, ...) the index order of the source. */
  readonly at: string
  readonly order: ReadonlyArray<string>
  readonly seq: string
  readonly chain: boolean
  readonly columns: string
  readonly where: string
}

const BRANCHES: Record<FeedSource, Branch> = {
  LAUNCH: {
    table: "launches x",
    at: "x.block_timestamp",
    order: ["x.block_number", "x.log_index"],
    seq: "x.block_number * 1000000 + x.log_index",
    chain: true,
    columns: `'launch:' || x.block_number || ':' || x.log_index AS k, x.token, x.creator AS actor, NULL::uuid AS user_id,
      NULL::text AS amount, x.tx_hash, NULL::text AS text`,
    where: "x.chain_id = $chain"
  },
  FUEL: {
    table: "fuel_events x",
    at: "x.block_timestamp",
    order: ["x.block_number", "x.log_index"],
    seq: "x.block_number * 1000000 + x.log_index",
    chain: true,
    columns: `'fuel:' || x.block_number || ':' || x.log_index AS k, x.token, x.sender AS actor, NULL::uuid AS user_id,
      x.amount::text AS amount, x.tx_hash, NULL::text AS text`,
    where: "x.chain_id = $chain AND x.kind = 'given'"
  },
  YAP: {
    // Comments (one chain: the comments table has no chain id). Deleted comments are left out.
    table: "comments x",
    at: "x.created_at",
    order: ["x.id"],
    seq: "x.id",
    chain: false,
    columns: `'yap:' || x.id AS k, x.token, NULL::text AS actor, x.author_id AS user_id, NULL::text AS amount,
      NULL::text AS tx_hash, x.text`,
    where: "x.deleted_at IS NULL"
  },
  SHILL: {
    table: "share_links x",
    at: "x.created_at",
    order: ["x.id"],
    seq: "x.id",
    chain: false,
    columns: `'shill:' || x.code AS k, x.token, NULL::text AS actor, x.user_id, NULL::text AS amount, NULL::text AS tx_hash,
      NULL::text AS text`,
    where: "x.chain_id = $chain"
  }
}

/**
 * The feed query: one SQL statement per page. Each (source, tier) branch reads at most `limit + 1` rows in its index
 * order strictly after the cursor, so a page costs a few index range scans whatever the table sizes; the union of
 * branches is merged by the same order. Tier 0 = items about tokens the viewer created, holds or favorited; tier 1 =
 * the rest (anonymous: everything is tier 1).
 */
export class FeedRepo extends Context.Service<
  FeedRepo,
  {
    readonly page: (input: {
      readonly sources: ReadonlyArray<FeedSource>
      /** The viewer (lower-case wallet, user id); none = anonymous. */
      readonly viewer: Option.Option<{ readonly wallet: string; readonly userId: string }>
      readonly after: Option.Option<FeedPosition>
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<FeedRow>>
  }
>()("app/feed/FeedRepo") {
  static readonly layer = Layer.effect(
    FeedRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { chainId } = yield* Chain
      // The comments feature's tables (yaps, favorites) are read only where they exist.
      const has = (table: string) =>
        sql<{ t: string | null }>`SELECT to_regclass(${table})::text AS t`.pipe(
          Effect.map((rows) => rows[0]?.t != null),
          Effect.orDie
        )
      const available = new Set<FeedSource>([
        "LAUNCH",
        "FUEL",
        "SHILL",
        ...((yield* has("comments")) ? ["YAP" as const] : [])
      ])
      const favorites = yield* has("favorites")
      const raw = (text: string) => sql.unsafe(text.replaceAll("$chain", String(chainId)))
      const ts = (us: string) => sql`(timestamptz 'epoch' + ${us}::bigint * interval '1 microsecond')`

      /** Rows of one source and tier strictly after `after` in the feed order, at most `n`. */
      const branch = (
        source: FeedSource,
        tier: 0 | 1,
        personal: boolean,
        after: Option.Option<FeedPosition>,
        n: number
      ) => {
        const b = BRANCHES[source]
        const src = RANK[source]
        const rel = !personal
          ? sql``
          : tier === 0
            ? sql`AND x.token IN (SELECT token FROM rel)`
            : sql`AND x.token NOT IN (SELECT token FROM rel)`
        const snapshot = b.chain
          ? sql`AND x.block_number <= (SELECT blk FROM as_of)`
          : sql`AND ${raw(b.at)} <= (SELECT at FROM as_of)`
        const position = Option.match(after, {
          onNone: () => sql``,
          onSome: (p) => {
            if (p.tier < tier) return sql``
            const at = raw(b.at)
            if (src < p.src) return sql`AND ${at} <= ${ts(p.atUs)}`
            if (src > p.src) return sql`AND ${at} < ${ts(p.atUs)}`
            return sql`AND (${at} < ${ts(p.atUs)} OR (${at} = ${ts(p.atUs)} AND ${raw(b.seq)} < ${p.seq}::bigint))`
          }
        })
        const order = [b.at, ...b.order].map((c) => `${c} DESC`).join(", ")
        // Tokens an admin hid (token_hides) disappear from every feed.
        const visible = raw(
          `AND NOT EXISTS (SELECT 1 FROM token_hides h WHERE h.chain_id = $chain AND h.token_address = x.token)`
        )
        return sql`(SELECT ${sql.unsafe(`'${source}'`)} AS type, ${raw(b.at)} AS at, ${src} AS src, (${raw(b.seq)})::bigint AS seq,
            ${tier} AS tier, ${raw(b.columns)}
          FROM ${raw(b.table)} WHERE ${raw(b.where)} ${rel} ${snapshot} ${position} ${visible}
          ORDER BY ${raw(order)} LIMIT ${n})`
      }

      return FeedRepo.of({
        page: ({ after, limit, sources, viewer }) => {
          const personal = Option.isSome(viewer)
          const wallet = Option.match(viewer, { onNone: () => "", onSome: (v) => v.wallet })
          const userId = Option.match(viewer, { onNone: () => null, onSome: (v) => v.userId })
          const tiers: ReadonlyArray<0 | 1> = !personal
            ? [1]
            : Option.match(after, { onNone: () => [0, 1], onSome: (p) => (p.tier === 0 ? [0, 1] : [1]) })
          const branches = sources
            .filter((s) => available.has(s))
            .flatMap((s) => tiers.map((t) => branch(s, t, personal, after, limit + 1)))
          const asOf = Option.match(after, {
            onNone: () =>
              sql`SELECT coalesce((SELECT block_number FROM indexer_checkpoints WHERE chain_id = ${chainId}), 0) AS blk, now() AS at`,
            onSome: (p) => sql`SELECT ${p.asOfBlock}::bigint AS blk, ${ts(p.asOfUs)} AS at`
          })
          if (branches.length === 0) return Effect.succeed([])
          const union = branches.reduce((all, b) => sql`${all} UNION ALL ${b}`)
          return sql<FeedRow>`
            WITH as_of AS (${asOf}),
            rel AS (
              SELECT DISTINCT ON (token) token, reason FROM (
                SELECT token, 'CREATED' AS reason, 1 AS r FROM launches WHERE chain_id = ${chainId} AND creator = ${wallet}
                UNION ALL
                SELECT token, 'HOLDING', 2 FROM token_balances WHERE chain_id = ${chainId} AND holder = ${wallet} AND balance > 0
                ${
                  favorites && userId !== null
                    ? sql`UNION ALL SELECT target_id, 'FAVORITE', 3 FROM favorites WHERE user_id = ${userId} AND target_type = 'token'`
                    : sql``
                }
              ) x ORDER BY token, r
            )
            SELECT i.type, i.at, (extract(epoch FROM i.at) * 1000000)::bigint::text AS at_us, i.src, i.seq::text AS seq, i.k,
              i.tier, rel.reason AS relevance, i.token, i.amount, i.tx_hash, i.text, t.symbol, t.name, m.image AS token_image, usr.id AS user_id,
              usr.username, usr.name AS user_name, usr.image, coalesce(i.actor, lower(usr.wallet_address)) AS actor,
              (SELECT blk FROM as_of)::text AS as_of_block,
              (extract(epoch FROM (SELECT at FROM as_of)) * 1000000)::bigint::text AS as_of_us
            FROM (SELECT * FROM (${union}) u ORDER BY u.tier, u.at DESC, u.src DESC, u.seq DESC LIMIT ${limit + 1}) i
            LEFT JOIN rel ON i.tier = 0 AND rel.token = i.token
            LEFT JOIN tokens t ON t.chain_id = ${chainId} AND t.address = i.token
            LEFT JOIN token_metadata m ON m.chain_id = ${chainId} AND m.token_address = i.token
            LEFT JOIN LATERAL (
              SELECT id, username, name, image, wallet_address FROM users
              WHERE hidden_at IS NULL AND (CASE WHEN i.user_id IS NOT NULL THEN id = i.user_id ELSE lower(wallet_address) = i.actor END)
              LIMIT 1
            ) usr ON true
            ORDER BY i.tier, i.at DESC, i.src DESC, i.seq DESC`.pipe(Effect.orDie)
        }
      })
    })
  )
}
