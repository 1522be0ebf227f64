import { assert, describe, it } from "@effect/vitest"
import { compareWithReview, readSource, type ReviewedUse, sourceFiles } from "./reviewedUses.ts"

/**
 * SQL only through parameterised templates (docs/SECURITY.md, threat "SQL injection"). The `sql` tagged template
 * sends every interpolated value as a bind parameter; the ways around that are `sql.unsafe(text, params)` and
 * `sql.literal(...)`. Each file that uses them is listed here with how many uses were reviewed and why the text
 * cannot carry caller input: identifiers and fragments come from code constants, and values still go as `$n`
 * parameters. A new use (or one more in a listed file) fails this test until it is reviewed and added.
 */
const reviewed: Record<string, ReviewedUse> = {
  "layers/Sql.ts": { uses: 1, why: "migration loader: runs the statements of the repository's own sql/*.sql files" },
  "src/client-api/accounts/users/UsersRepo.ts": {
    uses: 1,
    why: "moderation SET list: fragments picked from the constant `flagUpdates` by a Schema-decoded action literal; ids are parameters"
  },
  "src/client-api/social/feed/FeedRepo.ts": {
    uses: 2,
    why:
      "feed branches: table, column and ORDER BY fragments from the constant BRANCHES; `$chain` is the configured chain id " +
      "(a number); `source` is a FeedSource literal; positions, limits and tokens are template parameters"
  },
  "src/indexer/graphql/GraphqlSchema.ts": {
    uses: 1,
    why:
      "GraphQL lists (src/indexer/graphql/ListQuery.ts): columns only from the entity field map (unknown names are rejected " +
      "before SQL), operators from a fixed table, every filter value and cursor as a `$n::type` parameter"
  },
  "src/indexer/store/Bulk.ts": {
    uses: 1,
    why: "bulk INSERT … SELECT FROM unnest($n::type[]): table and column names from the indexer's own row types, values as array parameters"
  },
  "src/indexer/store/Derive.ts": {
    uses: 1,
    why: "derived tables: constant SQL texts with chain id, block range or keys as $1..$3 parameters"
  },
  "src/indexer/store/Folded.ts": {
    uses: 1,
    why: "transfer counts of a batch: one constant UPDATE … FROM unnest($2::text[], $3::int8[]), chain id and arrays as parameters"
  },
  "src/indexer/store/Store.ts": {
    uses: 6,
    why:
      "reorg rollback: DELETE/SELECT over the constant list of event tables, chain id, block number and keys as " +
      'parameters; the bootstrap\'s `known` lookup: a table typed "pools" | "tokens", chain id and addresses as parameters'
  },
  "src/search/SearchDocumentsRepo.ts": {
    uses: 1,
    why: "search documents: constant SELECT texts (tokens/pools), page cursor and keys as $n parameters"
  }
}

const unsafeUse = /\bsql\s*\.\s*(unsafe|literal)\s*\(|\.unsafe\s*\(/gu

describe("SQL review", () => {
  it("every sql.unsafe / sql.literal in src/, layers/ and workers/ is a reviewed use", () => {
    const { unreviewed, stale } = compareWithReview(["src", "layers", "workers"], unsafeUse, reviewed)
    assert.deepStrictEqual(unreviewed, [], "review these uses (docs/SECURITY.md) and list them in this test")
    // A listed file that no longer needs its exception is removed from the list, so the list stays the truth.
    assert.deepStrictEqual(stale, [], "these reviewed uses are gone: lower their count")
  })

  it("no SQL driver is used directly: every query goes through the `sql` client of effect/sql", () => {
    const rawDriver =
      /\bfrom\s+"(?:pg|postgres|pg-promise|@neondatabase\/serverless)"|require\(\s*"(?:pg|postgres)"\s*\)/u
    const direct = ["src", "layers", "workers"].flatMap(sourceFiles).filter((f) => rawDriver.test(readSource(f)))
    assert.deepStrictEqual(
      direct,
      [],
      "these files import a SQL driver directly, bypassing the parameterised `sql` template"
    )
    assert.isTrue(rawDriver.test('import { Client } from "pg"'))
  })

  it("the check sees a use (it would catch a new one)", () => {
    assert.strictEqual("yield* sql.unsafe(`SELECT ${x}`)".match(unsafeUse)?.length, 1)
    assert.strictEqual("sql.literal(name)".match(unsafeUse)?.length, 1)
    assert.strictEqual("sql`SELECT ${x}`".match(unsafeUse), null)
  })
})
