/**
 * The launchpad contracts against a real anvil with the Uniswap v3 contracts deployed from their npm artifacts.
 * The file shares one chain, but each describe builds the launches it needs (FireGraduator and FireStream launch their
 * own tokens), so any single test runs alone with -t.
 */
import { createRequire } from "node:module"
import { type Address, type TransactionReceipt, getContractAddress, maxUint256, parseEther, parseEventLogs } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  FireGraduatorAbi,
  FireLaunchAbi,
  FireRegistryAbi,
  FireStreamAbi,
  FuelVaultAbi
} from "../../contracts/generated/index.ts"
import {
  type Anvil,
  type Chain,
  type Launchpad,
  type Uniswap,
  abis,
  connect,
  deployLaunchpad,
  deployUniswap,
  poolInitCodeHash,
  revertNameOf,
  startAnvil,
  write
} from "./chain.ts"

const require = createRequire(import.meta.url)
interface SdkToken {
  readonly address: string
}
const sdkCore = require("@uniswap/sdk-core") as {
  Token: new (chainId: number, address: string, decimals: number) => SdkToken
}
const v3Sdk = require("@uniswap/v3-sdk") as {
  computePoolAddress: (args: {
    factoryAddress: string
    tokenA: SdkToken
    tokenB: SdkToken
    fee: number
    initCodeHashManualOverride?: string
  }) => string
  TickMath: { getSqrtRatioAtTick: (tick: number) => { toString: () => string } }
}
const sqrtAtTick = (tick: number): bigint => BigInt(v3Sdk.TickMath.getSqrtRatioAtTick(tick).toString())
/** What FireLaunch does with a non-canonical token-as-token0 price when the token is token1: ceil(2^192 / price). */
const inverse = (sqrtPriceX96: bigint): bigint => ((1n << 192n) + sqrtPriceX96 - 1n) / sqrtPriceX96

const CHAIN_ID = 31337

let anvil: Anvil
let chain: Chain
let uni: Uniswap
let pad: Launchpad
let gov: Address, creatorA: Address, creatorB: Address, buyer: Address, giver: Address, other: Address
let r1: Address, r2: Address, r3: Address

interface Launched {
  readonly token: Address
  readonly creator: Address
  readonly pool: Address
  readonly fee: number
  readonly tickLower: number
  readonly tickUpper: number
  readonly sqrtPriceX96: bigint
  readonly canonical: boolean
  readonly positionId: bigint
  readonly receipt: TransactionReceipt
}
/** Canonical launches whose token sorts below WETH (token0) and above it (token1). */
let low: Launched
let high: Launched
const ignitions: Array<{ readonly predicted: Address; readonly creator: Address; readonly launched: Launched }> = []

const ignitedOf = (receipt: TransactionReceipt): Launched => {
  const [event] = parseEventLogs({ abi: FireLaunchAbi, logs: receipt.logs, eventName: "Ignited" })
  if (event === undefined) throw new Error("no Ignited event")
  return { ...event.args, receipt }
}

const nextTokenAddress = async (): Promise<Address> =>
  getContractAddress({
    from: pad.launch,
    nonce: BigInt(await chain.public.getTransactionCount({ address: pad.launch }))
  })

const balanceOf = (token: Address, account: Address) =>
  chain.public.readContract({ address: token, abi: abis.erc20, functionName: "balanceOf", args: [account] })

const below = (a: Address, b: Address) => BigInt(a) < BigInt(b)

/** The arguments of igniteWithConfig besides name and symbol (token-as-token0 view). */
interface LaunchParams {
  readonly fee: number
  readonly sqrtPriceX96: bigint
  readonly tickLower: number
  readonly tickUpper: number
}
/** A valid non-canonical launch config: fee 0.3 % (tick spacing 60), price one spacing below the range. */
const ODD: LaunchParams = { fee: 3000, tickLower: -120_000, tickUpper: 887_220, sqrtPriceX96: sqrtAtTick(-120_060) }

const igniteWithConfig = (from: Address, name: string, c: LaunchParams) =>
  write(chain, from, pad.launch, FireLaunchAbi, "igniteWithConfig", [
    name,
    name.toUpperCase(),
    c.fee,
    c.sqrtPriceX96,
    c.tickLower,
    c.tickUpper
  ])

/** Launches non-canonical filler tokens until the next launched token will be token0 (or token1) of its pool. */
const untilNextIsToken0 = async (token0: boolean): Promise<void> => {
  for (let i = 0; i < 16; i++) {
    if (below(await nextTokenAddress(), uni.weth) === token0) return
    await igniteWithConfig(other, `Filler ${i}`, ODD)
  }
  throw new Error(`no token${token0 ? 0 : 1} launch reached`)
}

