import { redactUrl } from "../src/platform/RedactUrl.ts"
import { Config, Effect, Layer, Option } from "effect"
import * as NodePath from "node:path"
import type { PublicClient } from "viem"
import { Chain, ChainError } from "../src/platform/Chain.ts"
import { dumpAnvilState } from "./Anvil.ts"
import { DataDirLock } from "./DataDirLock.ts"
import { readDeploymentsSync } from "./Deployments.ts"
import { makePublicClient } from "./PublicClient.ts"

/**
 * The `Chain` service (src/platform/Chain.ts). Without `RPC_URL` it is a local anvil devnet owned by this layer
 * (warm start from `$DATA_DIR/devnet/state.json`, else deploy + seed + save); with `RPC_URL` it is that chain, with
 * addresses from `DEPLOYMENTS_FILE`. The devnet code (scripts/devnet/, with the seeder) is imported only when a
 * devnet is started, so a process given `RPC_URL` never loads it.
 */
export interface ChainSettings {
  readonly rpcUrl: Option.Option<string>
  readonly deploymentsFile: Option.Option<string>
  /** Devnet only. 0 picks a free port. */
  readonly devnetPort: number
  readonly dataDir: string
  /** Devnet only: ignore a saved state and deploy again. */
  readonly fresh?: boolean
  /** Devnet only: stop an anvil left running on DATA_DIR (default true; see layers/DataDirLock.ts). */
  readonly stopLeftover?: boolean
  /** RPC_TIMEOUT_MS: one RPC request's deadline (viem's 10 s when unset). */
  readonly rpcTimeoutMs?: number | undefined
}

export const chainSettingsConfig: Config.Config<ChainSettings> = Config.all({
  rpcUrl: Config.option(Config.String("RPC_URL")),
  deploymentsFile: Config.option(Config.String("DEPLOYMENTS_FILE")),
  devnetPort: Config.Int("DEVNET_PORT").pipe(Config.withDefault(8545)),
  rpcTimeoutMs: Config.Int("RPC_TIMEOUT_MS").pipe(Config.option, Config.map(Option.getOrUndefined)),
  dataDir: Config.String("DATA_DIR").pipe(
    Config.withDefault("./data"),
    Config.map((d) => NodePath.resolve(d))
  )
})

/**
 * The chain from RPC_URL, DEPLOYMENTS_FILE, DEVNET_PORT and DATA_DIR. Under the app's DATA_DIR lock, an anvil left
 * running is stopped only when it is a killed instance's.
 */
export const ChainLive: Layer.Layer<Chain, ChainError | Config.ConfigError> = Layer.effect(
  Chain,
  Effect.gen(function* () {
    const lock = yield* Effect.serviceOption(DataDirLock)
    const stopLeftover = Option.match(lock, { onNone: () => true, onSome: (l) => l.leftoversAreStale })
    return yield* makeChain({ ...(yield* chainSettingsConfig), stopLeftover })
  })
)

export const chainLayerWith = (settings: ChainSettings): Layer.Layer<Chain, ChainError> =>
  Layer.effect(Chain, makeChain(settings))

export const makeChain = Effect.fn("Chain.make")(function* (settings: ChainSettings) {
  return Option.isSome(settings.rpcUrl)
    ? yield* connectExternal(settings.rpcUrl.value, settings.deploymentsFile, settings.rpcTimeoutMs)
    : yield* runDevnet(settings)
})

/** Progress lines of the devnet go to the Effect logger of the fiber that builds the layer. */
const effectLogger = Effect.map(
  Effect.context<never>(),
  (context) => (line: string) => Effect.runForkWith(context)(Effect.logInfo(line))
)

