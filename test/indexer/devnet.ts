/**
 * A small launchpad history on a fresh anvil for the indexer tests, built with the contract-test helpers: Uniswap v3,
 * the launchpad, a stablecoin/WETH pool with an NFT position, canonical launches (and one that is not), swaps both
 * ways, token transfers, fuel, graduation and a fee claim, NFT liquidity changes and an NFT transfer.
 */
import { Effect } from "effect"
import { createRequire } from "node:module"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { type Abi, type Address, maxUint256, parseAbi, parseEther, zeroAddress } from "viem"
import {
  FireGraduatorAbi,
  FireLaunchAbi,
  FireStreamAbi,
  FireTokenAbi,
  FireTokenBytecode,
  FuelVaultAbi
} from "../../contracts/generated/index.ts"
import {
  type Anvil,
  type Chain,
  type Launchpad,
  type Uniswap,
  abis,
  connect,
  deploy,
  deployLaunchpad,
  deployUniswap,
  startAnvil,
  uniswapArtifacts,
  write
} from "../contracts/chain.ts"
import { dumpAnvilState, startAnvil as startAnvilFromState } from "../../layers/Anvil.ts"
import type { IndexedContracts } from "../../src/indexer/IndexerSource.ts"

export interface Devnet {
  readonly anvil: Anvil
  readonly chain: Chain
  readonly uni: Uniswap
  readonly pad: Launchpad
  readonly stable: Address
  readonly startBlock: bigint
  readonly accounts: {
    gov: Address
    creatorA: Address
    creatorB: Address
    buyer: Address
    giver: Address
    other: Address
  }
  readonly contracts: IndexedContracts
}

/** The position manager's calls the tests make. */
export const npm = parseAbi([
  "struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }",
  "function createAndInitializePoolIfNecessary(address token0, address token1, uint24 fee, uint160 sqrtPriceX96) payable returns (address pool)",
  "function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
  "struct DecreaseLiquidityParams { uint256 tokenId; uint128 liquidity; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }",
  "function decreaseLiquidity(DecreaseLiquidityParams params) payable returns (uint256 amount0, uint256 amount1)",
  "struct CollectParams { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }",
  "function collect(CollectParams params) payable returns (uint256 amount0, uint256 amount1)",
  "function transferFrom(address from, address to, uint256 tokenId)",
  "struct IncreaseLiquidityParams { uint256 tokenId; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }",
  "function increaseLiquidity(IncreaseLiquidityParams params) payable returns (uint128 liquidity, uint256 amount0, uint256 amount1)",
  "function burn(uint256 tokenId) payable"
])
const require = createRequire(import.meta.url)
const v3Sdk = require("@uniswap/v3-sdk") as {
  TickMath: { getSqrtRatioAtTick: (tick: number) => { toString: () => string } }
}
const sqrtAtTick = (tick: number): bigint => BigInt(v3Sdk.TickMath.getSqrtRatioAtTick(tick).toString())
export const erc20 = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"])

const sqrtBig = (n: bigint): bigint => {
  if (n < 2n) return n
  let x = BigInt(Math.floor(Math.sqrt(Number(n))))
  for (;;) {
    const y = (x + n / x) >> 1n
    if (y >= x - 1n && y <= x + 1n) return y * y <= n ? y : y - 1n
    x = y
  }
}
/** sqrtPriceX96 for `price` token1 per token0 (both 18 decimals). */
const sqrtPriceOf = (price: number) => sqrtBig((BigInt(Math.round(price * 1e12)) * (1n << 192n)) / 1_000_000_000_000n)

export const startDevnet = async (): Promise<Devnet> => {
  const anvil = await startAnvil()
  const chain = await connect(anvil.rpcUrl)
  const [gov, creatorA, creatorB, buyer, giver, other] = chain.accounts as [
    Address,
    Address,
    Address,
    Address,
    Address,
    Address
  ]
  const startBlock = (await chain.public.getBlockNumber()) + 1n
  const uni = await deployUniswap(chain, gov)
  const pad = await deployLaunchpad(chain, gov, uni)
  const stable = await deploy(chain, gov, { abi: FireTokenAbi as Abi, bytecode: FireTokenBytecode }, [
    "Tether",
    "USDT",
    parseEther("1000000000"),
    gov
  ])
  return {
    anvil,
    chain,
    uni,
    pad,
    stable,
    startBlock,
    accounts: { gov, creatorA, creatorB, buyer, giver, other },
    contracts: {
      factory: uni.factory,
      positionManager: uni.positionManager,
      weth: uni.weth,
      fireRegistry: pad.registry,
      fireLaunch: pad.launch,
      fireGraduator: pad.graduator,
      fuelVault: pad.fuelVault,
      fireStream: pad.stream,
      stablecoin: stable
    }
  }
}