const read = {
  launch: (
    functionName: "creatorOf" | "poolOf" | "positionIdOf" | "isCanonical" | "graduationConditionAt",
    token: Address
  ): Promise<unknown> =>
    chain.public.readContract({ address: pad.launch, abi: FireLaunchAbi, functionName, args: [token] } as const),
  canGraduate: (token: Address) =>
    chain.public.readContract({
      address: pad.graduator,
      abi: FireGraduatorAbi,
      functionName: "canGraduate",
      args: [token]
    }),
  isGraduated: (token: Address) =>
    chain.public.readContract({
      address: pad.graduator,
      abi: FireGraduatorAbi,
      functionName: "isGraduated",
      args: [token]
    })
}

const quoteAndBuy = async (launched: Launched, tokenIn: Address, tokenOut: Address, amountIn: bigint) => {
  const { result } = await chain.public.simulateContract({
    address: uni.quoterV2,
    abi: abis.quoterV2,
    functionName: "quoteExactInputSingle",
    args: [{ tokenIn, tokenOut, amountIn, fee: launched.fee, sqrtPriceLimitX96: 0n }]
  })
  const [quotedOut] = result
  const inBefore = await balanceOf(tokenIn, buyer)
  const outBefore = await balanceOf(tokenOut, buyer)
  await write(chain, buyer, uni.swapRouter02, abis.swapRouter02, "exactInputSingle", [
    {
      tokenIn,
      tokenOut,
      fee: launched.fee,
      recipient: buyer,
      amountIn,
      amountOutMinimum: quotedOut,
      sqrtPriceLimitX96: 0n
    }
  ])
  return {
    quotedOut,
    spent: inBefore - (await balanceOf(tokenIn, buyer)),
    received: (await balanceOf(tokenOut, buyer)) - outBefore
  }
}

const buy = (launched: Launched, wethIn: bigint) => quoteAndBuy(launched, uni.weth, launched.token, wethIn)
const sell = (launched: Launched, tokensIn: bigint) => quoteAndBuy(launched, launched.token, uni.weth, tokensIn)

const advance = async (seconds: number) => {
  await chain.test.increaseTime({ seconds })
  await chain.test.mine({ blocks: 1 })
}

/**
 * Canonical launches until both token orders occur: creatorA's token sorts below WETH (`low`), creatorB's above it
 * (`high`); launches of the wrong order for the pair so far go to `other`.
 */
const launchBothOrders = async (name: string) => {
  const launches: typeof ignitions = []
  const found: { low?: Launched; high?: Launched } = {}
  for (let i = 0; i < 12 && (found.low === undefined || found.high === undefined); i++) {
    const predicted = await nextTokenAddress()
    const isLow = below(predicted, uni.weth)
    const creator = isLow ? (found.low ? other : creatorA) : found.high ? other : creatorB
    const launched = ignitedOf(
      await write(chain, creator, pad.launch, FireLaunchAbi, "ignite", [`${name} ${i}`, `${name.toUpperCase()}${i}`])
    )
    launches.push({ predicted, creator, launched })
    if (creator === creatorA) found.low = launched
    if (creator === creatorB) found.high = launched
  }
  if (found.low === undefined || found.high === undefined) throw new Error("both token orders should occur")
  return { low: found.low, high: found.high, ignitions: launches }
}

beforeAll(async () => {
  anvil = await startAnvil(CHAIN_ID)
  chain = await connect(anvil.rpcUrl, CHAIN_ID)
  const [a0, a1, a2, a3, a4, a5, a6, a7, a8] = chain.accounts
  if (a8 === undefined) throw new Error("anvil has too few accounts")
  ;[gov, creatorA, creatorB, buyer, giver, r1, r2, r3, other] = [a0!, a1!, a2!, a3!, a4!, a5!, a6!, a7!, a8]
  uni = await deployUniswap(chain, gov)
  pad = await deployLaunchpad(chain, gov, uni)
  // The buyer trades with WETH through SwapRouter02.
  await write(chain, buyer, uni.weth, abis.weth, "deposit", [], parseEther("100"))
  await write(chain, buyer, uni.weth, abis.weth, "approve", [uni.swapRouter02, maxUint256])
  // The FireLaunch test checks these first launches, including the fillers, against their predicted addresses.
  const first = await launchBothOrders("Fire")
  ignitions.push(...first.ignitions)
  low = first.low
  high = first.high
})

afterAll(async () => {
  await anvil?.stop()
})

