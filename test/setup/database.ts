import { Effect, Exit, Redacted, Scope } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import type { TestProject } from "vitest/node"
import { startEmbeddedPostgres } from "../../layers/EmbeddedPostgres.ts"

declare module "vitest" {
  export interface ProvidedContext {
    /** A server where tests may create and drop databases (each test file makes its own). */
    adminDatabaseUrl: string
  }
}

/**
 * One PostgreSQL server for the whole run: `DATABASE_URL` when set (CI: the machine's PostgreSQL 15), otherwise an
 * embedded PostgreSQL 18 in a temporary directory on a free port, stopped at the end.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide("adminDatabaseUrl", process.env.DATABASE_URL)
    return
  }
  const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-test-pg-"))
  const scope = Effect.runSync(Scope.make())
  const pg = await Effect.runPromise(
    Scope.provide(startEmbeddedPostgres({ dir: NodePath.join(dir, "pg"), port: 0 }), scope)
  )
  project.provide("adminDatabaseUrl", Redacted.value(pg.url))
  return async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    NodeFs.rmSync(dir, { recursive: true, force: true })
  }
}
