import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { migrateFrom, runMigrations } from "../../layers/Sql.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as NodePath from "node:path"

layer(TestDatabase)("migrations", (it) => {
  it.effect("are applied once: a second run applies nothing and the schema is intact", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const recorded = yield* sql<{ migrationId: number }>`SELECT migration_id FROM effect_sql_migrations ORDER BY 1`
      assert.isAbove(recorded.length, 0)
      const again = yield* runMigrations.pipe(Effect.provide(NodeServices.layer))
      assert.deepStrictEqual(again, [])
      const after = yield* sql<{ migrationId: number }>`SELECT migration_id FROM effect_sql_migrations ORDER BY 1`
      assert.deepStrictEqual(after, recorded)
      const tables = yield* sql<{ tablename: string }>`SELECT tablename FROM pg_tables WHERE tablename = 'app_settings'`
      assert.strictEqual(tables.length, 1)
    })
  )

  it.effect("every migration file is numbered, named verb_noun and recorded", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const recorded = yield* sql<{
        migrationId: number
        name: string
      }>`SELECT migration_id, name FROM effect_sql_migrations`
      const files = (yield* Effect.promise(() => import("node:fs")))
        .readdirSync(new URL("../../sql", import.meta.url))
        .filter((f) => f.endsWith(".sql"))
      assert.strictEqual(recorded.length, files.length)
      for (const f of files) assert.match(f, /^\d{4}_[a-z0-9]+_[a-z0-9_]+\.sql$/)
    })
  )
})

layer(TestDatabase)("migrations landed out of order", (it) => {
  it.effect("a file numbered below the highest applied one is still applied, once", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const dir = yield* Effect.promise(() => fs.mkdtemp(NodePath.join(os.tmpdir(), "migrations-")))
      const migrate = migrateFrom(dir, "out_of_order_migrations").pipe(Effect.provide(NodeServices.layer))
      yield* Effect.promise(() => fs.writeFile(`${dir}/0005_create_later.sql`, "CREATE TABLE later_table (id int);\n"))
      assert.deepStrictEqual(yield* migrate, [[5, "create_later"]])
      // A feature branch with a lower number lands after 0005 was applied somewhere.
      yield* Effect.promise(() =>
        fs.writeFile(
          `${dir}/0002_create_earlier.sql`,
          "CREATE TABLE earlier_table (id int);\nINSERT INTO earlier_table VALUES (1);\n"
        )
      )
      assert.deepStrictEqual(yield* migrate, [[2, "create_earlier"]])
      assert.deepStrictEqual(yield* migrate, [])
      const rows = yield* sql<{ id: number }>`SELECT id FROM earlier_table`
      assert.deepStrictEqual(
        rows.map((r) => r.id),
        [1]
      )
      const recorded = yield* sql<{ migrationId: number }>`SELECT migration_id FROM out_of_order_migrations ORDER BY 1`
      assert.deepStrictEqual(
        recorded.map((r) => r.migrationId),
        [2, 5]
      )
    })
  )
})
