/**
 * The mainnet-shaped devnet scenario (tests and benchmarks; `npm start` keeps the small demo of seed.ts): a market that
 * exists *before* the launchpad — WETH, stablecoins with their real decimals (6-decimal USDC- and USDT-like,
 * 18-decimal DAI-like), WETH/stable pools at several fee tiers and very different depths (each with a full-range
 * position and concentrated ones spread over many tick-bitmap words), stable/stable pools, a dust pool at a wild price,
 * blue chips (an 8-decimal WBTC-like and an 18-decimal LINK-like token, each with a deep and a shallow pool against
 * WETH and USDC, the shallow one 4–5 % off), a fee-on-transfer token with a WETH pool, optionally `generatedPools`
 * token/WETH pools, and some trading — then the launchpad deployed (`startBlock` = its first transaction's block) and a
 * few launches bought. The deployments record tracks every pool among the base tokens and the other pools by address
 * (`indexing`), so an indexer must read them at the block before the start.
 */
import { type Address, getAddress, type LocalAccount, maxUint256, parseAbi, parseEther, parseEventLogs } from "viem"
import {
  DevnetTokenAbi,
  DevnetTokenBytecode,
  FeeOnTransferTokenAbi,
  FeeOnTransferTokenBytecode,
  FireLaunchAbi
} from "../../contracts/generated/index.ts"
import { rpcRequest } from "../../layers/Anvil.ts"
import type { Deployments, SeededLaunch, SeededPool } from "../../src/platform/Deployments.ts"
import { erc20Abi, factoryAbi, positionManagerAbi, swapRouter02Abi, weth9Abi } from "./abis.ts"
import { deployLaunchpad } from "./launchpad.ts"
import { farmPools } from "./pool-farm.ts"
import { sqrtPriceX96 } from "./seed.ts"
import { devnetAccounts, makeSender, type Sender } from "./tx.ts"
import { deployUniswap } from "./uniswap.ts"

const enableFeeAbi = parseAbi(["function enableFeeAmount(uint24 fee, int24 tickSpacing)"])
const SPACING: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 }
const MAX_TICK = 887_272

/** A pool of the pre-launchpad market, in factory token order. */
export interface MarketPool extends SeededPool {
  readonly label: string
  readonly tickSpacing: number
}

export interface MainnetShaped {
  readonly deployments: Deployments
  readonly tokens: { readonly weth: Address; readonly usdc: Address; readonly usdt: Address; readonly dai: Address }
  /** Every pool created before the start block (market, dust and generated). */
  readonly pools: ReadonlyArray<MarketPool>
  /** USDC/WETH 1 %: 0.001 WETH at 50 USDC per WETH. */
  readonly dustPool: Address
  /** USDC/WETH 0.05 %: the deepest WETH/stable pool (2,000 WETH at 3,000). */
  readonly deepestStablePool: Address
  /**
   * The blue chips' pools: WBTC's deepest is with WETH (its USDC pool shallow, 5 % above), LINK's with USDC (its WETH
   * pool shallow, 4 % above): each one's USD price must follow the deep one.
   */
  readonly blueChips: {
    readonly wbtc: { readonly token: Address; readonly deepPool: Address; readonly shallowPool: Address }
    readonly link: { readonly token: Address; readonly deepPool: Address; readonly shallowPool: Address }
  }
  /** A token that burns 2 % of every transfer but its holder's (the LP's), with a 0.3 % pool against WETH. */
  readonly feeOnTransfer: { readonly token: Address; readonly pool: Address }
  /** Every tick any position of the scenario used, per pool (lowercase; not the generated pools'): what a test checks. */
  readonly positionTicks: ReadonlyMap<string, ReadonlySet<number>>
}

export interface MainnetShapedOptions {
  /**
   * Token/WETH pools generated besides the market (each a new 18-decimal token, 0.3 %, four positions), made in
   * batches by scripts/devnet/pool-farm.ts: give anvil a high `--gas-limit` for large batches. Default 0.
   */
  readonly generatedPools?: number
  readonly log?: (line: string) => void
}

