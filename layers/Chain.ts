import { redactUrl, redactUrlsIn } from "../src/platform/RedactUrl.ts"
import { Config, Effect, Layer, Option } from "effect"
import * as NodePath from "node:path"
import { Chain, ChainError } from "../src/platform/Chain.ts"
import { dumpAnvilState } from "./Anvil.ts"
import { DataDirLock } from "./DataDirLock.ts"
import { readDeploymentsSync } from "./Deployments.ts"
import { subscribeNewHeads } from "./NewHeadsSocket.ts"
import { closePublicClient, makePublicClient, parseRpcUrls, rpcEndpoints } from "./PublicClient.ts"

/**
 * The `Chain` service (src/platform/Chain.ts). Without `RPC_URL` it is a local anvil devnet owned by this layer
 * (warm start from `$DATA_DIR/devnet/state.json`, else deploy + seed + save); with `RPC_URL` it is that chain, with
 * addresses from `DEPLOYMENTS_FILE`. The devnet code (scripts/devnet/, with the seeder) is imported only when a
 * devnet is started, so a process given `RPC_URL` never loads it.
 */
export interface ChainSettings {
  /** RPC_URL: one URL or several separated by commas (http(s) or ws(s); see layers/PublicClient.ts). */
  readonly rpcUrl: Option.Option<string>
  /** RPC_WS_URL: the WebSocket new heads are subscribed on (default: RPC_URL's first ws(s) URL, if any). */
  readonly rpcWsUrl?: Option.Option<string> | undefined
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
  /** RPC_RANK_INTERVAL_MS: with several RPC URLs, how often each is pinged to rank them (default 10 s). */
  readonly rpcRankIntervalMs?: number | undefined
}

