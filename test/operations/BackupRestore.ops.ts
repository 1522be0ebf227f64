import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { execFile } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { promisify } from "node:util"
import { pgClientLayer } from "../../layers/Sql.ts"
import { startServiceProcess } from "../support/ServiceProcess.ts"
import { FreshDatabase, TestDatabaseInfo } from "../support/TestDatabase.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"
import { bearer } from "../support/http.ts"
import { newAccount, tokenFor } from "../sessions/support.ts"

/**
 * The backup and restore procedure of docs/OPERATIONS.md, run for real: the client service writes real rows (a
 * wallet sign-in with its nonce and session, a profile, the generated JWT key in app_settings), `pg_dump -Fc` dumps
 * the database, `pg_restore` loads the dump into a fresh database, and then (1) every table of the restored database
 * holds exactly the rows of the source, compared by a fingerprint of each table taken in the snapshot the dump was
 * made from, and (2) `node src/main.ts` started on the restored database serves the same profile and accepts the
 * session token issued before the backup.
 *
 * It needs PostgreSQL client tools whose major version is at least the server's (pg_dump refuses newer servers):
 * PATH, PG_BIN_DIR, or /usr/lib/postgresql/<major>/bin. CI's server is PostgreSQL 15 with Debian's 15 tools.
 */
const exec = promisify(execFile)
const EMPTY = "d41d8cd98f00b204e9800998ecf8427e"

/** A pg_dump/pg_restore pair that can dump a server of `serverMajor`: the same major if there is one, else the nearest newer. */
const findPgTools = (serverMajor: number) =>
  Effect.promise(async () => {
    const dirs = [
      process.env.PG_BIN_DIR,
      "", // PATH
      ...(NodeFs.existsSync("/usr/lib/postgresql")
        ? NodeFs.readdirSync("/usr/lib/postgresql").map((v) => `/usr/lib/postgresql/${v}/bin`)
        : [])
    ].filter((d): d is string => d !== undefined)
    const found: Array<{ readonly dir: string; readonly major: number }> = []
    for (const dir of dirs) {
      const version = await exec(NodePath.join(dir, "pg_dump"), ["--version"]).then(
        (r) => r.stdout,
        () => ""
      )
      const major = Number(/\(PostgreSQL\) (\d+)/.exec(version)?.[1] ?? 0)
      if (major >= serverMajor) found.push({ dir, major })
    }
    const best = found.sort((a, b) => a.major - b.major)[0]
    if (best === undefined) {
      throw new Error(
        `no pg_dump >= ${serverMajor} found (PATH, PG_BIN_DIR, /usr/lib/postgresql/*/bin): install postgresql-client-${serverMajor}`
      )
    }
    return {
      pgDump: NodePath.join(best.dir, "pg_dump"),
      pgRestore: NodePath.join(best.dir, "pg_restore"),
      major: best.major
    }
  })

/**
 * One md5 per table of the public schema over all its rows (sorted by their text form): equal fingerprints, equal
 * contents. `query_to_xml` runs the per-table query inside this one statement, so no SQL text is built outside it.
 */
const fingerprints = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly relname: string; readonly hash: string }>`
    SELECT c.relname,
      (xpath('/row/h/text()', query_to_xml(format(
        'SELECT md5(coalesce(string_agg(t::text, chr(10) ORDER BY t::text), '''')) AS h FROM %I.%I t', n.nspname, c.relname
      ), false, true, '')))[1]::text AS hash
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
    ORDER BY c.relname`.pipe(Effect.map((rows) => Object.fromEntries(rows.map((r) => [r.relname, r.hash]))))
)