/** Deploys the scenario on a fresh anvil (accounts: anvil's public test keys; index 0 provides the liquidity). */
export const deployMainnetShaped = async (
  rpcUrl: string,
  chainId: number,
  options: MainnetShapedOptions = {}
): Promise<MainnetShaped> => {
  const log = options.log ?? (() => {})
  const sender = makeSender(chainId, rpcUrl)
  const accounts = devnetAccounts()
  const lp = accounts[0]!
  // Enough ether for the deep pools and the DAI-like supply's counterpart.
  await rpcRequest(rpcUrl, "anvil_setBalance", [lp.address, `0x${parseEther("10000000").toString(16)}`])
  log("deploying Uniswap v3 (npm artifacts)")
  const uni = await deployUniswap(sender, lp, log)
  const { weth9: weth, positionManager, swapRouter02 } = uni
  const token = (name: string, symbol: string, decimals: number) =>
    sender.deploy(lp, { abi: DevnetTokenAbi, bytecode: DevnetTokenBytecode }, [
      name,
      symbol,
      decimals,
      10n ** BigInt(decimals + 12),
      lp.address
    ])
  // The 0.01 % tier, as governance enabled it on mainnet in 2021 (the factory's constructor enables the other three).
  await sender.write(lp, uni.factory, enableFeeAbi, "enableFeeAmount", [100, 1])
  const usdc = await token("USD Coin (devnet)", "USDC", 6)
  const usdt = await token("Tether USD (devnet)", "USDT", 6)
  const dai = await token("Dai Stablecoin (devnet)", "DAI", 18)
  await sender.write(lp, weth, weth9Abi, "deposit", [], parseEther("100000"))
  for (const t of [weth, usdc, usdt, dai]) {
    await sender.write(lp, t, erc20Abi, "approve", [positionManager, maxUint256])
    await sender.write(lp, t, erc20Abi, "approve", [swapRouter02, maxUint256])
  }
  const decimals = new Map<Address, number>([
    [weth, 18],
    [usdc, 6],
    [usdt, 6],
    [dai, 18]
  ])
  const positionTicks = new Map<string, Set<number>>()
  const pools: Array<MarketPool> = []
  const deadline = maxUint256

  /**
   * A pool of `base` (amount in whole units) against `quote` at `priceE4 / 10^4` quote per base: a full-range position
   * with 70 % of the amounts, and three concentrated ones (around the price, below it, above it) with 10 % each.
   */
  const market = async (
    label: string,
    base: Address,
    quote: Address,
    fee: number,
    baseUnits: number,
    priceE4: bigint,
    concentrated = true
  ) => {
    const baseRaw = (BigInt(Math.round(baseUnits * 1e6)) * 10n ** BigInt(decimals.get(base)!)) / 1_000_000n
    const quoteRaw = (baseRaw * priceE4 * 10n ** BigInt(decimals.get(quote)!)) / 10n ** BigInt(decimals.get(base)! + 4)
    const [token0, token1] = base.toLowerCase() < quote.toLowerCase() ? [base, quote] : [quote, base]
    const [amount0, amount1] = token0 === base ? [baseRaw, quoteRaw] : [quoteRaw, baseRaw]
    const sqrt = sqrtPriceX96(amount1, amount0)
    await sender.write(lp, positionManager, positionManagerAbi, "createAndInitializePoolIfNecessary", [
      token0,
      token1,
      fee,
      sqrt
    ])
    const address = getAddress(
      await sender.publicClient.readContract({
        address: uni.factory,
        abi: factoryAbi,
        functionName: "getPool",
        args: [token0, token1, fee]
      })
    )
    const s = SPACING[fee]!
    const tick = Math.floor((2 * Math.log(Number(sqrt) / 2 ** 96)) / Math.log(1.0001))
    const at = Math.floor(tick / s) * s
    const edge = Math.floor(MAX_TICK / s) * s
    const ranges: ReadonlyArray<readonly [number, number, bigint]> = concentrated
      ? [
          [-edge, edge, 70n],
          [at - 10 * s, at + 10 * s, 10n],
          [Math.max(-edge, at - 600 * s), at - 5 * s, 10n],
          [at + 3 * s, Math.min(edge, at + 900 * s), 10n]
        ]
      : [[-edge, edge, 70n]]
    const ticks = new Set<number>()
    for (const [tickLower, tickUpper, share] of ranges) {
      await sender.write(lp, positionManager, positionManagerAbi, "mint", [
        {
          token0,
          token1,
          fee,
          tickLower,
          tickUpper,
          amount0Desired: (amount0 * share) / 100n,
          amount1Desired: (amount1 * share) / 100n,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: lp.address,
          deadline
        }
      ])
      ticks.add(tickLower).add(tickUpper)
    }
    positionTicks.set(address.toLowerCase(), ticks)
    pools.push({ label, address, token0, token1, fee, tickSpacing: s })
    log(`  ${label.padEnd(20)} ${address}`)
    return address
  }
  const swap = (tokenIn: Address, tokenOut: Address, fee: number, amountIn: bigint) =>
    sender.write(lp, swapRouter02, swapRouter02Abi, "exactInputSingle", [
      { tokenIn, tokenOut, fee, recipient: lp.address, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }
    ])

  log("the market before the launchpad")
  const deepestStablePool = await market("USDC/WETH 0.05 %", weth, usdc, 500, 2000, 3000_0000n)
  await market("USDC/WETH 0.3 %", weth, usdc, 3000, 300, 3003_0000n)
  await market("USDT/WETH 0.05 %", weth, usdt, 500, 150, 2997_0000n)
  await market("USDT/WETH 0.3 %", weth, usdt, 3000, 20, 3010_0000n)
  await market("DAI/WETH 0.3 %", weth, dai, 3000, 100, 2995_0000n)
  await market("DAI/WETH 0.01 %", weth, dai, 100, 10, 3001_0000n)
  await market("USDC/USDT 0.01 %", usdc, usdt, 100, 1_000_000, 1_0000n)
  await market("DAI/USDC 0.05 %", dai, usdc, 500, 500_000, 1_0005n)
  const dustPool = await market("USDC/WETH 1 % (dust)", weth, usdc, 10000, 0.001, 50_0000n)
  // Some trading before the start block, both ways.
  await swap(usdc, weth, 500, 150_000n * 10n ** 6n)
  await swap(weth, usdt, 500, parseEther("3"))
  await swap(dai, weth, 3000, parseEther("20000"))
  await swap(weth, usdc, 3000, parseEther("5"))
  await swap(usdt, usdc, 100, 50_000n * 10n ** 6n)

  // Blue chips and a fee-on-transfer token: full-range positions only (two transactions a pool).
  const listed = async (t: Address, d: number) => {
    decimals.set(t, d)
    await sender.write(lp, t, erc20Abi, "approve", [positionManager, maxUint256])
    await sender.write(lp, t, erc20Abi, "approve", [swapRouter02, maxUint256])
    return t
  }
  const wbtc = await listed(await token("Wrapped BTC (devnet)", "WBTC", 8), 8)
  const link = await listed(await token("ChainLink Token (devnet)", "LINK", 18), 18)
  const blueChips = {
    wbtc: {
      token: wbtc,
      deepPool: await market("WBTC/WETH 0.3 %", wbtc, weth, 3000, 100, 20_0000n, false),
      shallowPool: await market("WBTC/USDC 0.3 %", wbtc, usdc, 3000, 1, 63_000_0000n, false)
    },
    link: {
      token: link,
      deepPool: await market("LINK/USDC 0.3 %", link, usdc, 3000, 400_000, 15_0000n, false),
      shallowPool: await market("LINK/WETH 0.3 %", link, weth, 3000, 1000, 52n, false)
    }
  }
  const taxed = await sender.deploy(lp, { abi: FeeOnTransferTokenAbi, bytecode: FeeOnTransferTokenBytecode }, [
    "Taxed (devnet)",
    "TAX",
    200n,
    parseEther("1000000000"),
    lp.address
  ])
  await listed(taxed, 18)
  const feeOnTransfer = {
    token: taxed,
    pool: await market("TAX/WETH 0.3 %", taxed, weth, 3000, 100_000, 10n, false)
  }

  if ((options.generatedPools ?? 0) > 0) {
    log(`${options.generatedPools} generated pools`)
    pools.push(...(await farmPools(sender, lp, uni, options.generatedPools ?? 0, log)))
  }

  const startBlock = Number(await sender.publicClient.getBlockNumber()) + 1
  log(`deploying the launchpad from block ${startBlock}`)
  const launchpad = await deployLaunchpad(sender, lp, uni, log)
  const launches = await launchAndBuy(sender, accounts, launchpad.fireLaunch, swapRouter02, weth)
  const { poolInitCodeHash: _hash, ...uniswapAddresses } = uni
  const baseTokens = new Set([weth, usdc, usdt, dai].map((t) => t.toLowerCase()))
  const amongBaseTokens = (p: MarketPool) =>
    baseTokens.has(p.token0.toLowerCase()) && baseTokens.has(p.token1.toLowerCase())
  const deployments: Deployments = {
    chainId,
    startBlock,
    rpcUrl,
    contracts: { ...uniswapAddresses, stablecoin: usdc },
    launchpad: { ...launchpad, deployedAtBlock: startBlock },
    stablecoins: [
      { symbol: "USDT", address: usdt },
      { symbol: "DAI", address: dai }
    ],
    indexing: {
      poolsAmongBaseTokens: true,
      pools: pools.filter((p) => !amongBaseTokens(p)).map((p) => p.address)
    },
    launches,
    pools: pools.map(({ address, token0, token1, fee }) => ({ address, token0, token1, fee }))
  }
  return {
    deployments,
    tokens: { weth, usdc, usdt, dai },
    pools,
    dustPool,
    deepestStablePool,
    blueChips,
    feeOnTransfer,
    positionTicks
  }
}

