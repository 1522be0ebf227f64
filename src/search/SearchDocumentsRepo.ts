import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { PoolDocument, TokenDocument, tokenId } from "./SearchDocument.ts"

/** Keys of one chain whose documents must be rebuilt. */
export interface ChangedKeys {
  readonly chainId: number
  readonly tokens: ReadonlyArray<string>
  readonly pools: ReadonlyArray<string>
}

export interface Checkpoint {
  readonly chainId: number
  readonly blockNumber: bigint
}

interface TokenRow {
  readonly chainId: number
  readonly address: string
  readonly name: string
  readonly symbol: string
  readonly decimals: number | null
  readonly totalSupply: string
  readonly isLaunch: boolean
  readonly holderCount: number
  readonly priceUsd: number | null
  readonly graduated: boolean
  readonly creator: string | null
  readonly launchedAt: number | null
  readonly pool: string | null
  readonly liquidityUsd: number
  readonly volume24hUsd: number
  readonly claimed: boolean
  readonly image: string | null
}

interface PoolRow {
  readonly chainId: number
  readonly address: string
  readonly token0: string
  readonly token1: string
  readonly fee: number
  readonly createdAt: number
  readonly symbol0: string | null
  readonly name0: string | null
  readonly symbol1: string | null
  readonly name1: string | null
  readonly tvlUsd: number
  readonly swapCount: string
  readonly launchToken: string | null
  readonly graduated: boolean
  readonly volume24hUsd: number
}

// "24 h" is measured back from the chain's last indexed block, not the wall clock: a devnet (or a restored index)
// whose block times differ from now still shows the volume of its last day.
const REF = `ref AS (SELECT chain_id, block_timestamp - interval '24 hours' AS since FROM indexer_checkpoints)`

/**
 * Token rows. For a few changed keys, liquidity and volume are per-row index lookups. A full load pages through the
 * tokens without them (`figures` false) and takes both from two aggregates over all pools and candles
 * (`tokenFigures`): per-row lookups on pools.token0 are planned as scans of every pool when one token (WETH) is
 * token0 of most pools, and a page of 1,000 tokens took 5–18 s on 100,000 tokens however the join was written.
 */
const TOKEN_SELECT = (rows: string, figures: boolean) => `
  WITH ${REF}
  SELECT t.chain_id, t.address, t.name, t.symbol, t.decimals, t.total_supply::text AS total_supply, t.is_launch,
    t.holder_count, t.price_usd, t.graduated_at IS NOT NULL AS graduated, l.creator,
    extract(epoch FROM l.block_timestamp)::float8 AS launched_at, l.pool,
    m.creator_id IS NOT NULL AS claimed, m.image,
    ${
      figures
        ? `(coalesce((SELECT sum(ps.tvl_usd) FROM pools p JOIN pool_states ps ON ps.chain_id = p.chain_id AND ps.pool = p.address
               WHERE p.chain_id = t.chain_id AND p.token0 = t.address), 0)
     + coalesce((SELECT sum(ps.tvl_usd) FROM pools p JOIN pool_states ps ON ps.chain_id = p.chain_id AND ps.pool = p.address
               WHERE p.chain_id = t.chain_id AND p.token1 = t.address), 0))::float8`
        : "0::float8"
    } AS liquidity_usd,
    ${
      figures
        ? `coalesce((SELECT sum(c.volume_usd) FROM token_candles c JOIN ref r ON r.chain_id = c.chain_id
              WHERE c.chain_id = t.chain_id AND c.token = t.address AND c.period = '1h' AND c.bucket_start >= r.since), 0)::float8`
        : "0::float8"
    }
      AS volume24h_usd
  FROM (${rows}) t LEFT JOIN launches l ON l.chain_id = t.chain_id AND l.token = t.address
    LEFT JOIN token_metadata m ON m.chain_id = t.chain_id AND m.token_address = t.address
  ORDER BY t.chain_id, t.address`

/** Tokens an admin hid (client API moderation) are not searchable, nor their launch pools. */
const VISIBLE_TOKEN = (alias: string) =>
  `NOT EXISTS (SELECT 1 FROM token_hides h WHERE h.chain_id = ${alias}.chain_id AND h.token_address = ${alias}.address)`
const VISIBLE_POOL = (alias: string) =>
  `NOT EXISTS (SELECT 1 FROM launches hl JOIN token_hides h ON h.chain_id = hl.chain_id AND h.token_address = hl.token
               WHERE hl.chain_id = ${alias}.chain_id AND hl.pool = ${alias}.address)`