describe("FireRegistry", () => {
  it("has the documented defaults", async () => {
    const r = (
      functionName:
        | "gracePeriodDuration"
        | "forceGraduationDelay"
        | "streamingRecipientsTotalBps"
        | "graduationThreshold"
    ) => chain.public.readContract({ address: pad.registry, abi: FireRegistryAbi, functionName })
    expect(await r("gracePeriodDuration")).toBe(3600n)
    expect(await r("forceGraduationDelay")).toBe(86400n)
    expect(await r("streamingRecipientsTotalBps")).toBe(10_000n)
    expect(await r("graduationThreshold")).toBe(parseEther("1"))
    expect(
      await chain.public.readContract({ address: pad.registry, abi: FireRegistryAbi, functionName: "launchConfig" })
    ).toEqual({
      fee: 10_000,
      startTick: -207_200,
      tickLower: -207_200,
      tickUpper: 887_200,
      totalSupply: parseEther("1000000000"),
      sqrtPriceX96: 2510809139091789284100322n,
      sqrtPriceX96Inverted: 2500031419217008302293562112940196n
    })
    expect(
      await chain.public.readContract({ address: pad.registry, abi: FireRegistryAbi, functionName: "feeRecipients" })
    ).toEqual([{ account: gov, bps: 10_000 }])
    expect(
      await chain.public.readContract({ address: pad.registry, abi: FireRegistryAbi, functionName: "stream" })
    ).toBe(pad.stream)
  })

  it("stores the start prices as the exact tick prices: recomputed with @uniswap/v3-sdk TickMath", async () => {
    const config = await chain.public.readContract({
      address: pad.registry,
      abi: FireRegistryAbi,
      functionName: "launchConfig"
    })
    expect(config.sqrtPriceX96).toBe(sqrtAtTick(config.startTick))
    expect(config.sqrtPriceX96Inverted).toBe(sqrtAtTick(-config.startTick))
  })

  it("setLaunchConfig takes the start prices, emits them and rejects implausible ones", async () => {
    const config = await chain.public.readContract({
      address: pad.registry,
      abi: FireRegistryAbi,
      functionName: "launchConfig"
    })
    const set = (from: Address, c: typeof config) =>
      write(chain, from, pad.registry, FireRegistryAbi, "setLaunchConfig", [c])
    expect(await revertNameOf(set(other, config))).toBe("NotGovernance")
    const invalid = [
      { ...config, sqrtPriceX96: 0n },
      { ...config, sqrtPriceX96Inverted: 4295128738n }, // below the pool's minimum price
      { ...config, sqrtPriceX96: config.sqrtPriceX96Inverted, sqrtPriceX96Inverted: config.sqrtPriceX96 }, // swapped
      { ...config, sqrtPriceX96Inverted: config.sqrtPriceX96 }, // not each other's inverse
      { ...config, sqrtPriceX96Inverted: sqrtAtTick(-config.startTick - 1_000) }, // inverse of another tick
      { ...config, startTick: 0 } // startTick 0 needs price 2^96
    ]
    for (const c of invalid) expect(await revertNameOf(set(gov, c))).toBe("InvalidLaunchConfig")

    const next = {
      ...config,
      startTick: -207_400,
      sqrtPriceX96: sqrtAtTick(-207_400),
      sqrtPriceX96Inverted: sqrtAtTick(207_400)
    }
    const receipt = await set(gov, next)
    expect(
      parseEventLogs({ abi: FireRegistryAbi, logs: receipt.logs, eventName: "LaunchConfigUpdated" })[0]?.args
    ).toEqual(next)
    expect(
      await chain.public.readContract({ address: pad.registry, abi: FireRegistryAbi, functionName: "launchConfig" })
    ).toEqual(next)
    await set(gov, config)
    expect(
      await chain.public.readContract({ address: pad.registry, abi: FireRegistryAbi, functionName: "launchConfig" })
    ).toEqual(config)
  })

  it("is changeable only by governance, with events", async () => {
    expect(await revertNameOf(write(chain, other, pad.registry, FireRegistryAbi, "setGraduationThreshold", [1n]))).toBe(
      "NotGovernance"
    )
    expect(
      await revertNameOf(write(chain, gov, pad.registry, FireRegistryAbi, "setGracePeriodDuration", [86_401n]))
    ).toBe("InvalidDelays")
    const tooMuch = [
      { account: r1, bps: 6000 },
      { account: r2, bps: 5000 }
    ]
    expect(await revertNameOf(write(chain, gov, pad.registry, FireRegistryAbi, "setFeeRecipients", [tooMuch]))).toBe(
      "InvalidBps"
    )

    const receipt = await write(chain, gov, pad.registry, FireRegistryAbi, "setFeeRecipients", [
      [
        { account: r1, bps: 5000 },
        { account: r2, bps: 3000 },
        { account: r3, bps: 1500 }
      ]
    ])
    const [event] = parseEventLogs({ abi: FireRegistryAbi, logs: receipt.logs, eventName: "FeeRecipientsUpdated" })
    expect(event?.args).toEqual({ accounts: [r1, r2, r3], bps: [5000, 3000, 1500] })

    const moved = await write(chain, gov, pad.registry, FireRegistryAbi, "setGovernance", [other])
    expect(parseEventLogs({ abi: FireRegistryAbi, logs: moved.logs, eventName: "GovernanceUpdated" })[0]?.args).toEqual(
      {
        previous: gov,
        current: other
      }
    )
    await write(chain, other, pad.registry, FireRegistryAbi, "setGovernance", [gov])
    expect(
      await chain.public.readContract({ address: pad.registry, abi: FireRegistryAbi, functionName: "governance" })
    ).toBe(gov)
  })
})

