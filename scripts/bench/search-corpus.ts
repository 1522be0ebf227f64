import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

/** One token of a corpus written straight into the indexer's tables (tests and bench:search). */
export interface CorpusToken {
  readonly chainId: number
  readonly address: string
  readonly name: string
  readonly symbol: string
  readonly isLaunch: boolean
  readonly priceUsd: number | null
  readonly holders: number
  readonly graduated: boolean
  readonly launchedAt: number
  readonly creator: string
  /** The token's launch pool (launches row) when it is a launch. */
  readonly pool: string | null
}
export interface CorpusPool {
  readonly chainId: number
  readonly address: string
  readonly token0: string
  readonly token1: string
  readonly fee: number
  readonly tvlUsd: number
  readonly createdAt: number
}
export interface Corpus {
  readonly tokens: ReadonlyArray<CorpusToken>
  readonly pools: ReadonlyArray<CorpusPool>
  /** Indexer checkpoints to write (search follows the checkpoint). */
  readonly checkpoints: ReadonlyArray<{ readonly chainId: number; readonly block: number; readonly time: number }>
}

const CHUNK = 5_000
const chunked = <A>(items: ReadonlyArray<A>) => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK))
  return out
}
/** Every array is sent as text[] and cast in SQL (the driver infers one type per array from its elements). */
const text = <A>(rows: ReadonlyArray<A>, f: (a: A) => string | number | boolean) => rows.map((r) => String(f(r)))

/** Inserts the corpus with `unnest` (one statement per 5,000 rows and table). */
export const insertCorpus = (sql: SqlClient.SqlClient, corpus: Corpus) =>
  Effect.gen(function* () {
    let ord = 0
    for (const c of chunked(corpus.tokens)) {
      yield* sql.unsafe(
        `
        INSERT INTO tokens (chain_id, address, name, symbol, decimals, total_supply, is_launch, first_block, holder_count, price_usd, graduated_at)
        SELECT chain_id::int4, address, name, symbol, 18, 1000000000000000000000000000, is_launch::bool, 1, holders::int4,
          nullif(price, '')::float8, CASE WHEN graduated::bool THEN now() END
        FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
          AS x(chain_id, address, name, symbol, is_launch, holders, price, graduated)`,
        [
          text(c, (t) => t.chainId),
          text(c, (t) => t.address),
          text(c, (t) => t.name),
          text(c, (t) => t.symbol),
          text(c, (t) => t.isLaunch),
          text(c, (t) => t.holders),
          text(c, (t) => t.priceUsd ?? ""),
          text(c, (t) => t.graduated)
        ]
      )
      const launches = c.filter((t) => t.pool !== null)
      if (launches.length > 0) {
        yield* sql.unsafe(
          `
          INSERT INTO launches (chain_id, block_number, log_index, tx_hash, block_timestamp, token, creator, pool, fee, tick_lower,
                                tick_upper, sqrt_price_x96, token_is_token0, position_id)
          SELECT chain_id::int4, 1, ord::int4, '0x' || lpad(to_hex(ord::int8), 64, '0'), to_timestamp(t::float8), token, creator, pool,
            10000, 0, 0, 0, true, ord::numeric
          FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS x(chain_id, token, creator, pool, t, ord)`,
          [
            text(launches, (t) => t.chainId),
            text(launches, (t) => t.address),
            text(launches, (t) => t.creator),
            text(launches, (t) => t.pool ?? ""),
            text(launches, (t) => t.launchedAt),
            text(launches, () => ord++)
          ]
        )
      }
    }
    for (const c of chunked(corpus.pools)) {
      yield* sql.unsafe(
        `
        INSERT INTO pools (chain_id, address, token0, token1, fee, tick_spacing, block_number, log_index, tx_hash, block_timestamp)
        SELECT chain_id::int4, address, token0, token1, fee::int4, 60, 1, 0, '0x00', to_timestamp(t::float8)
        FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS x(chain_id, address, token0, token1, fee, t)`,
        [
          text(c, (p) => p.chainId),
          text(c, (p) => p.address),
          text(c, (p) => p.token0),
          text(c, (p) => p.token1),
          text(c, (p) => p.fee),
          text(c, (p) => p.createdAt)
        ]
      )
      yield* sql.unsafe(
        `
        INSERT INTO pool_states (chain_id, pool, tvl_usd, swap_count, last_block)
        SELECT chain_id::int4, pool, tvl::float8, 1, 1 FROM unnest($1::text[], $2::text[], $3::text[]) AS x(chain_id, pool, tvl)`,
        [text(c, (p) => p.chainId), text(c, (p) => p.address), text(c, (p) => p.tvlUsd)]
      )
    }
    yield* sql.unsafe(`ANALYZE tokens, launches, pools, pool_states`)
    for (const cp of corpus.checkpoints) {
      yield* sql.unsafe(
        `
        INSERT INTO indexer_checkpoints (chain_id, block_number, block_hash, block_timestamp) VALUES ($1, $2, '0x00', to_timestamp($3))
        ON CONFLICT (chain_id) DO UPDATE SET block_number = excluded.block_number, block_timestamp = excluded.block_timestamp`,
        [cp.chainId, cp.block, cp.time]
      )
    }
  })

/** A deterministic address from a number (`0x` + 40 hex digits). */
export const addressOf = (kind: number, n: number) =>
  `0x${kind.toString(16).padStart(8, "0")}${n.toString(16).padStart(32, "0")}`