/** Three canonical launches, each bought with ETH through SwapRouter02. */
const launchAndBuy = async (
  sender: Sender,
  accounts: ReadonlyArray<LocalAccount>,
  fireLaunch: Address,
  swapRouter02: Address,
  weth: Address
): Promise<Array<SeededLaunch>> => {
  const launches: Array<SeededLaunch> = []
  for (const [i, name, symbol] of [
    [1, "Ember", "EMBR"],
    [2, "Blaze", "BLZE"],
    [3, "Cinder", "CNDR"]
  ] as const) {
    const creator = accounts[i]!
    const receipt = await sender.write(creator, fireLaunch, FireLaunchAbi, "ignite", [name, symbol])
    const [event] = parseEventLogs({ abi: FireLaunchAbi, logs: receipt.logs, eventName: "Ignited" })
    if (event === undefined) throw new Error(`no Ignited event for ${symbol}`)
    const { token, pool, fee, canonical } = event.args
    const buyer = accounts[4 + i]!
    const amountIn = parseEther("0.5") * BigInt(i)
    await sender.write(
      buyer,
      swapRouter02,
      swapRouter02Abi,
      "exactInputSingle",
      [
        {
          tokenIn: weth,
          tokenOut: token,
          fee,
          recipient: buyer.address,
          amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n
        }
      ],
      amountIn
    )
    launches.push({
      token: getAddress(token),
      pool: getAddress(pool),
      creator: creator.address,
      name,
      symbol,
      canonical,
      fee,
      graduated: false,
      blockNumber: Number(receipt.blockNumber)
    })
  }
  return launches
}