describe("FireLaunch", () => {
  it("ignites canonical launches for both token orders; pool address equals computePoolAddress and getPool", async () => {
    for (const { predicted, creator, launched } of ignitions) {
      expect(launched.token).toBe(predicted)
      expect(launched.creator).toBe(creator)
    }

    const config = await chain.public.readContract({
      address: pad.launch,
      abi: FireLaunchAbi,
      functionName: "launchConfig"
    })
    for (const launched of [low, high]) {
      const isToken0 = launched === low
      const [token0, token1] = isToken0 ? [launched.token, uni.weth] : [uni.weth, launched.token]
      const expectedPool = v3Sdk.computePoolAddress({
        factoryAddress: uni.factory,
        tokenA: new sdkCore.Token(CHAIN_ID, token0, 18),
        tokenB: new sdkCore.Token(CHAIN_ID, token1, 18),
        fee: config.fee,
        initCodeHashManualOverride: poolInitCodeHash()
      })
      expect(launched.pool).toBe(expectedPool)
      expect(
        await chain.public.readContract({
          address: uni.factory,
          abi: abis.factory,
          functionName: "getPool",
          args: [launched.token, uni.weth, config.fee]
        })
      ).toBe(expectedPool)

      expect(launched.canonical).toBe(true)
      expect(launched.fee).toBe(config.fee)
      expect(await read.launch("creatorOf", launched.token)).toBe(launched.creator)
      expect(await read.launch("poolOf", launched.token)).toBe(launched.pool)
      expect(await read.launch("positionIdOf", launched.token)).toBe(launched.positionId)
      expect(await read.launch("isCanonical", launched.token)).toBe(true)

      // Ticks and start price: the canonical ones, mirrored when the token is token1.
      const startTick = isToken0 ? config.startTick : -config.startTick
      const [tickLower, tickUpper] = isToken0
        ? [config.tickLower, config.tickUpper]
        : [-config.tickUpper, -config.tickLower]
      expect([launched.tickLower, launched.tickUpper]).toEqual([tickLower, tickUpper])
      expect(launched.sqrtPriceX96).toBe(sqrtAtTick(startTick))
      expect(
        await chain.public.readContract({
          address: pad.launch,
          abi: FireLaunchAbi,
          functionName: "canonicalPoolConfig",
          args: [isToken0]
        })
      ).toEqual([config.fee, launched.sqrtPriceX96, tickLower, tickUpper])
      const [sqrtPriceX96, tick] = await chain.public.readContract({
        address: launched.pool,
        abi: abis.pool,
        functionName: "slot0"
      })
      expect(sqrtPriceX96).toBe(launched.sqrtPriceX96)
      expect(tick).toBe(startTick)

      // One single-sided position holding (all but rounding dust of) the supply, owned by FireLaunch.
      expect(
        await chain.public.readContract({
          address: uni.positionManager,
          abi: abis.positionManager,
          functionName: "ownerOf",
          args: [launched.positionId]
        })
      ).toBe(pad.launch)
      const position = await chain.public.readContract({
        address: uni.positionManager,
        abi: abis.positionManager,
        functionName: "positions",
        args: [launched.positionId]
      })
      expect([position[5], position[6]]).toEqual([tickLower, tickUpper])
      expect(position[7]).toBeGreaterThan(0n)
      const supply = await chain.public.readContract({
        address: launched.token,
        abi: abis.erc20,
        functionName: "totalSupply"
      })
      expect(supply).toBe(config.totalSupply)
      const inPool = await balanceOf(launched.token, launched.pool)
      expect(supply - inPool).toBe(await balanceOf(launched.token, pad.launch))
      expect(supply - inPool).toBeLessThan(1_000_000n) // dust only
      expect(await balanceOf(uni.weth, launched.pool)).toBe(0n)
      expect(
        await chain.public.readContract({ address: launched.token, abi: abis.erc20, functionName: "decimals" })
      ).toBe(18)
    }
    expect(await chain.public.readContract({ address: low.token, abi: abis.erc20, functionName: "symbol" })).toMatch(
      /^FIRE\d+$/
    )
    expect(low.receipt.gasUsed).toBeLessThan(7_000_000n)
  })

  it("igniteWithConfig launches non-canonically (canonical=false) in both token orders", async () => {
    const { fee, tickLower, tickUpper, sqrtPriceX96 } = ODD
    const seen = new Set<boolean>()
    for (let i = 0; i < 12 && seen.size < 2; i++) {
      const launched = ignitedOf(await igniteWithConfig(creatorA, `Odd ${i}`, ODD))
      const isToken0 = below(launched.token, uni.weth)
      seen.add(isToken0)
      expect(launched.canonical).toBe(false)
      expect(await read.launch("isCanonical", launched.token)).toBe(false)
      expect(launched.fee).toBe(fee)
      expect([launched.tickLower, launched.tickUpper]).toEqual(
        isToken0 ? [tickLower, tickUpper] : [-tickUpper, -tickLower]
      )
      const [poolPrice, tick] = await chain.public.readContract({
        address: launched.pool,
        abi: abis.pool,
        functionName: "slot0"
      })
      expect(poolPrice).toBe(launched.sqrtPriceX96)
      expect(poolPrice).toBe(isToken0 ? sqrtPriceX96 : inverse(sqrtPriceX96))
      if (isToken0)
        expect(tick).toBeLessThan(tickLower) // below the range: all token0
      else expect(tick).toBeGreaterThanOrEqual(-tickLower) // at or above the mirrored range: all token1
      expect(await balanceOf(uni.weth, launched.pool)).toBe(0n)
      // And it is tradeable.
      const { quotedOut, received } = await buy(launched, parseEther("0.01"))
      expect(received).toBe(quotedOut)
    }
    expect(seen.size).toBe(2)
  })

  it("igniteWithConfig with the canonical parameters is a canonical launch in both token orders", async () => {
    const config = await chain.public.readContract({
      address: pad.launch,
      abi: FireLaunchAbi,
      functionName: "launchConfig"
    })
    for (const token0 of [true, false]) {
      await untilNextIsToken0(token0)
      const launched = ignitedOf(await igniteWithConfig(other, `Same ${token0}`, config))
      expect(below(launched.token, uni.weth)).toBe(token0)
      expect(launched.canonical).toBe(true)
      expect(await read.launch("isCanonical", launched.token)).toBe(true)
      const canonical = await chain.public.readContract({
        address: pad.launch,
        abi: FireLaunchAbi,
        functionName: "canonicalPoolConfig",
        args: [token0]
      })
      expect([launched.fee, launched.sqrtPriceX96, launched.tickLower, launched.tickUpper]).toEqual(canonical)
      // The token1 pool starts at the registry's exact price of -startTick, not at the (rounded) inverse.
      expect(launched.sqrtPriceX96).toBe(sqrtAtTick(token0 ? config.startTick : -config.startTick))
      if (!token0) expect(inverse(config.sqrtPriceX96)).not.toBe(launched.sqrtPriceX96)
    }
  })

  it("rejects launches that would not be single-sided, checked in the pool (both token orders and the exact edge)", async () => {
    const config = await chain.public.readContract({
      address: pad.launch,
      abi: FireLaunchAbi,
      functionName: "launchConfig"
    })
    const rejected = (name: string, c: LaunchParams) => revertNameOf(igniteWithConfig(other, name, c))
    for (const token0 of [true, false]) {
      await untilNextIsToken0(token0)
      // A price inside the range (for token1: its inverse lands inside the mirrored range).
      expect(await rejected("Bad", { ...ODD, sqrtPriceX96: sqrtAtTick(ODD.tickLower + 60) })).toBe("NotSingleSided")
      expect(await rejected("Bad", { ...config, sqrtPriceX96: sqrtAtTick(config.tickLower + 200) })).toBe(
        "NotSingleSided"
      )
      // Prices the pool cannot start at, and invalid ranges.
      expect(await rejected("Bad", { ...ODD, sqrtPriceX96: 4295128738n })).toBe("NotSingleSided")
      expect(await rejected("Bad", { ...ODD, tickLower: ODD.tickUpper })).toBe("InvalidTickRange")
      expect(await rejected("Bad", { ...ODD, tickUpper: 887_280 })).toBe("InvalidTickRange")
      expect(await rejected("Bad", { ...ODD, tickLower: -120_030 })).toBe("InvalidTickRange") // not on the spacing
    }

    // Token0 at the exact lower edge: pool tick == tickLower. Single-sided only at exactly the edge's price.
    await untilNextIsToken0(true)
    expect(await rejected("Edge", { ...ODD, sqrtPriceX96: sqrtAtTick(ODD.tickLower) + 1n })).toBe("NotSingleSided")
    const edge = ignitedOf(await igniteWithConfig(other, "Edge", { ...ODD, sqrtPriceX96: sqrtAtTick(ODD.tickLower) }))
    const [, edgeTick] = await chain.public.readContract({ address: edge.pool, abi: abis.pool, functionName: "slot0" })
    expect(edgeTick).toBe(ODD.tickLower)
    expect(await balanceOf(uni.weth, edge.pool)).toBe(0n)
    expect(await balanceOf(edge.token, edge.pool)).toBeGreaterThan(parseEther("999999999"))

    // Governance passing start prices that are close but not exact: canonical launches revert instead of
    // starting inside the range (token0: just above the edge price; token1: inverse just below the mirrored edge).
    const off = {
      ...config,
      sqrtPriceX96: config.sqrtPriceX96 + 1n,
      sqrtPriceX96Inverted: config.sqrtPriceX96Inverted - 1n
    }
    await write(chain, gov, pad.registry, FireRegistryAbi, "setLaunchConfig", [off])
    for (const token0 of [true, false]) {
      await untilNextIsToken0(token0)
      expect(await revertNameOf(write(chain, other, pad.launch, FireLaunchAbi, "ignite", ["Off", "OFF"]))).toBe(
        "NotSingleSided"
      )
    }
    await write(chain, gov, pad.registry, FireRegistryAbi, "setLaunchConfig", [config])
  })

  it("a buy through SwapRouter02 exactInputSingle pays exactly what QuoterV2 quoted (both token orders)", async () => {
    for (const launched of [low, high]) {
      const amountIn = parseEther("0.3")
      const { quotedOut, spent, received } = await buy(launched, amountIn)
      expect(quotedOut).toBeGreaterThan(0n)
      expect(spent).toBe(amountIn)
      expect(received).toBe(quotedOut)
      expect(await balanceOf(uni.weth, launched.pool)).toBe(amountIn)
    }
  })
})