/** Liquidity (TVL of every pool holding the token) and 24 h volume of every token, keyed `<address>-<chainId>`. */
const LIQUIDITY_ALL = `
  SELECT p.chain_id, x.token, sum(ps.tvl_usd)::float8 AS value
  FROM pools p CROSS JOIN LATERAL (VALUES (p.token0), (p.token1)) x(token)
    JOIN pool_states ps ON ps.chain_id = p.chain_id AND ps.pool = p.address
  GROUP BY p.chain_id, x.token`
const VOLUME_ALL = `
  WITH ${REF}
  SELECT c.chain_id, c.token, sum(c.volume_usd)::float8 AS value FROM token_candles c JOIN ref r ON r.chain_id = c.chain_id
  WHERE c.period = '1h' AND c.bucket_start >= r.since GROUP BY c.chain_id, c.token`

export interface TokenFigures {
  readonly liquidity: ReadonlyMap<string, number>
  readonly volume: ReadonlyMap<string, number>
}

const POOL_SELECT = (rows: string) => `
  WITH ${REF}
  SELECT p.chain_id, p.address, p.token0, p.token1, p.fee, extract(epoch FROM p.block_timestamp)::float8 AS created_at,
    t0.symbol AS symbol0, t0.name AS name0, t1.symbol AS symbol1, t1.name AS name1,
    coalesce(ps.tvl_usd, 0)::float8 AS tvl_usd, coalesce(ps.swap_count, 0)::text AS swap_count,
    l.token AS launch_token, coalesce(lt.graduated_at IS NOT NULL, false) AS graduated,
    coalesce((SELECT sum(c.volume_usd) FROM pool_candles c JOIN ref r ON r.chain_id = c.chain_id
              WHERE c.chain_id = p.chain_id AND c.pool = p.address AND c.period = '1h' AND c.bucket_start >= r.since), 0)::float8
      AS volume24h_usd
  FROM ${rows} p
    LEFT JOIN tokens t0 ON t0.chain_id = p.chain_id AND t0.address = p.token0
    LEFT JOIN tokens t1 ON t1.chain_id = p.chain_id AND t1.address = p.token1
    LEFT JOIN pool_states ps ON ps.chain_id = p.chain_id AND ps.pool = p.address
    LEFT JOIN launches l ON l.chain_id = p.chain_id AND l.pool = p.address
    LEFT JOIN tokens lt ON lt.chain_id = l.chain_id AND lt.address = l.token`

const toToken = (r: TokenRow): TokenDocument => {
  const supply = r.decimals === null ? 0 : Number(r.totalSupply) / 10 ** r.decimals
  return new TokenDocument({
    id: tokenId(r.address, r.chainId),
    address: r.address,
    chainId: r.chainId,
    name: r.name,
    symbol: r.symbol,
    decimals: r.decimals,
    creator: r.creator,
    launchedAt: r.launchedAt,
    pool: r.pool,
    isLaunch: r.isLaunch,
    priceUsd: r.priceUsd,
    marketCapUsd: r.priceUsd === null ? 0 : r.priceUsd * supply,
    volume24hUsd: r.volume24hUsd,
    liquidityUsd: r.liquidityUsd,
    holders: r.holderCount,
    graduated: r.graduated,
    claimed: r.claimed,
    image: r.image
  })
}

const toPool = (r: PoolRow): PoolDocument =>
  new PoolDocument({
    id: tokenId(r.address, r.chainId),
    address: r.address,
    chainId: r.chainId,
    token0: { address: r.token0, symbol: r.symbol0 ?? "", name: r.name0 ?? "" },
    token1: { address: r.token1, symbol: r.symbol1 ?? "", name: r.name1 ?? "" },
    fee: r.fee,
    tvlUsd: r.tvlUsd,
    volume24hUsd: r.volume24hUsd,
    swapCount: Number(r.swapCount),
    createdAt: r.createdAt,
    isLaunchPool: r.launchToken !== null,
    launchToken: r.launchToken,
    graduated: r.graduated
  })

/**
 * Builds search documents from the indexed tables (the only truth): all of them, or those of changed keys. Also
 * answers "what changed in blocks (from, to]" for a search service that runs apart from the indexer.
 */
