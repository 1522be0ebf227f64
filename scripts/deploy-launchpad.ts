/**
 * Deploys the launchpad (FireRegistry, FireLaunch, FireGraduator, FuelVault, FireStream from contracts/generated) on
 * any chain whose Uniswap v3 is in a deployments file, and writes the file with its `launchpad` part:
 *
 *   npm run deploy:launchpad -- --rpc-url URL --private-key 0x… [--deployments FILE] [--out FILE] [--replace]
 *
 * --deployments  the chain's file (Uniswap v3, WETH, stablecoin); default by the RPC's chain id:
 *                deployments/ethereum.json (1), deployments/base.json (8453)
 * --out          where to write; default the --deployments file when given, else data/deployments-<chainId>.json
 *                (the checked-in files are not overwritten unless named)
 * --replace      deploy again over a file that already has a launchpad (refused otherwise)
 *
 * The key's account becomes the registry's governance. `startBlock` becomes the block after the head seen before the
 * first transaction (no launchpad event can precede it), so the indexer starts at the launchpad. The RPC URL is not
 * written (it may carry a provider key).
 */
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { parseArgs } from "node:util"
import { type Address, createPublicClient, type Hex, http } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { readDeploymentsSync, writeDeploymentsSync } from "../layers/Deployments.ts"
import { projectRoot } from "../layers/ProjectPaths.ts"
import { deployLaunchpad } from "./devnet/launchpad.ts"
import { makeSender } from "./devnet/tx.ts"

const PUBLIC_FILES: Record<number, string> = { 1: "deployments/ethereum.json", 8453: "deployments/base.json" }

const fail = (message: string): never => {
  console.error(`deploy:launchpad: ${message}`)
  process.exit(1)
}

const { values } = parseArgs({
  options: {
    "rpc-url": { type: "string" },
    "private-key": { type: "string" },
    deployments: { type: "string" },
    out: { type: "string" },
    replace: { type: "boolean", default: false }
  }
})
const rpcUrl = values["rpc-url"] ?? fail("--rpc-url is required")
const key = values["private-key"] ?? fail("--private-key is required (0x + 64 hex digits)")
if (!/^0x[0-9a-fA-F]{64}$/.test(key)) fail("--private-key must be 0x + 64 hex digits")
const account = privateKeyToAccount(key as Hex)

const probe = createPublicClient({ transport: http(rpcUrl, { retryCount: 1 }) })
const chainId = await probe.getChainId().catch((e: unknown) => fail(`${rpcUrl} does not answer: ${String(e)}`))
const input =
  values.deployments ??
  PUBLIC_FILES[chainId] ??
  fail(`no deployments file for chain ${chainId}: pass --deployments (the file with its Uniswap v3 addresses)`)
const inputPath = NodePath.resolve(values.deployments === undefined ? projectRoot : ".", input)
const out = NodePath.resolve(
  values.out ?? (values.deployments === undefined ? NodePath.join("data", `deployments-${chainId}.json`) : input)
)
const deployments = readDeploymentsSync(inputPath)
if (deployments.chainId !== chainId) fail(`${input} is for chain ${deployments.chainId}, the RPC serves ${chainId}`)
if (deployments.launchpad !== undefined && !values.replace) {
  fail(
    `${input} already has a launchpad (FireLaunch ${deployments.launchpad.fireLaunch}); pass --replace to deploy again`
  )
}
const { factory, positionManager, weth9 } = deployments.contracts
for (const [name, address] of [
  ["factory", factory],
  ["positionManager", positionManager],
  ["weth9", weth9]
] as const) {
  const code = await probe.getCode({ address: address as Address })
  if (code === undefined || code === "0x") fail(`no contract at ${name} ${address} on chain ${chainId}: wrong file?`)
}
if ((await probe.getBalance({ address: account.address })) === 0n) fail(`${account.address} has no ETH for gas`)

const firstBlock = Number(await probe.getBlockNumber()) + 1
console.log(`deploying the launchpad on chain ${chainId} from ${account.address} (governance)`)
const launchpad = await deployLaunchpad(
  makeSender(chainId, rpcUrl),
  account,
  { factory, positionManager, weth9 },
  (line) => console.log(line)
).catch((e: unknown) => fail(`deployment failed: ${e instanceof Error ? e.message : String(e)}`))

const { rpcUrl: _notWritten, ...rest } = deployments
NodeFs.mkdirSync(NodePath.dirname(out), { recursive: true })
writeDeploymentsSync(out, { ...rest, startBlock: firstBlock, launchpad: { ...launchpad, deployedAtBlock: firstBlock } })
console.log(`wrote ${out} (startBlock ${firstBlock}): start the app with RPC_URL and DEPLOYMENTS_FILE=${out}`)