describe("FuelVault", () => {
  it("rejects a self-gift with SelfGiftNotAllowed, zero amounts and unknown tokens", async () => {
    expect(
      await revertNameOf(write(chain, creatorA, pad.fuelVault, FuelVaultAbi, "give", [low.token], parseEther("1")))
    ).toBe("SelfGiftNotAllowed")
    expect(await revertNameOf(write(chain, giver, pad.fuelVault, FuelVaultAbi, "give", [low.token], 0n))).toBe(
      "ZeroAmount"
    )
    expect(await revertNameOf(write(chain, giver, pad.fuelVault, FuelVaultAbi, "give", [uni.weth], 1n))).toBe(
      "UnknownToken"
    )
  })

  it("accrues fuel per token and withdraw pays the creator exactly", async () => {
    const given = await write(chain, giver, pad.fuelVault, FuelVaultAbi, "give", [low.token], parseEther("0.25"))
    await write(chain, other, pad.fuelVault, FuelVaultAbi, "give", [low.token], parseEther("0.05"))
    await write(chain, giver, pad.fuelVault, FuelVaultAbi, "give", [high.token], parseEther("0.5"))
    expect(parseEventLogs({ abi: FuelVaultAbi, logs: given.logs, eventName: "FuelGiven" })[0]?.args).toEqual({
      token: low.token,
      from: giver,
      creator: creatorA,
      amount: parseEther("0.25")
    })
    const fuel = await chain.public.readContract({
      address: pad.fuelVault,
      abi: FuelVaultAbi,
      functionName: "fuelOf",
      args: [low.token]
    })
    expect(fuel).toBe(parseEther("0.3"))

    const before = await chain.public.getBalance({ address: creatorA })
    const receipt = await write(chain, giver, pad.fuelVault, FuelVaultAbi, "withdraw", [low.token]) // anyone may trigger
    expect((await chain.public.getBalance({ address: creatorA })) - before).toBe(parseEther("0.3"))
    expect(parseEventLogs({ abi: FuelVaultAbi, logs: receipt.logs, eventName: "FuelWithdrawn" })[0]?.args).toEqual({
      token: low.token,
      creator: creatorA,
      amount: parseEther("0.3")
    })
    expect(await revertNameOf(write(chain, giver, pad.fuelVault, FuelVaultAbi, "withdraw", [low.token]))).toBe(
      "NothingToWithdraw"
    )

    // The creator withdrawing itself: the balance grows by the fuel minus the gas paid.
    const beforeB = await chain.public.getBalance({ address: creatorB })
    const own = await write(chain, creatorB, pad.fuelVault, FuelVaultAbi, "withdraw", [high.token])
    expect((await chain.public.getBalance({ address: creatorB })) - beforeB).toBe(
      parseEther("0.5") - own.gasUsed * own.effectiveGasPrice
    )
  })
})

