import { Effect, Redacted } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as NodePath from "node:path"
import { inject } from "vitest"
import type { ServiceName } from "../../src/platform/AppConfig.ts"
import { AnvilChain } from "./AnvilChain.ts"
import { TestDatabaseInfo } from "./TestDatabase.ts"

const root = NodePath.resolve(import.meta.dirname, "../..")

export interface ServiceProcess {
  readonly child: ChildProcess
  readonly urls: Partial<Record<ServiceName, string>>
  /** Everything the process printed so far (stdout and stderr). */
  readonly output: () => string
  /** Resolves when a line of output matches. */
  readonly waitFor: (pattern: RegExp) => Promise<string>
}

/**
 * `node src/main.ts --services <services>` as a real process on ephemeral ports, over the test database and anvil
 * (RPC_URL + the devnet deployments file): ready once it prints `ready:`. Stopped with SIGTERM at the end of the
 * scope unless the test killed it first.
 */
export const startServiceProcess = (services: ReadonlyArray<ServiceName>, env: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const db = yield* TestDatabaseInfo
    const chain = yield* AnvilChain
    const base = {
      DATABASE_URL: Redacted.value(db.url),
      RPC_URL: chain.rpcUrl,
      DEPLOYMENTS_FILE: inject("devnetDeploymentsFile"),
      // A test deployment: with RPC_URL the default would be production mode, which refuses test settings.
      FIRE_ENV: "development",
      HOST: "127.0.0.1",
      CLIENT_PORT: "0",
      EXCHANGE_PORT: "0",
      SEARCH_PORT: "0",
      INDEXER_PORT: "0",
      LOG_FORMAT: "json"
    }
    return yield* Effect.acquireRelease(
      Effect.promise(() => spawnReady(services, { ...base, ...env })),
      ({ child }) =>
        Effect.promise(
          () =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve()
              child.once("exit", () => resolve())
              child.kill("SIGTERM")
            })
        )
    )
  })

const spawnReady = (services: ReadonlyArray<ServiceName>, env: Record<string, string>) =>
  new Promise<ServiceProcess>((resolve, reject) => {
    const child = spawn(process.execPath, [NodePath.join(root, "src/main.ts"), "--services", services.join(",")], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = []
    const check = () => {
      for (const w of [...waiters]) {
        const line = out.split("\n").find((l) => w.pattern.test(l))
        if (line !== undefined) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(line)
        }
      }
    }
    const proc: ServiceProcess = {
      child,
      urls: {},
      output: () => out,
      waitFor: (pattern) =>
        new Promise((res) => {
          waiters.push({ pattern, resolve: res })
          check()
        })
    }
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      check()
      if (/^ready: /m.test(out) && Object.keys(proc.urls).length === 0) {
        for (const s of services) {
          const url = new RegExp(`^${s}\\s+(http://\\S+)`, "m").exec(out)?.[1]
          if (url !== undefined) (proc.urls as Record<string, string>)[s] = url
        }
        resolve(proc)
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.once("exit", (code, signal) => reject(new Error(`exited with ${code ?? signal} before ready:\n${out}`)))
  })
