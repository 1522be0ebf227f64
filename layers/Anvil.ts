import { Data, Effect } from "effect"
import type { Scope } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import { createRequire } from "node:module"
import * as NodeNet from "node:net"
import * as NodePath from "node:path"
import { gunzipSync, gzipSync } from "node:zlib"

/**
 * anvil (the Foundry devnet node, shipped as a native binary through npm) as a child process.
 * Plain async functions (`startAnvil`, `rpcRequest`, `dumpAnvilState`, ...) serve tests and scripts; `anvilScoped`
 * wraps the process in an Effect scope for the app's Chain layer.
 */

export const DEVNET_CHAIN_ID = 31337

/**
 * The private keys of anvil's ten funded accounts (10,000 ETH each), derived from the public test mnemonic
 * "test test … junk". PUBLIC TEST KEYS: anyone can spend from these addresses on any real chain.
 */
export const DEVNET_PRIVATE_KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
  "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
  "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
  "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
  "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6"
] as const

export class AnvilError extends Data.TaggedError("AnvilError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

export interface AnvilOptions {
  /** Working directory of the process: anvil gets `HOME=<dataDir>/home`, so nothing lands in the user's home. */
  readonly dataDir: string
  /** 0 (the default) picks a free port. */
  readonly port?: number
  readonly host?: string
  readonly chainId?: number
  /** A state file written by `dumpAnvilState` (or anvil's `--dump-state`): restores accounts, code, storage, blocks. */
  readonly loadState?: string
  /** Seconds per block; without it every transaction is mined at once (automine). */
  readonly blockTime?: number
  readonly extraArgs?: ReadonlyArray<string>
  /** Default 20 s. */
  readonly readyTimeoutMs?: number
  /** SIGTERM, then SIGKILL after this many ms (default 3 s). */
  readonly stopTimeoutMs?: number
  /** Every output line of anvil (stdout and stderr), for debugging. */
  readonly onLine?: (line: string) => void
}

export interface AnvilInstance {
  readonly rpcUrl: string
  readonly port: number
  readonly chainId: number
  readonly pid: number
  /** Milliseconds from spawn to the first answer of `eth_chainId` (and, with `loadState`, the clock aligned). */
  readonly readyMs: number
  /** Stops the process (SIGTERM, then SIGKILL) and waits for it to exit. Idempotent. */
  readonly stop: () => Promise<void>
}

export const anvilBinary = (): string =>
  NodePath.join(
    NodePath.dirname(createRequire(import.meta.url).resolve("@foundry-rs/anvil-linux-amd64/package.json")),
    "bin",
    "anvil"
  )

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Binds port 0 on 127.0.0.1 to let the OS pick a free port, then releases it. */
export const freePort = (host = "127.0.0.1"): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = NodeNet.createServer()
    server.once("error", reject)
    server.listen(0, host, () => {
      const address = server.address()
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))
      )
    })
  })

const portIsFree = (port: number, host = "127.0.0.1"): Promise<boolean> =>
  new Promise((resolve) => {
    const server = NodeNet.createServer()
    server.once("error", () => resolve(false))
    server.listen(port, host, () => server.close(() => resolve(true)))
  })

/**
 * Starts anvil and resolves once it answers `eth_chainId`. Rejects (and kills the process) on exit or timeout.
 * With an automatic port, a start that loses the race for the port is retried on another one.
 */
export const startAnvil = async (options: AnvilOptions): Promise<AnvilInstance> => {
  if (options.port !== undefined && options.port !== 0) {
    // Another node already listening there would answer our readiness check in place of ours.
    if (!(await portIsFree(options.port, options.host))) {
      throw new AnvilError({ message: `port ${options.port} is already in use (another devnet running?)` })
    }
    return startOnce(options, options.port)
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, await freePort(options.host))
    } catch (error) {
      if (attempt >= 3 || !(error instanceof AnvilError && /Address already in use/.test(error.message))) throw error
    }
  }
}