const ignited = async (
  _d: Devnet,
  receipt: Promise<{ logs: ReadonlyArray<{ topics: ReadonlyArray<string>; data: string; address: string }> }>
) => {
  const { parseEventLogs } = await import("viem")
  const r = await receipt
  const [event] = parseEventLogs({ abi: FireLaunchAbi, logs: r.logs as never, eventName: "Ignited" })
  if (event === undefined) throw new Error("no Ignited")
  return event.args
}

export const swap = (d: Devnet, from: Address, tokenIn: Address, tokenOut: Address, fee: number, amountIn: bigint) =>
  write(d.chain, from, d.uni.swapRouter02, abis.swapRouter02, "exactInputSingle", [
    { tokenIn, tokenOut, fee, recipient: from, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }
  ])

export const ignite = (d: Devnet, creator: Address, name: string) =>
  ignited(d, write(d.chain, creator, d.pad.launch, FireLaunchAbi, "ignite", [name, name.toUpperCase()]))

/** The seeded history; returns the launched tokens and the stable pool's NFT id. */
export const seed = async (d: Devnet) => {
  const { gov, creatorA, creatorB, buyer, giver, other } = d.accounts
  const c = d.chain
  for (const who of [gov, buyer]) {
    await write(c, who, d.uni.weth, abis.weth, "deposit", [], parseEther("50"))
    await write(c, who, d.uni.weth, abis.weth, "approve", [d.uni.swapRouter02, maxUint256])
    await write(c, who, d.uni.weth, abis.weth, "approve", [d.uni.positionManager, maxUint256])
  }
  await write(c, gov, d.stable, abis.erc20, "approve", [d.uni.positionManager, maxUint256])
  await write(c, gov, d.stable, erc20, "transfer", [buyer, parseEther("100000")])
  await write(c, buyer, d.stable, abis.erc20, "approve", [d.uni.swapRouter02, maxUint256])

  // stablecoin/WETH at 3,000 USD per ETH, full-range NFT position of gov.
  const [token0, token1] = BigInt(d.stable) < BigInt(d.uni.weth) ? [d.stable, d.uni.weth] : [d.uni.weth, d.stable]
  const price = token0 === d.uni.weth ? 3000 : 1 / 3000
  await write(c, gov, d.uni.positionManager, npm, "createAndInitializePoolIfNecessary", [
    token0,
    token1,
    3000,
    sqrtPriceOf(price)
  ])
  const amountWeth = parseEther("10")
  const amountStable = parseEther("30000")
  await write(c, gov, d.uni.positionManager, npm, "mint", [
    {
      token0,
      token1,
      fee: 3000,
      tickLower: -887220,
      tickUpper: 887220,
      amount0Desired: token0 === d.uni.weth ? amountWeth : amountStable,
      amount1Desired: token1 === d.uni.weth ? amountWeth : amountStable,
      amount0Min: 0n,
      amount1Min: 0n,
      recipient: gov,
      deadline: maxUint256
    }
  ])
  const nftId = 1n

  const a = await ignite(d, creatorA, "Alpha")
  const b = await ignite(d, creatorB, "Beta")
  // Not canonical: fee 0.3 %, another range; the indexer must skip it.
  await write(c, other, d.pad.launch, FireLaunchAbi, "igniteWithConfig", [
    "Odd",
    "ODD",
    3000,
    sqrtAtTick(-120_060),
    -120_000,
    887_220
  ])

  for (const t of [a, b]) {
    await swap(d, buyer, d.uni.weth, t.token, t.fee, parseEther("0.4"))
    await swap(d, buyer, d.uni.weth, t.token, t.fee, parseEther("0.7"))
  }
  await write(c, buyer, a.token, abis.erc20, "approve", [d.uni.swapRouter02, maxUint256])
  const bal = await c.public.readContract({
    address: a.token,
    abi: abis.erc20,
    functionName: "balanceOf",
    args: [buyer]
  })
  await write(c, buyer, a.token, erc20, "transfer", [other, bal / 10n])
  await write(c, other, a.token, erc20, "transfer", [giver, bal / 100n])
  await swap(d, buyer, d.stable, d.uni.weth, 3000, parseEther("3000"))
  await swap(d, buyer, d.uni.weth, d.stable, 3000, parseEther("0.5"))

  await write(c, giver, d.pad.fuelVault, FuelVaultAbi, "give", [a.token], parseEther("0.25"))
  await write(c, other, d.pad.fuelVault, FuelVaultAbi, "give", [b.token], parseEther("0.1"))
  await write(c, giver, d.pad.fuelVault, FuelVaultAbi, "withdraw", [a.token])

  // Graduation of A (its pool holds ≥ 1 WETH), then a fee claim.
  await write(c, other, d.pad.launch, FireLaunchAbi, "recordGraduationCondition", [a.token])
  await c.test.increaseTime({ seconds: 3601 })
  await c.test.mine({ blocks: 1 })
  await write(c, other, d.pad.graduator, FireGraduatorAbi, "graduate", [a.token])
  await swap(d, buyer, a.token, d.uni.weth, a.fee, bal / 4n)
  await write(c, other, d.pad.stream, FireStreamAbi, "claimFees", [a.token])

  // NFT: take half out, collect, hand the NFT to another wallet.
  await write(c, gov, d.uni.positionManager, npm, "decreaseLiquidity", [
    { tokenId: nftId, liquidity: 10n ** 18n, amount0Min: 0n, amount1Min: 0n, deadline: maxUint256 }
  ])
  await write(c, gov, d.uni.positionManager, npm, "collect", [
    { tokenId: nftId, recipient: gov, amount0Max: 2n ** 127n, amount1Max: 2n ** 127n }
  ])
  await write(c, gov, d.uni.positionManager, npm, "transferFrom", [gov, other, nftId])
  return { a, b, nftId, zero: zeroAddress }
}

