/**
 * Stage 3 of the devnet: demo activity from anvil's funded accounts, so that every backend feature has data —
 * a stablecoin/WETH pool (multi-hop routes), canonical launches and one non-canonical launch, buys and sells through
 * SwapRouter02 and UniversalRouter (Permit2), fuel tips and a withdrawal, and one token taken through graduation
 * (grace period elapsed) with its fees claimed.
 */
import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  type LocalAccount,
  maxUint160,
  maxUint256,
  parseAbiParameters,
  parseEther,
  parseEventLogs
} from "viem"
import {
  FireGraduatorAbi,
  FireLaunchAbi,
  FireRegistryAbi,
  FireStreamAbi,
  FireTokenAbi,
  FireTokenBytecode,
  FuelVaultAbi
} from "../../contracts/generated/index.ts"
import { rpcRequest } from "../../layers/Anvil.ts"
import type { SeededLaunch, SeededPool } from "../../src/platform/Deployments.ts"
import {
  ADDRESS_THIS,
  erc20Abi,
  MSG_SENDER,
  permit2Abi,
  positionManagerAbi,
  swapRouter02Abi,
  universalRouterAbi,
  urCommands,
  weth9Abi
} from "./abis.ts"
import type { LaunchpadContracts } from "./launchpad.ts"
import type { Sender } from "./tx.ts"
import type { UniswapContracts } from "./uniswap.ts"

export interface SeedResult {
  readonly stablecoin: Address
  readonly launches: ReadonlyArray<SeededLaunch>
  readonly pools: ReadonlyArray<SeededPool>
}

/** The stablecoin pool: USDT/WETH, 0.05 %, full range around 3,000 USDT per WETH. */
export const STABLE_FEE = 500
const STABLE_PRICE = 3_000n

const sqrtBigInt = (n: bigint): bigint => {
  if (n < 2n) return n
  let x = n
  let y = (x + 1n) / 2n
  while (y < x) {
    x = y
    y = (x + n / x) / 2n
  }
  return x
}

/** sqrt(amount1 / amount0) * 2^96 for a pool price given as a ratio of raw amounts. */
export const sqrtPriceX96 = (amount1: bigint, amount0: bigint) => sqrtBigInt((amount1 << 192n) / amount0)

/** A Uniswap v3 path: token, fee, token, fee, token… */
export const encodePath = (tokens: ReadonlyArray<Address>, fees: ReadonlyArray<number>): Hex => {
  const types: Array<"address" | "uint24"> = []
  const values: Array<Address | number> = []
  tokens.forEach((token, i) => {
    types.push("address")
    values.push(token)
    if (i < fees.length) {
      types.push("uint24")
      values.push(fees[i]!)
    }
  })
  return encodePacked(types, values)
}

const sorted = (a: Address, b: Address): [Address, Address] => (a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a])

