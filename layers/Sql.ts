import { PgClient } from "@effect/sql-pg"
import { Config, Effect, FileSystem, Layer, Option, type Path, type Redacted } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as NodePath from "node:path"
import { DataDirLock } from "./DataDirLock.ts"
import { EmbeddedPostgres } from "./EmbeddedPostgres.ts"
import { sqlDir } from "./ProjectPaths.ts"

/** Column names are snake_case in SQL and camelCase in TypeScript. */
const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

export const pgClientLayer = (url: Redacted.Redacted, maxConnections = 20) =>
  PgClient.layer({
    url,
    maxConnections,
    applicationName: "fire-api",
    transformResultNames: camel,
    transformQueryNames: snake
  })

/**
 * Plain numbered `.sql` files (`NNNN_verb_noun.sql`), read in id order for `migrateFrom` below, which records them in
 * `effect_sql_migrations` (the Effect Migrator's table) and takes a table lock so that several processes starting at
 * once apply each file once.
 * A file may hold several statements; they run in the migration's transaction.
 */
export const sqlFileLoader = (dir: string): Migrator.Loader<FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const files = (yield* fs.readDirectory(dir))
      .flatMap((file) => {
        const match = file.match(/^(\d{4})_([a-z0-9_]+)\.sql$/)
        return match ? [{ id: Number(match[1]), name: match[2]!, file }] : []
      })
      .sort((a, b) => a.id - b.id)
    return yield* Effect.forEach(files, ({ id, name, file }) =>
      Effect.map(
        fs.readFileString(NodePath.join(dir, file)),
        (text): Migrator.ResolvedMigration => [
          id,
          name,
          // The driver speaks the extended protocol, one command per query: run the file statement by statement
          // (a statement ends with `;` at the end of a line).
          Effect.succeed(
            Effect.flatMap(SqlClient.SqlClient, (sql) =>
              Effect.forEach(
                text.split(/;\s*$/m).filter((statement) => statement.replace(/--.*$/gm, "").trim() !== ""),
                (statement) => sql.unsafe(statement).unprepared,
                { discard: true }
              )
            )
          )
        ]
      )
    )
  }).pipe(Effect.mapError((cause) => new Migrator.MigrationError({ kind: "Failed", cause, message: `reading ${dir}` })))

/**
 * Applies every migration file whose id is not recorded yet, in id order, in one transaction under an exclusive lock
 * of the record table (several processes starting at once apply each file once).
 *
 * Effect's Migrator applies only ids above the highest recorded one. Features land on main in parallel, each with its
 * own number range, so a database migrated before a lower-numbered file landed (./data/pg of `npm start`, a
 * production database) would silently skip that file. Here a missing id is applied whatever its number.
 */
export const migrateFrom = (
  dir: string,
  table = "effect_sql_migrations"
): Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError,
  SqlClient.SqlClient | FileSystem.FileSystem | Path.Path
> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const migrations = yield* sqlFileLoader(dir)
    yield* sql`CREATE TABLE IF NOT EXISTS ${sql(table)} (
    migration_id integer PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now(),
    name text NOT NULL
  )`
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`LOCK TABLE ${sql(table)} IN ACCESS EXCLUSIVE MODE`
        const recorded = new Set(
          (yield* sql<{ migrationId: number }>`SELECT migration_id FROM ${sql(table)}`).map((row) => row.migrationId)
        )
        const pending = migrations.filter(([id]) => !recorded.has(id))
        for (const [id, name, load] of pending) {
          const run = yield* load
          yield* (run as Effect.Effect<unknown, SqlError, SqlClient.SqlClient>).pipe(
            Effect.mapError(
              (cause) => new Migrator.MigrationError({ kind: "Failed", cause, message: `migration ${id}_${name}` })
            )
          )
          yield* sql`INSERT INTO ${sql(table)} (migration_id, name) VALUES (${id}, ${name})`
        }
        return pending.map(([id, name]) => [id, name] as const)
      })
    )
  })

export const runMigrations = migrateFrom(sqlDir)

export const MigrationsLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const applied = yield* runMigrations
    if (applied.length > 0)
      yield* Effect.logInfo(`applied migrations: ${applied.map(([id, name]) => `${id}_${name}`).join(", ")}`)
  })
)

/**
 * The database for the process: `DATABASE_URL` when set (production, CI), otherwise an embedded PostgreSQL with
 * its data under `$DATA_DIR/pg` (port `EMBEDDED_PG_PORT`, default 54329; 0 = any free port).
 * Migrations are applied while the layer builds, so nothing that depends on it (HTTP ports) opens before.
 */
export const DatabaseLive: Layer.Layer<
  SqlClient.SqlClient | PgClient.PgClient,
  unknown,
  FileSystem.FileSystem | Path.Path
> = Layer.unwrap(
  Effect.gen(function* () {
    const url = yield* Config.option(Config.Redacted("DATABASE_URL"))
    const maxConnections = yield* Config.Int("DATABASE_POOL_SIZE").pipe(Config.withDefault(20))
    if (Option.isSome(url)) return pgClientLayer(url.value, maxConnections)
    const dataDir = yield* Config.String("DATA_DIR").pipe(Config.withDefault("./data"))
    const port = yield* Config.Int("EMBEDDED_PG_PORT").pipe(Config.withDefault(54329))
    // Under the app's DATA_DIR lock, a server left running is stopped only when it is a killed instance's.
    const lock = yield* Effect.serviceOption(DataDirLock)
    const stopLeftover = Option.match(lock, { onNone: () => true, onSome: (l) => l.leftoversAreStale })
    return Layer.unwrap(Effect.map(EmbeddedPostgres, (pg) => pgClientLayer(pg.url, maxConnections))).pipe(
      Layer.provide(EmbeddedPostgres.layer({ dir: NodePath.join(dataDir, "pg"), port, stopLeftover }))
    )
  })
).pipe((db) => Layer.provideMerge(MigrationsLive, db))
