import { type ChildProcess, spawn } from "node:child_process"
import * as NodePath from "node:path"

export const root = NodePath.resolve(import.meta.dirname, "../..")

export interface Spawned {
  readonly child: ChildProcess
  readonly urls: Map<string, string>
  /** Milliseconds from spawn to the ready line. */
  readonly readyMs: number
}

/** Starts `src/main.ts` with the given env and arguments and resolves at its `ready:` line. */
export const spawnApp = (env: Record<string, string | undefined>, args: ReadonlyArray<string> = []) =>
  new Promise<Spawned>((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, [NodePath.join(root, "src/main.ts"), ...args], {
      cwd: root,
      env: { ...process.env, LOG_FORMAT: "json", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    const urls = new Map<string, string>()
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      for (const m of out.matchAll(/^(client|exchange|search|indexer)\s+(http:\/\/\S+)$/gm)) urls.set(m[1]!, m[2]!)
      if (/^ready: /m.test(out)) resolve({ child, urls, readyMs: performance.now() - t0 })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.once("exit", (code) => reject(new Error(`exited with ${code} before ready:\n${out}`)))
  })

export const stopApp = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode)
    child.once("exit", (code) => resolve(code))
    child.kill("SIGTERM")
  })
