import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { poolPopularity, tokenPopularity } from "../../src/search/Ranking.ts"
import type { PoolDocument, TokenDocument } from "../../src/search/SearchDocument.ts"
import { asAddress, terms, typoBudget } from "../../src/search/text/Terms.ts"

/**
 * The PostgreSQL candidate for the embedded search backend, measured by bench:search against the in-process index:
 * one table of the same documents with a `simple` full-text vector (word prefixes: `pe:*`) and a pg_trgm GIN index
 * for typos (`<%`, word similarity), ranked by match then popularity. It is what "search in Postgres" would be:
 * the fastest index-backed form of the same rules we could write.
 */
export const setupPostgresSearch = (
  sql: SqlClient.SqlClient,
  tokens: ReadonlyArray<TokenDocument>,
  pools: ReadonlyArray<PoolDocument>
) =>
  Effect.gen(function* () {
    yield* sql.unsafe(`CREATE EXTENSION IF NOT EXISTS pg_trgm`)
    yield* sql.unsafe(`CREATE TABLE bench_search_docs (kind text NOT NULL, id text NOT NULL, address text NOT NULL, words text NOT NULL,
      tsv tsvector NOT NULL, popularity float8 NOT NULL)`)
    const rows = [
      ...tokens.map((t) => ["token", t.id, t.address, `${t.symbol} ${t.name}`, tokenPopularity(t)] as const),
      ...pools.map(
        (p) =>
          [
            "pool",
            p.id,
            p.address,
            `${p.token0.symbol} ${p.token1.symbol} ${p.token0.name} ${p.token1.name}`,
            poolPopularity(p)
          ] as const
      )
    ]
    for (let i = 0; i < rows.length; i += 5_000) {
      const c = rows.slice(i, i + 5_000)
      yield* sql.unsafe(
        `
        INSERT INTO bench_search_docs (kind, id, address, words, tsv, popularity)
        SELECT kind, id, address, lower(words), to_tsvector('simple', lower(words)), popularity::float8
        FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS x(kind, id, address, words, popularity)`,
        [c.map((r) => r[0]), c.map((r) => r[1]), c.map((r) => r[2]), c.map((r) => r[3]), c.map((r) => String(r[4]))]
      )
    }
    yield* sql.unsafe(`CREATE INDEX bench_search_tsv ON bench_search_docs USING gin (tsv)`)
    yield* sql.unsafe(`CREATE INDEX bench_search_trgm ON bench_search_docs USING gin (words gin_trgm_ops)`)
    yield* sql.unsafe(`CREATE INDEX bench_search_address ON bench_search_docs (address)`)
    yield* sql.unsafe(`ANALYZE bench_search_docs`)
  })

/** One ranked query: ids of the best `limit` documents of a kind. */
export const postgresSearch = (sql: SqlClient.SqlClient, kind: "token" | "pool", q: string, limit: number) => {
  const address = asAddress(q)
  if (address !== null)
    return sql.unsafe(`SELECT id FROM bench_search_docs WHERE kind = $1 AND address = $2 LIMIT $3`, [
      kind,
      address,
      limit
    ])
  const words = terms(q, 8)
  const tsquery = words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(" & ")
  const typos = words.some((w) => typoBudget(w) > 0)
  return sql.unsafe(
    `
    SELECT id FROM bench_search_docs
    WHERE kind = $1 AND (tsv @@ to_tsquery('simple', $2) OR ($3 AND $4 <% words))
    ORDER BY (tsv @@ to_tsquery('simple', $2)) DESC, popularity DESC LIMIT $5`,
    [kind, tsquery, typos, words.join(" "), limit]
  )
}