const startOnce = async (options: AnvilOptions, port: number): Promise<AnvilInstance> => {
  const started = performance.now()
  const chainId = options.chainId ?? DEVNET_CHAIN_ID
  const host = options.host ?? "127.0.0.1"
  const home = NodePath.join(NodePath.resolve(options.dataDir), "home")
  NodeFs.mkdirSync(home, { recursive: true })
  const args = [
    "--host",
    host,
    "--port",
    String(port),
    "--silent",
    // State dumps do not keep the chain id.
    "--chain-id",
    String(chainId),
    // Otherwise anvil writes every old state under $HOME/.foundry/anvil/tmp, gigabytes per run, and slows down.
    "--max-persisted-states",
    "0",
    ...(options.loadState === undefined ? [] : ["--load-state", options.loadState]),
    ...(options.blockTime === undefined ? [] : ["--block-time", String(options.blockTime)]),
    ...(options.extraArgs ?? [])
  ]
  const child = spawn(anvilBinary(), args, {
    env: { ...process.env, HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: a Ctrl-C in the terminal reaches only us, and the scope stops anvil after the
    // services that use it have drained.
    detached: true
  })
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()))
  // A parent killed without running finalizers must not leave anvil running.
  const killOnExit = () => child.kill("SIGKILL")
  process.once("exit", killOnExit)

  // --silent: only errors (e.g. "Address already in use") are printed.
  const output: Array<string> = []
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) {
      if (line === "") continue
      if (output.length < 200) output.push(line)
      options.onLine?.(line)
    }
  }
  child.stdout!.on("data", onData)
  child.stderr!.on("data", onData)

  const stop = async () => {
    process.removeListener("exit", killOnExit)
    await stopChild(child, exited, options.stopTimeoutMs ?? 3_000)
  }
  const fail = async (message: string): Promise<never> => {
    await stop()
    await Promise.race([closed, sleep(500)]) // the last lines (the reason) may still be in the pipes
    throw new AnvilError({ message: `${message}\n${output.slice(-30).join("\n")}` })
  }

  const rpcUrl = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`
  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000)
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      return fail(`anvil exited (${child.exitCode ?? child.signalCode}) before it was ready`)
    }
    if (Date.now() > deadline) return fail("anvil did not answer eth_chainId in time")
    const answer = await rpcRequest<string>(rpcUrl, "eth_chainId", []).catch(() => undefined)
    if (answer !== undefined) {
      if (child.exitCode !== null) continue // someone else answered on this port; report our exit above
      if (Number(answer) !== chainId) return fail(`anvil answered chain id ${answer}, expected ${chainId}`)
      break
    }
    await sleep(5)
  }
  if (options.loadState !== undefined) await alignClock(rpcUrl)
  return { rpcUrl, port, chainId, pid: child.pid!, readyMs: performance.now() - started, stop }
}

const stopChild = async (child: ChildProcess, exited: Promise<unknown>, timeoutMs: number) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill("SIGTERM")
  const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), timeoutMs).unref())
  if ((await Promise.race([exited, timer])) === "timeout") {
    child.kill("SIGKILL")
    await exited
  }
}

/** anvil as a scoped resource: started on acquire, stopped (and waited for) when the scope closes. */
export const anvilScoped = (options: AnvilOptions): Effect.Effect<AnvilInstance, AnvilError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => startAnvil(options),
      catch: (cause) =>
        cause instanceof AnvilError
          ? cause
          : new AnvilError({ message: `anvil did not start: ${String(cause)}`, cause })
    }),
    (anvil) => Effect.promise(() => anvil.stop())
  )

// ------------------------------------------------------------------------------------------------ JSON-RPC

let rpcId = 0

/** One JSON-RPC call over HTTP (no viem), for anvil_* / evm_* methods and readiness checks. */
export const rpcRequest = async <A = unknown>(rpcUrl: string, method: string, params: ReadonlyArray<unknown> = []) => {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params })
  })
  const body = (await response.json()) as { result?: A; error?: { code: number; message: string } }
  if (body.error !== undefined) {
    throw new AnvilError({ message: `${method} failed: ${body.error.message} (${body.error.code})`, cause: body.error })
  }
  return body.result as A
}

// ------------------------------------------------------------------------------------------------ state

/**
 * Writes the node's whole state (accounts, code, storage, blocks, receipts) as JSON — the format `--load-state`
 * reads. Written to a temporary file and renamed, so a crash never leaves half a state file.
 */
export const dumpAnvilState = async (rpcUrl: string, file: string): Promise<void> => {
  const hex = await rpcRequest<string>(rpcUrl, "anvil_dumpState")
  const json = gunzipSync(Buffer.from(hex.slice(2), "hex"))
  NodeFs.mkdirSync(NodePath.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  NodeFs.writeFileSync(tmp, json)
  NodeFs.renameSync(tmp, file)
}

/** Loads a state file into a running node (`anvil_loadState`), then aligns the clock as `startAnvil` does. */
export const loadAnvilState = async (rpcUrl: string, file: string): Promise<void> => {
  // anvil_loadState takes the gzip form that anvil_dumpState returns (raw JSON of a few MB is an invalid request).
  const gz = gzipSync(NodeFs.readFileSync(file), { level: 1 })
  await rpcRequest<boolean>(rpcUrl, "anvil_loadState", [`0x${gz.toString("hex")}`])
  await alignClock(rpcUrl)
}

/**
 * A loaded state keeps its blocks but not the time offset: after a seed that advanced time (grace periods),
 * anvil would stamp the next block with the wall clock, earlier than its parent. Shift the clock so that the next
 * block comes after the last loaded one.
 */
export const alignClock = async (rpcUrl: string): Promise<void> => {
  const latest = await rpcRequest<{ timestamp: string }>(rpcUrl, "eth_getBlockByNumber", ["latest", false])
  const behind = Number(latest.timestamp) - Math.floor(Date.now() / 1000)
  if (behind >= 0) await rpcRequest(rpcUrl, "evm_increaseTime", [behind + 1])
}