export class SearchDocumentsRepo extends Context.Service<
  SearchDocumentsRepo,
  {
    /** Liquidity and volume of every token at once, for a full load (`allTokens`). */
    readonly tokenFigures: Effect.Effect<TokenFigures>
    /** Every document, in pages of `pageSize` (keyset on chain and address), for a full load or reindex. */
    readonly allTokens: (
      after: { chainId: number; address: string } | null,
      pageSize: number,
      figures: TokenFigures
    ) => Effect.Effect<ReadonlyArray<TokenDocument>>
    readonly allPools: (
      after: { chainId: number; address: string } | null,
      pageSize: number
    ) => Effect.Effect<ReadonlyArray<PoolDocument>>
    readonly tokens: (chainId: number, addresses: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<TokenDocument>>
    readonly pools: (chainId: number, addresses: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<PoolDocument>>
    /** Expands changed keys to every document they affect: the pools' tokens (liquidity, price) and the tokens' pools. */
    readonly expand: (keys: ChangedKeys) => Effect.Effect<ChangedKeys>
    /** Keys touched by events in blocks (from, to] of a chain. */
    readonly changedBetween: (chainId: number, from: bigint, to: bigint) => Effect.Effect<ChangedKeys>
    readonly checkpoints: Effect.Effect<ReadonlyArray<Checkpoint>>
    /**
     * Tokens whose listing changed (claim, claim image, admin hide/unhide) since `since` (a database timestamp), and
     * the database time to ask from next. These changes come from the client API, not from indexer commits.
     */
    readonly listingChanges: (
      since: string | null
    ) => Effect.Effect<{ readonly keys: ReadonlyArray<ChangedKeys>; readonly now: string }>
    readonly counts: Effect.Effect<{ readonly tokens: number; readonly pools: number }>
  }
>()("app/search/SearchDocumentsRepo") {
  static readonly layer = Layer.effect(
    SearchDocumentsRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const q = <A>(text: string, params: ReadonlyArray<unknown>) =>
        sql.unsafe(text, params).pipe(
          Effect.map((rows) => rows as unknown as ReadonlyArray<A>),
          Effect.orDie
        )
      const visible = (table: string) => (table === "tokens" ? VISIBLE_TOKEN(table) : VISIBLE_POOL(table))
      const page = (table: string, after: { chainId: number; address: string } | null, pageSize: number) =>
        after === null
          ? {
              rows: `SELECT * FROM ${table} WHERE ${visible(table)} ORDER BY chain_id, address LIMIT $1`,
              params: [pageSize]
            }
          : {
              rows: `SELECT * FROM ${table} WHERE (chain_id, address) > ($2::int4, $3::text) AND ${visible(table)}
                   ORDER BY chain_id, address LIMIT $1`,
              params: [pageSize, after.chainId, after.address]
            }
      return SearchDocumentsRepo.of({
        tokenFigures: Effect.map(
          Effect.all([
            q<{ chainId: number; token: string; value: number }>(LIQUIDITY_ALL, []),
            q<{ chainId: number; token: string; value: number }>(VOLUME_ALL, [])
          ]),
          ([liquidity, volume]) => ({
            liquidity: new Map(liquidity.map((r) => [tokenId(r.token, r.chainId), r.value])),
            volume: new Map(volume.map((r) => [tokenId(r.token, r.chainId), r.value]))
          })
        ),
        allTokens: (after, pageSize, figures) => {
          const p = page("tokens", after, pageSize)
          return Effect.map(q<TokenRow>(TOKEN_SELECT(p.rows, false), p.params), (rows) =>
            rows.map((r) => {
              const key = tokenId(r.address, r.chainId)
              return toToken({
                ...r,
                liquidityUsd: figures.liquidity.get(key) ?? 0,
                volume24hUsd: figures.volume.get(key) ?? 0
              })
            })
          )
        },
        allPools: (after, pageSize) => {
          const p = page("pools", after, pageSize)
          return Effect.map(
            q<PoolRow>(`${POOL_SELECT(`(${p.rows})`)} ORDER BY p.chain_id, p.address`, p.params),
            (rows) => rows.map(toPool)
          )
        },
        tokens: (chainId, addresses) =>
          addresses.length === 0
            ? Effect.succeed([])
            : Effect.map(
                q<TokenRow>(
                  TOKEN_SELECT(
                    `SELECT * FROM tokens WHERE chain_id = $1 AND address = ANY($2::text[]) AND ${VISIBLE_TOKEN("tokens")}`,
                    true
                  ),
                  [chainId, addresses]
                ),
                (rows) => rows.map(toToken)
              ),
        pools: (chainId, addresses) =>
          addresses.length === 0
            ? Effect.succeed([])
            : Effect.map(
                q<PoolRow>(
                  `${POOL_SELECT("pools")} WHERE p.chain_id = $1 AND p.address = ANY($2::text[]) AND ${VISIBLE_POOL("p")}`,
                  [chainId, addresses]
                ),
                (rows) => rows.map(toPool)
              ),
        expand: ({ chainId, tokens, pools }) =>
          Effect.map(
            q<{ kind: string; k: string }>(
              `
              SELECT 'token' AS kind, x.token AS k FROM pools p CROSS JOIN LATERAL (VALUES (p.token0), (p.token1)) x(token)
                WHERE p.chain_id = $1 AND p.address = ANY($2::text[])
              UNION SELECT 'pool', l.pool FROM launches l WHERE l.chain_id = $1 AND l.token = ANY($3::text[])`,
              [chainId, pools, tokens]
            ),
            (rows) => ({
              chainId,
              tokens: [...new Set([...tokens, ...rows.filter((r) => r.kind === "token").map((r) => r.k)])],
              pools: [...new Set([...pools, ...rows.filter((r) => r.kind === "pool").map((r) => r.k)])]
            })
          ),
        changedBetween: (chainId, from, to) =>
          Effect.map(
            q<{ kind: string; k: string }>(
              `
              SELECT 'token' AS kind, token AS k FROM launches WHERE chain_id = $1 AND block_number > $2::int8 AND block_number <= $3::int8
              UNION SELECT 'token', token FROM token_transfers WHERE chain_id = $1 AND block_number > $2::int8 AND block_number <= $3::int8
              UNION SELECT 'token', token FROM graduation_events WHERE chain_id = $1 AND block_number > $2::int8 AND block_number <= $3::int8
              UNION SELECT 'token', token FROM fuel_events WHERE chain_id = $1 AND block_number > $2::int8 AND block_number <= $3::int8
              UNION SELECT 'pool', address FROM pools WHERE chain_id = $1 AND block_number > $2::int8 AND block_number <= $3::int8
              UNION SELECT 'pool', pool FROM swaps WHERE chain_id = $1 AND block_number > $2::int8 AND block_number <= $3::int8
              UNION SELECT 'pool', pool FROM mints WHERE chain_id = $1 AND block_number > $2::int8 AND block_number <= $3::int8
              UNION SELECT 'pool', pool FROM burns WHERE chain_id = $1 AND block_number > $2::int8 AND block_number <= $3::int8
              UNION SELECT 'pool', pool FROM collects WHERE chain_id = $1 AND block_number > $2::int8 AND block_number <= $3::int8`,
              [chainId, from.toString(), to.toString()]
            ),
            (rows) => ({
              chainId,
              tokens: rows.filter((r) => r.kind === "token").map((r) => r.k),
              pools: rows.filter((r) => r.kind === "pool").map((r) => r.k)
            })
          ),
        listingChanges: (since) =>
          Effect.map(
            q<{ chainId: number | null; token: string | null; now: string }>(
              `
              SELECT x.chain_id, x.token, now()::text AS now FROM (
                SELECT chain_id, token_address AS token FROM token_metadata WHERE $1::timestamptz IS NOT NULL AND updated_at > $1::timestamptz
                UNION SELECT chain_id, token_address FROM token_admin_actions WHERE $1::timestamptz IS NOT NULL AND created_at > $1::timestamptz
              ) x RIGHT JOIN (SELECT 1) one ON true`,
              [since]
            ),
            (rows) => {
              const byChain = new Map<number, Array<string>>()
              for (const r of rows) {
                if (r.chainId === null || r.token === null) continue
                byChain.set(r.chainId, [...(byChain.get(r.chainId) ?? []), r.token])
              }
              return {
                keys: [...byChain].map(([chainId, tokens]) => ({ chainId, tokens, pools: [] })),
                now: rows[0]!.now
              }
            }
          ),
        checkpoints: Effect.map(
          q<{ chainId: number; blockNumber: string }>(
            `SELECT chain_id, block_number::text AS block_number FROM indexer_checkpoints`,
            []
          ),
          (rows) => rows.map((r) => ({ chainId: r.chainId, blockNumber: BigInt(r.blockNumber) }))
        ),
        counts: Effect.map(
          q<{ tokens: string; pools: string }>(
            `SELECT (SELECT count(*) FROM tokens)::text AS tokens, (SELECT count(*) FROM pools)::text AS pools`,
            []
          ),
          ([r]) => ({ tokens: Number(r!.tokens), pools: Number(r!.pools) })
        )
      })
    })
  )
}
