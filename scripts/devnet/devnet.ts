/**
 * The devnet life cycle: a cold start deploys the Uniswap stack (stage 1) and the launchpad (stage 2), seeds demo
 * activity (stage 3) and saves anvil's state next to deployments.json; a warm start loads that state instead
 * (tens of milliseconds). Plain async functions: the Chain layer, the vitest global setup, `npm run devnet` and the
 * benchmark all use them.
 */
import { createHash } from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { commandOf } from "../../src/platform/Processes.ts"
import { fileURLToPath } from "node:url"
import { getAddress } from "viem"
import {
  FireGraduatorBytecode,
  FireLaunchBytecode,
  FireRegistryBytecode,
  FireStreamBytecode,
  FireTokenBytecode,
  FuelVaultBytecode
} from "../../contracts/generated/index.ts"
import { type AnvilInstance, DEVNET_CHAIN_ID, dumpAnvilState, rpcRequest, startAnvil } from "../../layers/Anvil.ts"
import { readDeploymentsSync, writeDeploymentsSync } from "../../layers/Deployments.ts"
import type { Deployments } from "../../src/platform/Deployments.ts"
import { projectRoot } from "../../layers/ProjectPaths.ts"
import { artifacts, poolInitCodeHash } from "./artifacts.ts"
import { deployLaunchpad } from "./launchpad.ts"
import { seedDevnet } from "./seed.ts"
import { devnetAccounts, makeSender } from "./tx.ts"
import { deployUniswap } from "./uniswap.ts"

/** Bump to invalidate saved states on purpose (the sources below are hashed too). */
const SEED_VERSION = 1

/**
 * The deploy and seed code itself: the .ts sources at the project root (so `npm run dev` and the built `npm start`
 * agree), or this module's own folder when only the build is there.
 */
const sourceFiles = (): ReadonlyArray<string> => {
  const sources = NodePath.join(projectRoot, "scripts", "devnet")
  const dir = NodeFs.existsSync(NodePath.join(sources, "seed.ts"))
    ? sources
    : NodePath.dirname(fileURLToPath(import.meta.url))
  return NodeFs.readdirSync(dir)
    .filter((f) => /\.(ts|js)$/.test(f) && !/^main\.(ts|js)$/.test(f))
    .sort()
    .map((f) => NodePath.join(dir, f))
}

export interface DevnetFiles {
  readonly dir: string
  readonly stateFile: string
  readonly deploymentsFile: string
  /** Hash of what a cold start deploys (bytecodes, this folder's sources): another fingerprint means stale. */
  readonly fingerprintFile: string
}

export const devnetFiles = (dataDir: string): DevnetFiles => {
  const dir = NodePath.join(NodePath.resolve(dataDir), "devnet")
  return {
    dir,
    stateFile: NodePath.join(dir, "state.json"),
    deploymentsFile: NodePath.join(dir, "deployments.json"),
    fingerprintFile: NodePath.join(dir, "fingerprint")
  }
}

export const devnetFingerprint = (): string => {
  const hash = createHash("sha256").update(String(SEED_VERSION))
  for (const file of sourceFiles()) hash.update(NodeFs.readFileSync(file))
  return hash
    .update(poolInitCodeHash())
    .update(artifacts.universalRouter().bytecode)
    .update(artifacts.permit2Bytecode())
    .update(
      [
        FireTokenBytecode,
        FireRegistryBytecode,
        FireLaunchBytecode,
        FireGraduatorBytecode,
        FuelVaultBytecode,
        FireStreamBytecode
      ].join()
    )
    .digest("hex")
}

/** Deploys stages 1–2 and seeds (stage 3) on a fresh chain. `log` receives one line per step. */
export const deployAndSeed = async (
  rpcUrl: string,
  log: (line: string) => void,
  chainId = DEVNET_CHAIN_ID
): Promise<Deployments> => {
  const sender = makeSender(chainId, rpcUrl)
  const accounts = devnetAccounts()
  const deployer = accounts[0]!
  const startBlock = Number(await sender.publicClient.getBlockNumber()) + 1
  log("deploying Uniswap v3 (npm artifacts)")
  const uniswap = await deployUniswap(sender, deployer, log)
  log("deploying the launchpad (contracts/generated)")
  const launchpad = await deployLaunchpad(sender, deployer, uniswap, log)
  log("seeding demo activity")
  const seed = await seedDevnet(sender, accounts, { ...uniswap, ...launchpad }, log)
  const { poolInitCodeHash: _hash, ...uniswapAddresses } = uniswap
  return {
    chainId,
    startBlock,
    rpcUrl,
    contracts: { ...uniswapAddresses, stablecoin: seed.stablecoin },
    launchpad,
    launches: seed.launches.map((l) => ({ ...l, token: getAddress(l.token), pool: getAddress(l.pool) })),
    pools: seed.pools
  }
}