const runDevnet = Effect.fnUntraced(function* (settings: ChainSettings) {
  const log = yield* effectLogger
  const { forgetPid, startDevnet } = yield* Effect.tryPromise({
    try: () => import("../scripts/devnet/devnet.ts"),
    catch: (cause) => new ChainError({ message: `devnet code did not load: ${errorMessage(cause)}`, cause })
  })
  const devnet = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        startDevnet({
          dataDir: settings.dataDir,
          port: settings.devnetPort,
          log,
          ...(settings.fresh === undefined ? {} : { fresh: settings.fresh }),
          ...(settings.stopLeftover === undefined ? {} : { stopLeftover: settings.stopLeftover })
        }),
      catch: (cause) =>
        new ChainError({
          message: /already in use/.test(errorMessage(cause))
            ? `devnet: port ${settings.devnetPort} is in use: stop what listens there or set DEVNET_PORT to a free port (0 picks one)`
            : `devnet did not start: ${errorMessage(cause)}`,
          cause
        })
    }),
    // The chain keeps what happened while the app ran (the indexed database does too): save it before stopping.
    (devnet) =>
      Effect.promise(() => dumpAnvilState(devnet.anvil.rpcUrl, devnet.files.stateFile)).pipe(
        Effect.timeout("5 seconds"),
        Effect.catchCause((cause) => Effect.logWarning("devnet: state not saved on shutdown", cause)),
        Effect.andThen(Effect.promise(() => devnet.anvil.stop())),
        Effect.andThen(Effect.sync(() => forgetPid(devnet.files.dir))),
        Effect.andThen(Effect.logInfo("devnet: state saved, anvil stopped"))
      )
  )
  const { rpcUrl, chainId } = devnet.anvil
  return Chain.of({
    chainId,
    rpcUrl,
    publicClient: makePublicClient(chainId, rpcUrl),
    deployments: devnet.deployments,
    mode: "devnet"
  })
})

const connectExternal = Effect.fnUntraced(function* (
  rpcUrl: string,
  deploymentsFile: Option.Option<string>,
  rpcTimeoutMs: number | undefined
) {
  if (Option.isNone(deploymentsFile)) {
    return yield* new ChainError({
      message:
        "RPC_URL is set but DEPLOYMENTS_FILE is not: set DEPLOYMENTS_FILE to the contract addresses (a deployments.json) of RPC_URL's chain"
    })
  }
  const file = deploymentsFile.value
  const deployments = yield* Effect.try({
    try: () => readDeploymentsSync(file),
    catch: (cause) => {
      const code = (cause as { cause?: NodeJS.ErrnoException }).cause?.code
      return new ChainError({
        message:
          code !== undefined
            ? `DEPLOYMENTS_FILE ${file} cannot be read (${code}): set DEPLOYMENTS_FILE to the deployments.json of RPC_URL's chain`
            : `DEPLOYMENTS_FILE ${file} is an invalid deployments file (${oneLine(errorMessage((cause as { cause?: unknown }).cause))}): ` +
              "fix it or set DEPLOYMENTS_FILE to another",
        cause
      })
    }
  })
  const publicClient = yield* Effect.acquireRelease(
    Effect.sync(() => makePublicClient(deployments.chainId, rpcUrl, rpcTimeoutMs)),
    closeWebSocket
  )
  const chainId = yield* Effect.tryPromise({
    try: () => publicClient.getChainId(),
    catch: (cause) =>
      new ChainError({
        message: `RPC_URL ${redactUrl(rpcUrl)} does not answer (${rpcFailure(cause)}): check RPC_URL`,
        cause
      })
  })
  if (chainId !== deployments.chainId) {
    return yield* new ChainError({
      message:
        `RPC_URL serves chain id ${chainId}, but DEPLOYMENTS_FILE ${file} is for chain id ${deployments.chainId}: ` +
        "point RPC_URL and DEPLOYMENTS_FILE at the same chain"
    })
  }
  yield* Effect.logInfo(`chain: connected to chain ${chainId} at ${redactUrl(rpcUrl)}`)
  return Chain.of({ chainId, rpcUrl, publicClient, deployments, mode: "external" })
})

const closeWebSocket = (client: PublicClient) =>
  Effect.promise(async () => {
    const transport = client.transport as { type?: string; getRpcClient?: () => Promise<{ close: () => void }> }
    if (transport.type === "webSocket" && transport.getRpcClient) (await transport.getRpcClient()).close()
  }).pipe(Effect.ignore)

const errorMessage = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))
const firstLine = (text: string) => text.split("\n")[0]!.trim()
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim()

/** viem's errors span lines (URL, request body, version): keep its short message and the underlying reason. */
const rpcFailure = (cause: unknown) => {
  const { shortMessage, details } = cause as { shortMessage?: string; details?: string }
  if (shortMessage === undefined) return firstLine(errorMessage(cause))
  return details === undefined || details === ""
    ? shortMessage
    : `${shortMessage.replace(/\.$/, "")}: ${firstLine(details)}`
}
