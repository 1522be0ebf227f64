/**
 * `npm run devnet`: the local chain alone — anvil with Uniswap v3, the launchpad and demo activity (warm start from
 * `$DATA_DIR/devnet/state.json` when it exists). Prints the RPC URL, addresses and accounts; runs until Ctrl-C.
 * `--fresh` deploys again even if a saved state exists.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit, Layer, Option, Runtime } from "effect"
import { DEVNET_PRIVATE_KEYS } from "../../layers/Anvil.ts"
import { ChainLiveWith, chainSettingsConfig } from "../../layers/Chain.ts"
import { DataDirLock } from "../../layers/DataDirLock.ts"
import { Chain } from "../../src/platform/Chain.ts"
import { devnetAccounts } from "./tx.ts"

const fresh = process.argv.includes("--fresh")

const program = Effect.gen(function* () {
  const chain = yield* Chain
  const { deployments } = chain
  const lines = [
    "",
    `RPC URL   ${chain.rpcUrl}   (chain id ${chain.chainId}, start block ${deployments.startBlock})`,
    "",
    "contracts",
    ...Object.entries(deployments.contracts).map(([name, address]) => `  ${name.padEnd(20)} ${address}`),
    ...Object.entries(deployments.launchpad ?? {}).map(([name, address]) => `  ${name.padEnd(20)} ${address}`),
    "",
    "launches",
    ...deployments.launches.map(
      (l) =>
        `  ${l.symbol.padEnd(6)} ${l.token}  pool ${l.pool}  creator ${l.creator}` +
        `${l.canonical ? "" : "  non-canonical"}${l.graduated ? "  graduated" : ""}`
    ),
    "",
    "accounts (anvil's PUBLIC TEST KEYS, 10,000 ETH each on this devnet; never use them on a real chain)",
    ...devnetAccounts().map((a, i) => `  (${i}) ${a.address}  ${DEVNET_PRIVATE_KEYS[i]}`),
    "",
    "devnet ready (Ctrl-C to stop)"
  ]
  yield* (yield* DataDirLock).announce([`devnet ${chain.rpcUrl}`])
  console.log(lines.join("\n"))
  return yield* Effect.never
})

// Always the local devnet here, whatever RPC_URL says.
const ChainLive = Layer.unwrap(
  Effect.gen(function* () {
    const settings = yield* chainSettingsConfig
    // The app's DATA_DIR lock (layers/DataDirLock.ts): never stop the anvil of an app running on this directory.
    return Layer.unwrap(
      Effect.map(DataDirLock, (lock) =>
        ChainLiveWith({ ...settings, rpcUrl: Option.none(), fresh, stopLeftover: lock.leftoversAreStale })
      )
    ).pipe(Layer.provideMerge(DataDirLock.layerWith(settings.dataDir)))
  })
)

program.pipe(
  Effect.provide(ChainLive),
  NodeRuntime.runMain({
    teardown: (exit, onExit) =>
      Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
  })
)
