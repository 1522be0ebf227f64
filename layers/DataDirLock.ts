import { Config, Context, Data, Effect, Layer, Option } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { isAlive } from "../src/platform/Processes.ts"

/**
 * One instance per DATA_DIR: `$DATA_DIR/fire-api.lock` names the process that owns the directory's embedded
 * PostgreSQL (`pg/`) and devnet (`devnet/`), its start time and where it serves. It is taken before anything is
 * started; a second start refuses instead of stopping the first one's children. A lock whose process is gone (or
 * whose pid now belongs to another program: the start time differs) was left by a killed instance: it is taken over,
 * and only then are children that instance left running stopped.
 *
 * The file is created with link(2) from a complete temporary file, so a reader never sees it half written, and a
 * stale one is moved aside (rename) before it is removed, so two starts racing for it cannot both win.
 */
export interface LockHolder {
  readonly pid: number
  /** The process start time in clock ticks since boot (/proc/<pid>/stat field 22): tells a reused pid apart. */
  readonly startTicks: string | null
  readonly bootId: string | null
  readonly startedAt: string
  /** `client http://…` lines once the instance is ready; empty while it starts. */
  readonly serving: ReadonlyArray<string>
}

export class DataDirInUse extends Data.TaggedError("DataDirInUse")<{
  readonly dataDir: string
  readonly holder: LockHolder
}> {
  override get message() {
    const where = this.holder.serving.length > 0 ? `serving ${this.holder.serving.join(", ")}` : "still starting"
    return (
      `DATA_DIR ${this.dataDir} is in use by fire-api pid ${this.holder.pid} (${where}, since ${this.holder.startedAt}): ` +
      "stop that instance or set another DATA_DIR"
    )
  }
}

/** DATA_DIR cannot be created or written (permissions, a file in the way, a read-only mount). */
export class DataDirUnusable extends Data.TaggedError("DataDirUnusable")<{
  readonly dataDir: string
  readonly cause: unknown
}> {
  override get message() {
    const reason = this.cause instanceof Error ? this.cause.message : String(this.cause)
    return `DATA_DIR ${this.dataDir} is not usable (${reason}): set DATA_DIR to a directory this user can write`
  }
}

export const lockFileOf = (dataDir: string) => NodePath.join(dataDir, "fire-api.lock")

const readOrNull = (file: string): string | null => {
  try {
    return NodeFs.readFileSync(file, "utf8").trim()
  } catch {
    return null
  }
}

/** Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces and parentheses, so count from its end. */
export const startTicksOf = (pid: number): string | null => {
  const stat = readOrNull(`/proc/${pid}/stat`)
  if (stat === null) return null
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null
}

const bootId = () => readOrNull("/proc/sys/kernel/random/boot_id")

const readHolder = (file: string): LockHolder | undefined => {
  const text = readOrNull(file)
  if (text === null) return undefined
  try {
    const holder = JSON.parse(text) as LockHolder
    return Number.isInteger(holder.pid) && holder.pid > 0 ? holder : undefined
  } catch {
    return undefined
  }
}

/** Whether the process that wrote `holder` still runs (same boot, same pid, same start time). */
export const isHeld = (holder: LockHolder): boolean => {
  if (!isAlive(holder.pid)) return false
  const boot = bootId()
  if (holder.bootId !== null && boot !== null && holder.bootId !== boot) return false
  const ticks = startTicksOf(holder.pid)
  return holder.startTicks === null || ticks === null || holder.startTicks === ticks
}

const sameHolder = (a: LockHolder | undefined, b: LockHolder | undefined) =>
  a?.pid === b?.pid && a?.startTicks === b?.startTicks && a?.startedAt === b?.startedAt

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code

const writeAtomically = (file: string, holder: LockHolder, place: (tmp: string) => void) => {
  const tmp = `${file}.${process.pid}.tmp`
  NodeFs.writeFileSync(tmp, `${JSON.stringify(holder)}\n`)
  try {
    place(tmp)
  } finally {
    NodeFs.rmSync(tmp, { force: true })
  }
}

export interface Acquired {
  readonly file: string
  readonly self: LockHolder
  /** The holder of a stale lock this start took over: children it left running may still hold the directory. */
  readonly takenOverFrom: LockHolder | undefined
}

