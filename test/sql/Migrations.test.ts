import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { runMigrations } from "../../layers/Sql.ts"
import { TestDatabase } from "../layers/TestDatabase.ts"
import * as NodeServices from "@effect/platform-node/NodeServices"

layer(TestDatabase)("migrations", (it) => {
  it.effect("are applied once: a second run applies nothing and the schema is intact", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const recorded = yield* sql<{ migrationId: number }>`SELECT migration_id FROM effect_sql_migrations ORDER BY 1`
      assert.isAbove(recorded.length, 0)
      const again = yield* runMigrations.pipe(Effect.provide(NodeServices.layer))
      assert.deepStrictEqual(again, [])
      const after = yield* sql<{ migrationId: number }>`SELECT migration_id FROM effect_sql_migrations ORDER BY 1`
      assert.deepStrictEqual(after, recorded)
      const tables = yield* sql<{ tablename: string }>`SELECT tablename FROM pg_tables WHERE tablename = 'app_settings'`
      assert.strictEqual(tables.length, 1)
    }))

  it.effect("every migration file is numbered, named verb_noun and recorded", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const recorded = yield* sql<{ migrationId: number; name: string }>`SELECT migration_id, name FROM effect_sql_migrations`
      const files = (yield* Effect.promise(() => import("node:fs"))).readdirSync(new URL("../../sql", import.meta.url))
        .filter((f) => f.endsWith(".sql"))
      assert.strictEqual(recorded.length, files.length)
      for (const f of files) assert.match(f, /^\d{4}_[a-z0-9]+_[a-z0-9_]+\.sql$/)
    }))
})