export interface DevnetOptions {
  readonly dataDir: string
  /** Default 8545; 0 picks a free port. */
  readonly port?: number
  readonly host?: string
  readonly log?: (line: string) => void
  /** Ignore a saved state and deploy again (the files are overwritten). */
  readonly fresh?: boolean
  /** Stop an anvil left running on `dataDir` by a killed parent (its recorded pid). Default true. */
  readonly stopLeftover?: boolean
}

export interface Devnet {
  readonly anvil: AnvilInstance
  readonly deployments: Deployments
  readonly files: DevnetFiles
  readonly start: "warm" | "cold"
  /** Milliseconds: spawn to ready (state loaded when warm), and deploy + seed + save when cold. */
  readonly timings: { readonly anvilReadyMs: number; readonly deployMs?: number; readonly totalMs: number }
}

/** Whether the saved state and deployments exist and belong to the current contracts. */
export const savedDevnetIsCurrent = (files: DevnetFiles): boolean => {
  if (![files.stateFile, files.deploymentsFile, files.fingerprintFile].every((f) => NodeFs.existsSync(f))) return false
  return NodeFs.readFileSync(files.fingerprintFile, "utf8").trim() === devnetFingerprint()
}

/**
 * Starts anvil for `dataDir`: warm from `devnet/state.json` when it is current, otherwise cold (deploy, seed,
 * save). The caller owns `devnet.anvil` and must `stop()` it.
 */
export const startDevnet = async (options: DevnetOptions): Promise<Devnet> => {
  const started = performance.now()
  const log = options.log ?? (() => {})
  const files = devnetFiles(options.dataDir)
  const port = options.port ?? 8545
  const base = { dataDir: files.dir, port, ...(options.host === undefined ? {} : { host: options.host }) }
  if (options.stopLeftover ?? true) stopOrphanedAnvil(files.dir, log)

  if (!options.fresh && savedDevnetIsCurrent(files)) {
    const deployments = readDeploymentsSync(files.deploymentsFile)
    const anvil = await startAnvil({ ...base, chainId: deployments.chainId, loadState: files.stateFile })
    recordPid(files.dir, anvil.pid)
    const code = await rpcRequest<string>(anvil.rpcUrl, "eth_getCode", [deployments.launchpad!.fireLaunch, "latest"])
    if (code !== "0x") {
      log(`devnet: warm start from ${files.stateFile} in ${anvil.readyMs.toFixed(0)} ms`)
      return {
        anvil,
        deployments: { ...deployments, rpcUrl: anvil.rpcUrl },
        files,
        start: "warm",
        timings: { anvilReadyMs: anvil.readyMs, totalMs: performance.now() - started }
      }
    }
    log("devnet: the saved state has no launchpad code; deploying again")
    await anvil.stop()
  } else if (NodeFs.existsSync(files.stateFile)) {
    log("devnet: the saved state is from other contracts (or --fresh); deploying again")
  }

  for (const f of [files.fingerprintFile, files.stateFile, files.deploymentsFile]) NodeFs.rmSync(f, { force: true })
  const anvil = await startAnvil(base)
  recordPid(files.dir, anvil.pid)
  try {
    log(`devnet: cold start, anvil ready in ${anvil.readyMs.toFixed(0)} ms at ${anvil.rpcUrl}`)
    const deployStarted = performance.now()
    const deployments = await deployAndSeed(anvil.rpcUrl, log, anvil.chainId)
    await dumpAnvilState(anvil.rpcUrl, files.stateFile)
    writeDeploymentsSync(files.deploymentsFile, deployments)
    NodeFs.writeFileSync(files.fingerprintFile, `${devnetFingerprint()}\n`)
    const deployMs = performance.now() - deployStarted
    log(`devnet: deployed and seeded in ${deployMs.toFixed(0)} ms; state saved to ${files.stateFile}`)
    return {
      anvil,
      deployments,
      files,
      start: "cold",
      timings: { anvilReadyMs: anvil.readyMs, deployMs, totalMs: performance.now() - started }
    }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

/**
 * The pid of the anvil serving `dir`, so that one left running by a parent that was SIGKILLed (no finalizer ran) is
 * stopped on the next start instead of holding the port.
 */
const pidFileOf = (dir: string) => NodePath.join(dir, "anvil.pid")
const recordPid = (dir: string, pid: number) => NodeFs.writeFileSync(pidFileOf(dir), `${pid}\n`)
export const forgetPid = (dir: string) => NodeFs.rmSync(pidFileOf(dir), { force: true })

const stopOrphanedAnvil = (dir: string, log: (line: string) => void) => {
  const file = pidFileOf(dir)
  if (!NodeFs.existsSync(file)) return
  const pid = Number(NodeFs.readFileSync(file, "utf8").trim())
  if (commandOf(pid) === "anvil") {
    log(`devnet: stopping an anvil (pid ${pid}) left running on ${dir}`)
    process.kill(pid, "SIGKILL")
  }
  NodeFs.rmSync(file, { force: true })
}
