/**
 * Small, self-contained helpers for the contract tests: a real anvil child process, viem clients, sequential
 * transactions with polled receipts and padded gas, and deployment of the Uniswap v3 pieces from npm artifacts.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type EncodeFunctionDataParameters,
  type Hash,
  type Hex,
  type PublicClient,
  type TestClient,
  type TransactionReceipt,
  type WalletClient,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  http,
  keccak256,
  parseAbi,
  zeroAddress
} from "viem"

import {
  FireGraduatorAbi,
  FireGraduatorBytecode,
  FireLaunchAbi,
  FireLaunchBytecode,
  FireRegistryAbi,
  FireRegistryBytecode,
  FireStreamAbi,
  FireStreamBytecode,
  FuelVaultAbi,
  FuelVaultBytecode
} from "../../contracts/generated/index.ts"

const require = createRequire(import.meta.url)

// ---------------------------------------------------------------------------------------------------------- anvil

export interface Anvil {
  readonly rpcUrl: string
  readonly stop: () => Promise<void>
}

/** Starts anvil on a free port (HOME in a temporary directory, no persisted states); resolves once it listens. */
export const startAnvil = async (chainId = 31337): Promise<Anvil> => {
  const bin = require.resolve("@foundry-rs/anvil-linux-amd64/bin/anvil")
  const home = mkdtempSync(join(tmpdir(), "fire-anvil-"))
  const child = spawn(
    bin,
    ["--port", "0", "--chain-id", String(chainId), "--max-persisted-states", "0", "--accounts", "10"],
    { env: { ...process.env, HOME: home }, stdio: ["ignore", "pipe", "pipe"] }
  )
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const port = await new Promise<number>((resolve, reject) => {
    let out = ""
    const timer = setTimeout(() => reject(new Error(`anvil did not start:\n${out}`)), 15_000)
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const m = /Listening on [\d.]+:(\d+)/.exec(out)
      if (m?.[1] !== undefined) {
        clearTimeout(timer)
        child.stdout.off("data", onData)
        child.stdout.resume() // keep draining so anvil never blocks on a full pipe
        resolve(Number(m[1]))
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", (c: Buffer) => (out += c.toString()))
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`anvil exited with ${code}:\n${out}`))
    })
  })
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM")
        await exited
      }
      rmSync(home, { recursive: true, force: true })
    }
  }
}

// ---------------------------------------------------------------------------------------------------------- clients

export interface Chain {
  readonly public: PublicClient
  readonly wallet: WalletClient
  readonly test: TestClient<"anvil">
  readonly accounts: ReadonlyArray<Address>
}

export const connect = async (rpcUrl: string, chainId = 31337): Promise<Chain> => {
  const chain = defineChain({
    id: chainId,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } }
  })
  const transport = http(rpcUrl, { retryCount: 0 })
  const publicClient = createPublicClient({ chain, transport }) as PublicClient
  const wallet = createWalletClient({ chain, transport })
  const test = createTestClient({ chain, transport, mode: "anvil" })
  const accounts = await wallet.getAddresses()
  return { public: publicClient, wallet, test, accounts }
}

// ---------------------------------------------------------------------------------------------------------- sending

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls eth_getTransactionReceipt (viem's waitForTransactionReceipt can hang against automine). */
export const receiptOf = async (chain: Chain, hash: Hash, timeoutMs = 30_000): Promise<TransactionReceipt> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const receipt = await chain.public.getTransactionReceipt({ hash }).catch(() => undefined)
    if (receipt !== undefined) return receipt
    if (Date.now() > deadline) throw new Error(`no receipt for ${hash}`)
    await sleep(5)
  }
}