describe("FireGraduator", () => {
  // Fresh launches of both orders, each holding 0.3 WETH from one buy: below the 1 WETH graduation condition.
  let low: Launched
  let high: Launched
  beforeAll(async () => {
    ;({ low, high } = await launchBothOrders("Grad"))
    for (const launched of [low, high]) await buy(launched, parseEther("0.3"))
  })

  it("graduates after the recorded condition and the grace period", async () => {
    expect(await read.canGraduate(low.token)).toBe(false) // 0.3 WETH < 1 WETH
    expect(
      await revertNameOf(write(chain, other, pad.launch, FireLaunchAbi, "recordGraduationCondition", [low.token]))
    ).toBe("GraduationConditionNotMet")
    await buy(low, parseEther("0.8"))
    expect(await read.canGraduate(low.token)).toBe(true)
    expect(await revertNameOf(write(chain, other, pad.graduator, FireGraduatorAbi, "graduate", [low.token]))).toBe(
      "GraduationConditionNotRecorded"
    )

    const recorded = await write(chain, other, pad.launch, FireLaunchAbi, "recordGraduationCondition", [low.token])
    const block = await chain.public.getBlock({ blockNumber: recorded.blockNumber })
    expect(
      parseEventLogs({ abi: FireLaunchAbi, logs: recorded.logs, eventName: "GraduationConditionRecorded" })[0]?.args
    ).toEqual({
      token: low.token,
      timestamp: block.timestamp
    })
    expect(await read.launch("graduationConditionAt", low.token)).toBe(block.timestamp)
    expect(
      await revertNameOf(write(chain, other, pad.launch, FireLaunchAbi, "recordGraduationCondition", [low.token]))
    ).toBe("GraduationConditionAlreadyRecorded")

    expect(await revertNameOf(write(chain, other, pad.graduator, FireGraduatorAbi, "graduate", [low.token]))).toBe(
      "GracePeriodNotOver"
    )
    await advance(1800)
    expect(await revertNameOf(write(chain, other, pad.graduator, FireGraduatorAbi, "graduate", [low.token]))).toBe(
      "GracePeriodNotOver"
    )
    await advance(1800)
    const graduated = await write(chain, other, pad.graduator, FireGraduatorAbi, "graduate", [low.token])
    const gradBlock = await chain.public.getBlock({ blockNumber: graduated.blockNumber })
    expect(gradBlock.timestamp).toBeGreaterThanOrEqual(block.timestamp + 3600n)
    expect(parseEventLogs({ abi: FireGraduatorAbi, logs: graduated.logs, eventName: "Graduated" })[0]?.args).toEqual({
      token: low.token,
      timestamp: gradBlock.timestamp
    })
    expect(await read.isGraduated(low.token)).toBe(true)
    expect(await revertNameOf(write(chain, other, pad.graduator, FireGraduatorAbi, "graduate", [low.token]))).toBe(
      "AlreadyGraduated"
    )

    // Fuel ends at graduation.
    expect(await revertNameOf(write(chain, giver, pad.fuelVault, FuelVaultAbi, "give", [low.token], 1n))).toBe(
      "AlreadyGraduated"
    )
    expect(await revertNameOf(write(chain, creatorA, pad.fuelVault, FuelVaultAbi, "withdraw", [low.token]))).toBe(
      "AlreadyGraduated"
    )
  })

  it("can be forced after forceGraduationDelay when the condition no longer holds", async () => {
    const { received } = await buy(high, parseEther("0.8"))
    expect(await read.canGraduate(high.token)).toBe(true)
    await write(chain, other, pad.launch, FireLaunchAbi, "recordGraduationCondition", [high.token])
    await write(chain, buyer, high.token, abis.erc20, "approve", [uni.swapRouter02, maxUint256])
    await sell(high, received)
    expect(await read.canGraduate(high.token)).toBe(false)

    await advance(3600)
    expect(await revertNameOf(write(chain, other, pad.graduator, FireGraduatorAbi, "graduate", [high.token]))).toBe(
      "GraduationConditionNoLongerMet"
    )
    await advance(86_400 - 3600)
    await write(chain, other, pad.graduator, FireGraduatorAbi, "graduate", [high.token])
    expect(await read.isGraduated(high.token)).toBe(true)
  })
})