export const seedDevnet = async (
  sender: Sender,
  accounts: ReadonlyArray<LocalAccount>,
  contracts: UniswapContracts & LaunchpadContracts,
  log: (line: string) => void
): Promise<SeedResult> => {
  const [deployer, ember, blaze, cinder, offGrid, alice, bob, carol, dave, erin] = accounts as [
    LocalAccount,
    LocalAccount,
    LocalAccount,
    LocalAccount,
    LocalAccount,
    LocalAccount,
    LocalAccount,
    LocalAccount,
    LocalAccount,
    LocalAccount
  ]
  const { weth9, swapRouter02, universalRouter, permit2, positionManager } = contracts
  const { write } = sender
  const pools: Array<SeededPool> = []

  const blockTime = async () => (await sender.publicClient.getBlock()).timestamp
  const deadline = async () => (await blockTime()) + 3_600n

  // ------------------------------------------------------------------ stablecoin + its WETH pool
  const stablecoin = await sender.deploy(deployer, { abi: FireTokenAbi, bytecode: FireTokenBytecode }, [
    "Tether USD (devnet)",
    "USDT",
    parseEther("1000000000"),
    deployer.address
  ])
  log(`  USDT stablecoin                    ${stablecoin}`)
  {
    const wethIn = parseEther("300")
    const usdtIn = wethIn * STABLE_PRICE
    await write(deployer, weth9, weth9Abi, "deposit", [], wethIn)
    await write(deployer, weth9, weth9Abi, "approve", [positionManager, maxUint256])
    await write(deployer, stablecoin, erc20Abi, "approve", [positionManager, maxUint256])
    const [token0, token1] = sorted(stablecoin, weth9)
    const [amount0, amount1] = token0 === weth9 ? [wethIn, usdtIn] : [usdtIn, wethIn]
    await write(deployer, positionManager, positionManagerAbi, "createAndInitializePoolIfNecessary", [
      token0,
      token1,
      STABLE_FEE,
      sqrtPriceX96(amount1, amount0)
    ])
    await write(deployer, positionManager, positionManagerAbi, "mint", [
      {
        token0,
        token1,
        fee: STABLE_FEE,
        tickLower: -887_270,
        tickUpper: 887_270,
        amount0Desired: amount0,
        amount1Desired: amount1,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: deployer.address,
        deadline: await deadline()
      }
    ])
    const pool = await sender.publicClient.readContract({
      address: contracts.factory,
      abi: [
        {
          type: "function",
          name: "getPool",
          stateMutability: "view",
          inputs: [{ type: "address" }, { type: "address" }, { type: "uint24" }],
          outputs: [{ type: "address" }]
        }
      ] as const,
      functionName: "getPool",
      args: [token0, token1, STABLE_FEE]
    })
    pools.push({ address: pool, token0, token1, fee: STABLE_FEE })
    log(`  USDT/WETH 0.05 % pool              ${pool} (300 WETH + 900,000 USDT)`)
    for (const trader of [alice, bob, carol, dave, erin]) {
      await write(deployer, stablecoin, erc20Abi, "transfer", [trader.address, parseEther("100000")])
    }
  }

  // ------------------------------------------------------------------ governance: two fee recipients
  await write(deployer, contracts.fireRegistry, FireRegistryAbi, "setFeeRecipients", [
    [
      { account: deployer.address, bps: 7_000 },
      { account: dave.address, bps: 3_000 }
    ]
  ])

  // ------------------------------------------------------------------ launches
  const launchConfig = await sender.publicClient.readContract({
    address: contracts.fireRegistry,
    abi: FireRegistryAbi,
    functionName: "launchConfig"
  })
  const launches: Array<SeededLaunch> = []
  const ignited = async (
    creator: LocalAccount,
    name: string,
    symbol: string,
    custom?: { fee: number; tick: number }
  ) => {
    const receipt =
      custom === undefined
        ? await write(creator, contracts.fireLaunch, FireLaunchAbi, "ignite", [name, symbol])
        : await write(creator, contracts.fireLaunch, FireLaunchAbi, "igniteWithConfig", [
            name,
            symbol,
            custom.fee,
            // Just below the price of tickLower, so the position stays single-sided (float error is far below a tick).
            BigInt(Math.floor(Math.sqrt(1.0001 ** (custom.tick - 60)) * 2 ** 96)),
            custom.tick,
            887_220
          ])
    const [event] = parseEventLogs({ abi: FireLaunchAbi, logs: receipt.logs, eventName: "Ignited" })
    if (event === undefined) throw new Error(`no Ignited event for ${symbol}`)
    const { token, pool, fee, canonical } = event.args
    const [token0, token1] = sorted(token, weth9)
    pools.push({ address: pool, token0, token1, fee })
    const launch: SeededLaunch = {
      token,
      pool,
      creator: creator.address,
      name,
      symbol,
      canonical,
      fee,
      graduated: false,
      blockNumber: Number(receipt.blockNumber)
    }
    launches.push(launch)
    log(
      `  launch ${symbol.padEnd(5)} by ${creator.address.slice(0, 10)}… ${token}${canonical ? "" : " (non-canonical)"}`
    )
    return launch
  }
  const embr = await ignited(ember, "Ember", "EMBR")
  const blze = await ignited(blaze, "Blaze", "BLZE")
  const cndr = await ignited(cinder, "Cinder", "CNDR")
  const offg = await ignited(offGrid, "Off Grid", "OFFG", {
    fee: 3_000, // tick spacing 60: a range aligned to it, one spacing below the canonical one
    tick: Math.floor(launchConfig.tickLower / 60) * 60 - 60
  })
  const sprk = await ignited(blaze, "Spark", "SPRK")

  // ------------------------------------------------------------------ SwapRouter02
  const buyWithEth = (who: LocalAccount, launch: SeededLaunch, eth: string) =>
    write(
      who,
      swapRouter02,
      swapRouter02Abi,
      "exactInputSingle",
      [
        {
          tokenIn: weth9,
          tokenOut: launch.token,
          fee: launch.fee,
          recipient: who.address,
          amountIn: parseEther(eth),
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n
        }
      ],
      parseEther(eth)
    )
  const balanceOf = (token: Address, owner: Address) =>
    sender.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] })
  const approved = new Set<string>()
  const approveOnce = async (who: LocalAccount, token: Address, spender: Address) => {
    const key = `${who.address}:${token}:${spender}`
    if (approved.has(key)) return
    await write(who, token, erc20Abi, "approve", [spender, maxUint256])
    approved.add(key)
  }
  /** Sells `share` (percent) of the holder's balance for ETH: swap to the router, then unwrapWETH9, in one multicall. */
  const sellForEth = async (who: LocalAccount, launch: SeededLaunch, share: bigint) => {
    await approveOnce(who, launch.token, swapRouter02)
    const amountIn = ((await balanceOf(launch.token, who.address)) * share) / 100n
    await write(who, swapRouter02, swapRouter02Abi, "multicall", [
      await deadline(),
      [
        encodeFunctionData({
          abi: swapRouter02Abi,
          functionName: "exactInputSingle",
          args: [
            {
              tokenIn: launch.token,
              tokenOut: weth9,
              fee: launch.fee,
              recipient: ADDRESS_THIS,
              amountIn,
              amountOutMinimum: 0n,
              sqrtPriceLimitX96: 0n
            }
          ]
        }),
        encodeFunctionData({ abi: swapRouter02Abi, functionName: "unwrapWETH9", args: [0n, who.address] })
      ]
    ])
  }

  await buyWithEth(alice, embr, "0.30")
  await buyWithEth(bob, blze, "0.20")
  await buyWithEth(carol, cndr, "0.15")
  await buyWithEth(alice, blze, "0.05")
  await buyWithEth(erin, offg, "0.10")
  await sellForEth(alice, embr, 40n)
  await sellForEth(bob, blze, 25n)
  log("  SwapRouter02: 5 buys with ETH, 2 sells for ETH (multicall + unwrapWETH9)")

  // Multi-hop: USDT → WETH → BLZE
  await approveOnce(dave, stablecoin, swapRouter02)
  await write(dave, swapRouter02, swapRouter02Abi, "exactInput", [
    {
      path: encodePath([stablecoin, weth9, blze.token], [STABLE_FEE, blze.fee]),
      recipient: dave.address,
      amountIn: parseEther("600"),
      amountOutMinimum: 0n
    }
  ])
  log("  SwapRouter02: multi-hop USDT → WETH → BLZE")

  // ------------------------------------------------------------------ UniversalRouter (+ Permit2)
  const v3In = (recipient: Address, amountIn: bigint, path: Hex, payerIsUser: boolean) =>
    encodeAbiParameters(parseAbiParameters("address, uint256, uint256, bytes, bool"), [
      recipient,
      amountIn,
      0n,
      path,
      payerIsUser
    ])
  const recipientAmount = (recipient: Address, amount: bigint) =>
    encodeAbiParameters(parseAbiParameters("address, uint256"), [recipient, amount])
  const commands = (...codes: ReadonlyArray<number>): Hex =>
    `0x${codes.map((c) => c.toString(16).padStart(2, "0")).join("")}`
  const permit2Approve = async (who: LocalAccount, token: Address) => {
    await approveOnce(who, token, permit2)
    await write(who, permit2, permit2Abi, "approve", [
      token,
      universalRouter,
      maxUint160,
      Number(await blockTime()) + 30 * 86_400
    ])
  }
  const urBuyWithEth = async (who: LocalAccount, launch: SeededLaunch, eth: string) => {
    const amountIn = parseEther(eth)
    await write(
      who,
      universalRouter,
      universalRouterAbi,
      "execute",
      [
        commands(urCommands.WRAP_ETH, urCommands.V3_SWAP_EXACT_IN),
        [
          recipientAmount(ADDRESS_THIS, amountIn),
          v3In(MSG_SENDER, amountIn, encodePath([weth9, launch.token], [launch.fee]), false)
        ],
        await deadline()
      ],
      amountIn
    )
  }
  const urSellForEth = async (who: LocalAccount, launch: SeededLaunch, share: bigint) => {
    const amountIn = ((await balanceOf(launch.token, who.address)) * share) / 100n
    await write(who, universalRouter, universalRouterAbi, "execute", [
      commands(urCommands.V3_SWAP_EXACT_IN, urCommands.UNWRAP_WETH),
      [
        v3In(ADDRESS_THIS, amountIn, encodePath([launch.token, weth9], [launch.fee]), true),
        recipientAmount(MSG_SENDER, 0n)
      ],
      await deadline()
    ])
  }
  await urBuyWithEth(erin, cndr, "0.12")
  await urBuyWithEth(carol, embr, "0.08")
  await permit2Approve(erin, cndr.token)
  await urSellForEth(erin, cndr, 50n)
  await permit2Approve(dave, stablecoin)
  await write(dave, universalRouter, universalRouterAbi, "execute", [
    commands(urCommands.V3_SWAP_EXACT_IN),
    [v3In(MSG_SENDER, parseEther("450"), encodePath([stablecoin, weth9, embr.token], [STABLE_FEE, embr.fee]), true)],
    await deadline()
  ])
  log("  UniversalRouter: 2 buys with ETH, 1 sell via Permit2, multi-hop USDT → WETH → EMBR via Permit2")

  // ------------------------------------------------------------------ fuel
  await write(alice, contracts.fuelVault, FuelVaultAbi, "give", [embr.token], parseEther("0.25"))
  await write(bob, contracts.fuelVault, FuelVaultAbi, "give", [embr.token], parseEther("0.10"))
  await write(carol, contracts.fuelVault, FuelVaultAbi, "give", [blze.token], parseEther("0.05"))
  await write(erin, contracts.fuelVault, FuelVaultAbi, "give", [cndr.token], parseEther("0.02"))
  await write(blaze, contracts.fuelVault, FuelVaultAbi, "withdraw", [blze.token])
  log("  fuel: 4 tips, 1 withdrawal by the creator")

  // ------------------------------------------------------------------ graduation of EMBR
  await buyWithEth(bob, embr, "1.20")
  const canGraduate = await sender.publicClient.readContract({
    address: contracts.fireGraduator,
    abi: FireGraduatorAbi,
    functionName: "canGraduate",
    args: [embr.token]
  })
  if (!canGraduate) throw new Error("EMBR does not meet the graduation condition after the seed buys")
  await write(carol, contracts.fireLaunch, FireLaunchAbi, "recordGraduationCondition", [embr.token])
  const grace = await sender.publicClient.readContract({
    address: contracts.fireRegistry,
    abi: FireRegistryAbi,
    functionName: "gracePeriodDuration"
  })
  await rpcRequest(sender.rpcUrl, "evm_increaseTime", [Number(grace) + 1])
  await rpcRequest(sender.rpcUrl, "evm_mine")
  await write(alice, contracts.fireGraduator, FireGraduatorAbi, "graduate", [embr.token])
  await buyWithEth(carol, embr, "0.40")
  await sellForEth(bob, embr, 30n)
  await write(erin, contracts.fireStream, FireStreamAbi, "claimFees", [embr.token])
  launches[launches.indexOf(embr)] = { ...embr, graduated: true }
  log(`  EMBR graduated after the ${grace} s grace period; fees claimed (70 % / 30 % to two recipients)`)

  // A last trade on the fresh launch, so it has a price move too.
  await buyWithEth(dave, sprk, "0.02")
  return { stablecoin, launches, pools }
}