/** Sends one transaction (gas estimate + 30 %), waits for its receipt and requires success. */
export const sendTx = async (
  chain: Chain,
  tx: { from: Address; to?: Address; data: Hex; value?: bigint }
): Promise<TransactionReceipt> => {
  const base = { account: tx.from, data: tx.data, value: tx.value ?? 0n }
  const gas = await chain.public.estimateGas(tx.to === undefined ? base : { ...base, to: tx.to })
  const hash = await chain.wallet.sendTransaction({
    ...base,
    ...(tx.to === undefined ? {} : { to: tx.to }),
    gas: (gas * 13n) / 10n,
    chain: chain.wallet.chain ?? null
  })
  const receipt = await receiptOf(chain, hash)
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`)
  return receipt
}

type WriteName<abi extends Abi> = ContractFunctionName<abi, "nonpayable" | "payable">

/**
 * Calls a state-changing contract function: first simulated (so a revert surfaces as viem's decoded
 * ContractFunctionRevertedError), then sent with padded gas. Returns the receipt.
 */
export const write = async <const abi extends Abi, name extends WriteName<abi>>(
  chain: Chain,
  from: Address,
  address: Address,
  abi: abi,
  functionName: name,
  args: ContractFunctionArgs<abi, "nonpayable" | "payable", name>,
  value?: bigint
): Promise<TransactionReceipt> => {
  const params = { abi, functionName, args } as unknown as EncodeFunctionDataParameters
  await chain.public.simulateContract({
    ...(params as object),
    address,
    account: from,
    ...(value === undefined ? {} : { value })
  } as Parameters<PublicClient["simulateContract"]>[0])
  return sendTx(chain, {
    from,
    to: address,
    data: encodeFunctionData(params),
    ...(value === undefined ? {} : { value })
  })
}

export const deploy = async (
  chain: Chain,
  from: Address,
  artifact: { abi: Abi; bytecode: Hex },
  args: ReadonlyArray<unknown> = []
): Promise<Address> => {
  const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args: args as Array<unknown> })
  const receipt = await sendTx(chain, { from, data })
  if (receipt.contractAddress == null) throw new Error("deployment without contract address")
  return getAddress(receipt.contractAddress)
}

/** The decoded custom error name of a rejected contract call, or undefined if it was no decoded revert. */
export const revertNameOf = async (promise: Promise<unknown>): Promise<string | undefined> => {
  try {
    await promise
  } catch (error) {
    if (error instanceof BaseError) {
      const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
      if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName ?? reverted.reason
    }
    throw error
  }
  throw new Error("expected a revert, but the call succeeded")
}

// ---------------------------------------------------------------------------------------------------------- uniswap

export const artifact = (path: string): { abi: Abi; bytecode: Hex } => {
  const json = JSON.parse(readFileSync(require.resolve(path), "utf8")) as { abi: Abi; bytecode: Hex }
  return { abi: json.abi, bytecode: json.bytecode }
}

export const uniswapArtifacts = {
  weth9: () => artifact("canonical-weth/build/contracts/WETH9.json"),
  factory: () => artifact("@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json"),
  pool: () => artifact("@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json"),
  positionManager: () =>
    artifact(
      "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json"
    ),
  swapRouter02: () => artifact("@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json"),
  quoterV2: () => artifact("@uniswap/swap-router-contracts/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json")
}

/** keccak256 of the UniswapV3Pool creation code from @uniswap/v3-core (the pool init code hash). */
export const poolInitCodeHash = (): Hex => keccak256(uniswapArtifacts.pool().bytecode)

export interface Uniswap {
  readonly weth: Address
  readonly factory: Address
  readonly positionManager: Address
  readonly swapRouter02: Address
  readonly quoterV2: Address
}

/** WETH9, UniswapV3Factory, NonfungiblePositionManager (no token descriptor), SwapRouter02 and QuoterV2. */
export const deployUniswap = async (chain: Chain, from: Address): Promise<Uniswap> => {
  const weth = await deploy(chain, from, uniswapArtifacts.weth9())
  const factory = await deploy(chain, from, uniswapArtifacts.factory())
  const positionManager = await deploy(chain, from, uniswapArtifacts.positionManager(), [factory, weth, zeroAddress])
  const swapRouter02 = await deploy(chain, from, uniswapArtifacts.swapRouter02(), [
    zeroAddress,
    factory,
    positionManager,
    weth
  ])
  const quoterV2 = await deploy(chain, from, uniswapArtifacts.quoterV2(), [factory, weth])
  return { weth, factory, positionManager, swapRouter02, quoterV2 }
}

/** Typed minimal ABIs of the Uniswap functions the tests call. */
export const abis = {
  erc20: parseAbi([
    "function balanceOf(address) view returns (uint256)",
    "function approve(address spender, uint256 amount) returns (bool)",
    "function totalSupply() view returns (uint256)",
    "function name() view returns (string)",
    "function symbol() view returns (string)",
    "function decimals() view returns (uint8)"
  ]),
  weth: parseAbi([
    "function deposit() payable",
    "function balanceOf(address) view returns (uint256)",
    "function approve(address spender, uint256 amount) returns (bool)"
  ]),
  factory: parseAbi(["function getPool(address, address, uint24) view returns (address)"]),
  pool: parseAbi([
    "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
    "function liquidity() view returns (uint128)",
    "function fee() view returns (uint24)",
    "function token0() view returns (address)",
    "function token1() view returns (address)"
  ]),
  positionManager: parseAbi([
    "function ownerOf(uint256 tokenId) view returns (address)",
    "function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)",
    "struct CollectParams { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }",
    "function collect(CollectParams params) payable returns (uint256 amount0, uint256 amount1)"
  ]),
  swapRouter02: parseAbi([
    "struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }",
    "function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)"
  ]),
  quoterV2: parseAbi([
    "struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }",
    "function quoteExactInputSingle(QuoteExactInputSingleParams params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)"
  ])
} as const

// ---------------------------------------------------------------------------------------------------------- launchpad

export interface Launchpad {
  readonly registry: Address
  readonly launch: Address
  readonly graduator: Address
  readonly fuelVault: Address
  readonly stream: Address
}

/** Deploys the registry (governance = `governance`), the four launchpad contracts, and wires them in the registry. */
export const deployLaunchpad = async (chain: Chain, governance: Address, uniswap: Uniswap): Promise<Launchpad> => {
  const registry = await deploy(chain, governance, { abi: FireRegistryAbi, bytecode: FireRegistryBytecode }, [
    governance
  ])
  const launch = await deploy(chain, governance, { abi: FireLaunchAbi, bytecode: FireLaunchBytecode }, [
    registry,
    uniswap.factory,
    uniswap.positionManager,
    uniswap.weth
  ])
  const graduator = await deploy(chain, governance, { abi: FireGraduatorAbi, bytecode: FireGraduatorBytecode }, [
    registry
  ])
  const fuelVault = await deploy(chain, governance, { abi: FuelVaultAbi, bytecode: FuelVaultBytecode }, [registry])
  const stream = await deploy(chain, governance, { abi: FireStreamAbi, bytecode: FireStreamBytecode }, [registry])
  await write(chain, governance, registry, FireRegistryAbi, "setContracts", [launch, graduator, fuelVault, stream])
  return { registry, launch, graduator, fuelVault, stream }
}