/**
 * The devnet stopped and started again from a dump of its state (`anvil --load-state`, as every warm start of the
 * embedded devnet does): same accounts, contracts and blocks, on a new port. `dir` holds the state file.
 *
 * `replaceGenesis` loads a block 0 whose hash is not block 1's parentHash. An embedded devnet was seen serving that
 * chain after a warm start (a rollback to block 0 then repeated forever); the state files of the anvil in this
 * repository keep block 0, so tests change its header (timestamp + 1): anvil hashes the loaded header, so block 0
 * gets another hash every time. (Dropping block 0 from the state instead lets anvil make a genesis of its own, whose
 * hash matched the old one in one CI run.)
 */
export const warmRestart = async (
  d: Devnet,
  dir: string,
  options: { readonly replaceGenesis?: boolean } = {}
): Promise<Devnet> => {
  const file = join(dir, "state.json")
  await dumpAnvilState(d.anvil.rpcUrl, file)
  await d.anvil.stop()
  if (options.replaceGenesis === true) {
    const state = JSON.parse(readFileSync(file, "utf8")) as {
      blocks: Array<{ header: { number: string; timestamp: string } }>
    }
    const genesis = state.blocks.find((b) => BigInt(b.header.number) === 0n)
    if (genesis === undefined) throw new Error("the dumped anvil state has no block 0")
    genesis.header.timestamp = `0x${(BigInt(genesis.header.timestamp) + 1n).toString(16)}`
    writeFileSync(file, JSON.stringify(state))
  }
  const anvil = await startAnvilFromState({ dataDir: dir, loadState: file })
  return { ...d, anvil, chain: await connect(anvil.rpcUrl) }
}

export type Seeded = Awaited<ReturnType<typeof seed>>

/**
 * `blocks` blocks of activity, one transaction each, varied by `salt` so that two branches differ: swaps on a launch
 * pool and on the stablecoin pool, token transfers, fuel, and (from 5 blocks) a new launch with its pool. `afterBlock` runs
 * between two blocks (to let a follower catch up).
 */
export const branch = async (
  d: Devnet,
  s: Seeded,
  blocks: number,
  salt: number,
  afterBlock: () => Promise<unknown> = async () => undefined
) => {
  const { buyer, other, giver, creatorA } = d.accounts
  for (let i = 0; i < blocks; i++) {
    if (i > 0) await afterBlock()
    const amount = parseEther("0.01") * BigInt(1 + ((i + salt) % 7))
    if (i === 2 && blocks >= 5) await ignite(d, creatorA, `Fork${salt}x${i}`)
    else if (i % 4 === 0) await swap(d, buyer, d.uni.weth, s.a.token, s.a.fee, amount)
    else if (i % 4 === 1) await write(d.chain, buyer, s.a.token, erc20, "transfer", [other, amount * 1000n])
    else if (i % 4 === 2) await swap(d, buyer, d.stable, d.uni.weth, 3000, amount * 3000n)
    else await write(d.chain, giver, d.pad.fuelVault, FuelVaultAbi, "give", [s.b.token], amount)
  }
}

export const headOf = (d: Devnet) => Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))

export const poolAbi = uniswapArtifacts.pool().abi

/** A seeded devnet for the scope of an Effect test: anvil stops when the scope closes. */
export const scopedSeededDevnet = Effect.gen(function* () {
  const d = yield* Effect.promise(() => startDevnet())
  yield* Effect.addFinalizer(() => Effect.promise(() => d.anvil.stop()))
  const seeded = yield* Effect.promise(() => seed(d))
  return { d, seeded }
})