class TempDir extends Context.Service<TempDir, string>()("test/operations/TempDir") {}
const TempDirLive = Layer.effect(
  TempDir,
  Effect.acquireRelease(
    Effect.sync(() => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-backup-"))),
    (dir) => Effect.sync(() => NodeFs.rmSync(dir, { recursive: true, force: true }))
  )
)

/** The client service with a generated JWT key (no JWT_SECRET), over the test file's database. */
const Source = Layer.unwrap(
  Effect.map(TempDir, (dir) => TestServices(["client"], { dataDir: NodePath.join(dir, "source") }))
).pipe(Layer.provideMerge(TempDirLive))

layer(Source, { timeout: "180 seconds", excludeTestServices: true })(
  "backup and restore (pg_dump -Fc, pg_restore)",
  (it) => {
    it.effect("a restored dump holds the same rows, and the app started on it serves the same data and sessions", () =>
      Effect.gen(function* () {
        const client = yield* baseUrl("client")
        const account = newAccount()
        const token = yield* tokenFor(account)
        const profile = { name: "Backup Ada", bio: "restored from a dump" }
        const edited = yield* fetchJson(`${client}/v1/users/profile`, {
          method: "PATCH",
          body: JSON.stringify(profile),
          headers: { "content-type": "application/json", ...bearer(token) }
        })
        assert.strictEqual(edited.status, 200, JSON.stringify(edited.body))
        const before = yield* fetchJson(`${client}/v1/users/profile/address/${account.address}`)
        assert.strictEqual(before.body.name, profile.name)

        const sql = yield* SqlClient.SqlClient
        const [server] = yield* sql<{ readonly serverVersionNum: string }>`SHOW server_version_num`
        const tools = yield* findPgTools(Math.floor(Number(server!.serverVersionNum) / 10_000))
        const dir = yield* TempDir
        const dumpFile = NodePath.join(dir, "fire.dump")
        const source = yield* TestDatabaseInfo

        // The dump is taken in an exported snapshot, and the source's fingerprints in the same one: the services keep
        // writing in the background, and the comparison must see exactly what the dump saw.
        const sourcePrints = yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`
            const [exported] = yield* sql<{ readonly snapshot: string }>`SELECT pg_export_snapshot() AS snapshot`
            const prints = yield* fingerprints
            yield* Effect.promise(() =>
              exec(tools.pgDump, [
                "--format=custom",
                "--no-owner",
                `--snapshot=${exported!.snapshot}`,
                `--file=${dumpFile}`,
                Redacted.value(source.url)
              ])
            )
            return prints
          })
        )
        assert.isAbove(NodeFs.statSync(dumpFile).size, 0)
        // Real rows, not empty tables compared with empty tables (md5 of no rows is md5('')).
        for (const table of ["users", "sessions", "app_settings", "effect_sql_migrations"]) {
          assert.notStrictEqual(sourcePrints[table] ?? EMPTY, EMPTY, `${table} has rows`)
        }

        const restored = yield* Layer.build(Layer.fresh(FreshDatabase)).pipe(
          Effect.map((context) => Context.get(context, TestDatabaseInfo))
        )
        assert.notStrictEqual(restored.name, source.name)
        yield* Effect.promise(() =>
          exec(tools.pgRestore, ["--no-owner", "--exit-on-error", `--dbname=${Redacted.value(restored.url)}`, dumpFile])
        )
        const restoredPrints = yield* fingerprints.pipe(Effect.provide(pgClientLayer(restored.url, 2)))
        assert.deepStrictEqual(restoredPrints, sourcePrints)

        // The app on the restored database: the same answers, and the pre-backup session is still valid (the session
        // row and the generated JWT key in app_settings came back with the dump).
        const app = yield* startServiceProcess(["client"], { DATA_DIR: NodePath.join(dir, "restored") }).pipe(
          Effect.provideService(TestDatabaseInfo, restored)
        )
        const after = yield* fetchJson(`${app.urls.client}/v1/users/profile/address/${account.address}`)
        assert.strictEqual(after.status, 200)
        assert.deepStrictEqual(after.body, before.body)
        const me = yield* fetchJson(`${app.urls.client}/v1/users/me`, { headers: bearer(token) })
        assert.strictEqual(me.status, 200, JSON.stringify(me.body))
        assert.strictEqual(me.body.name, profile.name)
      }).pipe(Effect.scoped)
    )
  }
)
