import type { PgClient } from "@effect/sql-pg"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { inject } from "vitest"
import { MigrationsLive, pgClientLayer } from "../../layers/Sql.ts"
// The type of inject("adminDatabaseUrl") is declared where the test setup provides it; scripts compiled by
// `npm run build` reach this file (bench:indexer through test/indexer/harness.ts) without the vitest config.
import type {} from "../setup/database.ts"

/** Runs `f` on a short-lived connection to the admin database of the test server. */
export const withAdmin = <A, E>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, E>) =>
  Effect.flatMap(SqlClient.SqlClient, f).pipe(
    Effect.provide(pgClientLayer(Redacted.make(inject("adminDatabaseUrl")), 2)),
    Effect.scoped
  )

/** The fresh database of the current test file: its name and URL. */
export class TestDatabaseInfo extends Context.Service<
  TestDatabaseInfo,
  {
    readonly name: string
    readonly url: Redacted.Redacted
  }
>()("test/TestDatabaseInfo") {}

const urlFor = (admin: string, database: string) => {
  const url = new URL(admin)
  url.pathname = `/${database}`
  return url.toString()
}

/** Creates a database for this test file and drops it afterwards (FORCE: pooled connections may still be open). */
export const FreshDatabase = Layer.effect(
  TestDatabaseInfo,
  Effect.acquireRelease(
    Effect.gen(function* () {
      const name = `test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
      yield* withAdmin((sql) => sql.unsafe(`CREATE DATABASE ${name}`))
      return TestDatabaseInfo.of({ name, url: Redacted.make(urlFor(inject("adminDatabaseUrl"), name)) })
    }),
    ({ name }) => withAdmin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).pipe(Effect.ignore)
  ).pipe(Effect.orDie)
)

/**
 * A real PostgreSQL database with the real migrations applied, fresh for each test file
 * (`layer(TestDatabase)(...)` builds it once per describe block).
 */
export const TestDatabase: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient | TestDatabaseInfo> = Layer.unwrap(
  Effect.map(TestDatabaseInfo, (info) => pgClientLayer(info.url, 10))
).pipe(
  (client) => Layer.provideMerge(MigrationsLive, client),
  Layer.provideMerge(FreshDatabase),
  Layer.provide(NodeServices.layer),
  Layer.orDie
)