/** Takes the lock of `dataDir` (created if missing) or throws DataDirInUse. */
export const acquireDataDirLock = (dataDir: string): Acquired => {
  NodeFs.mkdirSync(dataDir, { recursive: true })
  const file = lockFileOf(dataDir)
  const self: LockHolder = {
    pid: process.pid,
    startTicks: startTicksOf(process.pid),
    bootId: bootId(),
    startedAt: new Date().toISOString(),
    serving: []
  }
  let takenOverFrom: LockHolder | undefined
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeAtomically(file, self, (tmp) => NodeFs.linkSync(tmp, file))
      return { file, self, takenOverFrom }
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error
    }
    const holder = readHolder(file)
    if (holder !== undefined && isHeld(holder)) throw new DataDirInUse({ dataDir, holder })
    const aside = `${file}.stale.${process.pid}`
    try {
      NodeFs.renameSync(file, aside)
    } catch (error) {
      if (errorCode(error) === "ENOENT") continue // another start removed it first
      throw error
    }
    const moved = readHolder(aside)
    if (sameHolder(moved, holder)) {
      takenOverFrom = holder
    } else {
      // Between our read and the rename another start replaced the stale lock with its own: put it back.
      try {
        NodeFs.linkSync(aside, file)
      } catch {
        // a third start holds it now; the next attempt reads that one
      }
    }
    NodeFs.rmSync(aside, { force: true })
  }
  throw new Error(`could not take ${file}: it keeps changing (several starts at once?)`)
}

/** Writes where the instance serves into its lock, while the lock is still its own. */
export const announceServing = (acquired: Acquired, serving: ReadonlyArray<string>) => {
  if (!sameHolder(readHolder(acquired.file), acquired.self)) return
  writeAtomically(acquired.file, { ...acquired.self, serving }, (tmp) => NodeFs.renameSync(tmp, acquired.file))
}

export const releaseDataDirLock = (acquired: Acquired) => {
  if (sameHolder(readHolder(acquired.file), acquired.self)) NodeFs.rmSync(acquired.file, { force: true })
}

export class DataDirLock extends Context.Service<
  DataDirLock,
  {
    /** Whether children left running on DATA_DIR belong to a killed instance (a stale lock was taken over). */
    readonly leftoversAreStale: boolean
    readonly announce: (serving: ReadonlyArray<string>) => Effect.Effect<void>
  }
>()("app/layers/DataDirLock") {
  /** The lock of `dataDir` for the life of the scope. */
  static readonly layerWith = (dataDir: string): Layer.Layer<DataDirLock, DataDirInUse | DataDirUnusable> =>
    Layer.effect(
      DataDirLock,
      Effect.gen(function* () {
        const acquired = yield* Effect.acquireRelease(
          Effect.try({
            try: () => acquireDataDirLock(dataDir),
            catch: (error) => (error instanceof DataDirInUse ? error : new DataDirUnusable({ dataDir, cause: error }))
          }),
          (acquired) => Effect.sync(() => releaseDataDirLock(acquired))
        )
        if (acquired.takenOverFrom !== undefined) {
          yield* Effect.logInfo(
            `DATA_DIR ${dataDir}: taking over the lock of pid ${acquired.takenOverFrom.pid}, which is gone`
          )
        }
        return DataDirLock.of({
          leftoversAreStale: acquired.takenOverFrom !== undefined,
          announce: (serving) => Effect.sync(() => announceServing(acquired, serving)).pipe(Effect.ignore)
        })
      })
    )

  /**
   * The app's lock: taken when the process runs an embedded PostgreSQL (no DATABASE_URL) or devnet (no RPC_URL),
   * which live in DATA_DIR. Processes on an external database and chain share DATA_DIR freely (the systemd units of
   * scripts/systemd run one process per service on one directory).
   */
  static readonly layer: Layer.Layer<DataDirLock, DataDirInUse | DataDirUnusable | Config.ConfigError> = Layer.unwrap(
    Effect.gen(function* () {
      const databaseUrl = yield* Config.option(Config.String("DATABASE_URL"))
      const rpcUrl = yield* Config.option(Config.String("RPC_URL"))
      if (Option.isSome(databaseUrl) && Option.isSome(rpcUrl)) {
        return Layer.succeed(DataDirLock, DataDirLock.of({ leftoversAreStale: false, announce: () => Effect.void }))
      }
      const dataDir = yield* Config.String("DATA_DIR").pipe(
        Config.withDefault("./data"),
        Config.map((d) => NodePath.resolve(d))
      )
      return DataDirLock.layerWith(dataDir)
    })
  )
}