export const chainSettingsConfig: Config.Config<ChainSettings> = Config.all({
  rpcUrl: Config.option(Config.String("RPC_URL")),
  deploymentsFile: Config.option(Config.String("DEPLOYMENTS_FILE")),
  devnetPort: Config.Int("DEVNET_PORT").pipe(Config.withDefault(8545)),
  rpcWsUrl: Config.option(Config.String("RPC_WS_URL")),
  rpcTimeoutMs: Config.Int("RPC_TIMEOUT_MS").pipe(Config.option, Config.map(Option.getOrUndefined)),
  rpcRankIntervalMs: Config.Int("RPC_RANK_INTERVAL_MS").pipe(Config.option, Config.map(Option.getOrUndefined)),
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

export const ChainLiveWith = (settings: ChainSettings): Layer.Layer<Chain, ChainError> =>
  Layer.effect(Chain, makeChain(settings))

export const makeChain = Effect.fn("Chain.make")(function* (settings: ChainSettings) {
  return Option.isSome(settings.rpcUrl)
    ? yield* connectExternal(settings.rpcUrl.value, settings)
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

const connectExternal = Effect.fnUntraced(function* (rpcUrl: string, settings: ChainSettings) {
  const deploymentsFile = settings.deploymentsFile
  if (Option.isNone(deploymentsFile)) {
    return yield* new ChainError({
      message:
        "RPC_URL is set but DEPLOYMENTS_FILE is not: set DEPLOYMENTS_FILE to the contract addresses (a deployments.json) of RPC_URL's chain"
    })
  }
  const urls = parseRpcUrls(rpcUrl)
  const wsUrl = Option.getOrUndefined(settings.rpcWsUrl ?? Option.none())
  if (urls.length === 0) return yield* new ChainError({ message: "RPC_URL is empty: set it to the chain's RPC URL" })
  const isUrl = (url: string, schemes: RegExp) => schemes.test(url) && URL.canParse(url)
  for (const [i, url] of urls.entries()) {
    if (!isUrl(url, /^(https?|wss?):\/\/[^/]/i))
      return yield* new ChainError({
        message:
          `RPC_URL${urls.length > 1 ? ` entry ${i + 1}` : ""} (${redactUrl(url)}) is not an http(s):// or ws(s):// URL: ` +
          "fix RPC_URL (several URLs are separated by commas)"
      })
  }
  if (wsUrl !== undefined && !isUrl(wsUrl, /^wss?:\/\/[^/]/i))
    return yield* new ChainError({ message: `RPC_WS_URL (${redactUrl(wsUrl)}) is not a ws(s):// URL: fix RPC_WS_URL` })
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
  const endpoints = rpcEndpoints(urls, wsUrl)
  const clientOf = (list: ReadonlyArray<string>) =>
    Effect.acquireRelease(
      Effect.sync(() =>
        makePublicClient(deployments.chainId, list, {
          timeoutMs: settings.rpcTimeoutMs,
          rankIntervalMs: settings.rpcRankIntervalMs
        })
      ),
      (client) => Effect.promise(() => closePublicClient(client))
    )
  // Every request URL must serve the deployments' chain; one that does not answer now may later (a fallback).
  const answers = yield* Effect.forEach(
    endpoints.requests,
    (url) =>
      Effect.scoped(
        Effect.flatMap(clientOf([url]), (client) => Effect.tryPromise(() => client.getChainId()).pipe(Effect.result))
      ).pipe(Effect.map((answer) => ({ url, answer }))),
    { concurrency: "unbounded" }
  )
  const answered = answers.flatMap(({ url, answer }) =>
    answer._tag === "Success" ? [{ url, chainId: answer.success }] : []
  )
  if (answered.length === 0) {
    const first = answers[0]!.answer
    return yield* new ChainError({
      message: `RPC_URL ${urls.map(redactUrl).join(", ")} does not answer (${rpcFailure(first._tag === "Failure" ? first.failure : undefined)}): check RPC_URL`,
      cause: first._tag === "Failure" ? first.failure : undefined
    })
  }
  for (const { url, chainId } of answered) {
    if (chainId !== deployments.chainId) {
      return yield* new ChainError({
        message:
          `RPC_URL${urls.length > 1 ? ` entry ${redactUrl(url)}` : ""} serves chain id ${chainId}, but DEPLOYMENTS_FILE ${file} is for chain id ${deployments.chainId}: ` +
          "point RPC_URL and DEPLOYMENTS_FILE at the same chain"
      })
    }
  }
  for (const { url, answer } of answers) {
    if (answer._tag === "Failure")
      yield* Effect.logWarning(
        `chain: RPC_URL ${redactUrl(url)} does not answer now (${rpcFailure(answer.failure)}); kept as a fallback`
      )
  }
  const publicClient = yield* clientOf(endpoints.requests)
  const separate =
    endpoints.requests.length < 2
      ? undefined
      : yield* Effect.forEach(endpoints.requests, (url) =>
          Effect.map(clientOf([url]), (client) => ({ name: redactUrl(url), client }))
        )
  const heads = endpoints.heads === undefined ? undefined : yield* subscribeNewHeads(endpoints.heads)
  const chainId = deployments.chainId
  yield* Effect.logInfo(
    `chain: connected to chain ${chainId} at ${endpoints.requests.map(redactUrl).join(", ")}` +
      (endpoints.heads === undefined ? "" : `; new heads from ${redactUrl(endpoints.heads)}`)
  )
  return Chain.of({
    chainId,
    rpcUrl: endpoints.requests[0]!,
    rpcUrls: endpoints.requests,
    publicClient,
    endpoints: separate,
    heads,
    deployments,
    mode: "external"
  })
})

const errorMessage = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))
const firstLine = (text: string) => text.split("\n")[0]!.trim()
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim()

/** viem's errors span lines (URL, request body, version): keep its short message and the underlying reason. */
const rpcFailure = (cause: unknown) => {
  const { shortMessage, details } = (cause ?? {}) as { shortMessage?: string; details?: string }
  if (shortMessage === undefined) return redactUrlsIn(firstLine(errorMessage(cause)))
  return redactUrlsIn(
    details === undefined || details === "" ? shortMessage : `${shortMessage.replace(/\.$/, "")}: ${firstLine(details)}`
  )
}