describe("FireStream", () => {
  // Fresh launches of both orders, graduated (condition met, recorded, grace period over), the buyer able to sell, and
  // fee recipients assigned 9500 bps (the rest is the creator's), as the FireRegistry governance test leaves them.
  let low: Launched
  let high: Launched
  beforeAll(async () => {
    await write(chain, gov, pad.registry, FireRegistryAbi, "setFeeRecipients", [
      [
        { account: r1, bps: 5000 },
        { account: r2, bps: 3000 },
        { account: r3, bps: 1500 }
      ]
    ])
    ;({ low, high } = await launchBothOrders("Stream"))
    for (const launched of [low, high]) {
      await buy(launched, parseEther("1.1"))
      await write(chain, other, pad.launch, FireLaunchAbi, "recordGraduationCondition", [launched.token])
      await write(chain, buyer, launched.token, abis.erc20, "approve", [uni.swapRouter02, maxUint256])
    }
    await advance(3600)
    for (const launched of [low, high])
      await write(chain, other, pad.graduator, FireGraduatorAbi, "graduate", [launched.token])
  })

  it("claimFees reverts before graduation", async () => {
    const receipt = await write(chain, creatorA, pad.launch, FireLaunchAbi, "ignite", ["Young", "YNG"])
    expect(
      await revertNameOf(write(chain, other, pad.stream, FireStreamAbi, "claimFees", [ignitedOf(receipt).token]))
    ).toBe("NotGraduated")
    expect(await revertNameOf(write(chain, other, pad.launch, FireLaunchAbi, "collectFees", [low.token]))).toBe(
      "NotStream"
    )
  })

  it("after swaps, claimFees pays each recipient exactly its bps share of both tokens (both token orders)", async () => {
    const recipients = await chain.public.readContract({
      address: pad.registry,
      abi: FireRegistryAbi,
      functionName: "feeRecipients"
    })
    const totalBps = await chain.public.readContract({
      address: pad.registry,
      abi: FireRegistryAbi,
      functionName: "streamingRecipientsTotalBps"
    })

    for (const launched of [low, high]) {
      // Fees in both tokens: buys pay WETH fees, sells pay token fees.
      const { received } = await buy(launched, parseEther("0.4"))
      await sell(launched, received / 2n)
      await buy(launched, parseEther("0.1"))

      const [token0, token1] = below(launched.token, uni.weth) ? [launched.token, uni.weth] : [uni.weth, launched.token]
      const { result: expected } = await chain.public.simulateContract({
        address: uni.positionManager,
        abi: abis.positionManager,
        functionName: "collect",
        args: [
          {
            tokenId: launched.positionId,
            recipient: pad.stream,
            amount0Max: 2n ** 128n - 1n,
            amount1Max: 2n ** 128n - 1n
          }
        ],
        account: pad.launch
      })
      expect(expected[0]).toBeGreaterThan(0n)
      expect(expected[1]).toBeGreaterThan(0n)

      const payees = [...recipients.map((r) => r.account), launched.creator]
      const balances = async () =>
        Promise.all(payees.map(async (a) => [await balanceOf(token0, a), await balanceOf(token1, a)] as const))
      const before = await balances()
      const receipt = await write(chain, other, pad.stream, FireStreamAbi, "claimFees", [launched.token])
      const after = await balances()
      const events = parseEventLogs({ abi: FireStreamAbi, logs: receipt.logs, eventName: "FeesClaimed" }).map(
        (e) => e.args
      )

      const shares = recipients.map((r) => ({
        token: launched.token,
        recipient: r.account,
        amount0: (expected[0] * BigInt(r.bps)) / totalBps,
        amount1: (expected[1] * BigInt(r.bps)) / totalBps
      }))
      const rest = {
        token: launched.token,
        recipient: launched.creator,
        amount0: expected[0] - shares.reduce((s, x) => s + x.amount0, 0n),
        amount1: expected[1] - shares.reduce((s, x) => s + x.amount1, 0n)
      }
      expect(events).toEqual([...shares, rest])
      payees.forEach((_, i) => {
        const e = [...shares, rest][i]!
        expect(after[i]![0] - before[i]![0]).toBe(e.amount0)
        expect(after[i]![1] - before[i]![1]).toBe(e.amount1)
      })
      // The 500 bps not assigned to recipients went to the creator.
      expect(rest.amount0).toBeGreaterThanOrEqual((expected[0] * 500n) / totalBps)
    }
  })
})
