/**
 * In-memory providers for AlphaRouter: nothing here does I/O. The one that matters is the quote provider: where the
 * SOR would multicall QuoterV2 on chain, this one runs v3-sdk's own swap loop (`v3Swap`) over our pool state with its
 * initialized ticks, hop by hop. A swap that runs into its price limit (the pool drained) counts as a failed quote,
 * as QuoterV2 reverts for exactOut (for exactIn it would return a partial fill the route could not honour).
 */
import { createRequire } from "node:module"
import type { BigNumber as BigNumberT } from "ethers"
import type { Token as TokenT } from "@uniswap/sdk-core"
import type { FeeAmount, Pool as PoolT } from "@uniswap/v3-sdk"
import type {
  AmountQuote,
  CurrencyAmount,
  IGasPriceProvider,
  IOnChainQuoteProvider,
  ITokenPropertiesProvider,
  ITokenProvider,
  ITokenValidatorProvider,
  IV2PoolProvider,
  IV3PoolProvider,
  IV3SubgraphProvider,
  IV4PoolProvider,
  OnChainQuotes,
  SupportedRoutes,
  V3PoolAccessor,
  V3Route
} from "@uniswap/smart-order-router"
import { invertSqrtPrice, type Remap } from "./remap.ts"
import { poolKey, type PoolEntry, type World } from "./pools.ts"

const require = createRequire(import.meta.url)
const v3 = require("@uniswap/v3-sdk") as typeof import("@uniswap/v3-sdk")
const JSBI = require("jsbi") as typeof import("jsbi").default
const { BigNumber } = require("ethers") as typeof import("ethers")

const MIN = BigInt(v3.TickMath.MIN_SQRT_RATIO.toString())
const MAX = BigInt(v3.TickMath.MAX_SQRT_RATIO.toString())
const LIMIT_DOWN = JSBI.BigInt((MIN + 1n).toString())
const LIMIT_UP = JSBI.BigInt((MAX - 1n).toString())

const entryOf = (world: World, pool: PoolT): PoolEntry => {
  const e = world.byKey.get(poolKey(pool.token0.address, pool.token1.address, pool.fee))
  if (e === undefined)
    throw new Error(`pool ${pool.token0.address}/${pool.token1.address}/${pool.fee} not in the snapshot`)
  return e
}

/** Initialized ticks strictly between the two ticks, plus the end tick: what QuoterV2 reports as crossed (near enough). */
const ticksCrossed = (indexes: ReadonlyArray<number>, from: number, to: number): number => {
  const [lo, hi] = from < to ? [from, to] : [to, from]
  let n = 0
  for (const t of indexes) if (t > lo && t <= hi) n++
  return n
}

interface HopOutcome {
  readonly amount: bigint
  readonly sqrtAfter: bigint
  readonly crossed: number
}

/** One exact swap on our own pool: `specified` > 0 exact input, < 0 exact output. Null when it cannot be filled. */
const simulate = async (e: PoolEntry, zeroForOne: boolean, specified: bigint): Promise<HopOutcome | null> => {
  if (e.ticks === null || specified === 0n) return null
  const p = e.ours
  const limit = zeroForOne ? LIMIT_DOWN : LIMIT_UP
  const r = await v3.v3Swap(
    JSBI.BigInt(p.fee),
    JSBI.BigInt(p.sqrtPriceX96),
    p.tick,
    JSBI.BigInt(p.liquidity),
    p.tickSpacing,
    e.ticks,
    zeroForOne,
    JSBI.BigInt(specified.toString()),
    limit
  )
  if (JSBI.equal(r.sqrtRatioX96, limit)) return null
  const calculated = BigInt(r.amountCalculated.toString())
  const sqrtAfter = BigInt(r.sqrtRatioX96.toString())
  return {
    amount: specified > 0n ? -calculated : calculated,
    sqrtAfter: e.flipped ? invertSqrtPrice(sqrtAfter, MIN, MAX) : sqrtAfter,
    crossed: ticksCrossed(e.tickIndexes, p.tick, r.tickCurrent)
  }
}

const failed = (amount: CurrencyAmount): AmountQuote => ({
  amount,
  quote: null,
  sqrtPriceX96AfterList: null,
  initializedTicksCrossedList: null,
  gasEstimate: null,
  gasLimit: null
})

const quoteRoute = async (
  world: World,
  remap: Remap,
  route: V3Route,
  amount: CurrencyAmount,
  exactIn: boolean
): Promise<AmountQuote> => {
  const hops = route.pools.length
  const order = exactIn ? [...Array(hops).keys()] : [...Array(hops).keys()].reverse()
  let running = BigInt(amount.quotient.toString())
  const sqrtAfter: Array<BigNumberT> = new Array(hops)
  const crossed: Array<number> = new Array(hops)
  try {
    for (const i of order) {
      const e = entryOf(world, route.pools[i]!)
      const tokenIn = remap.toOurs(route.tokenPath[i]!.address)
      const zeroForOne = tokenIn === e.ours.token0.toLowerCase()
      const r = await simulate(e, zeroForOne, exactIn ? running : -running)
      if (r === null) return failed(amount)
      running = r.amount
      sqrtAfter[i] = BigNumber.from(r.sqrtAfter.toString())
      crossed[i] = r.crossed
    }
  } catch {
    return failed(amount)
  }
  return {
    amount,
    quote: BigNumber.from(running.toString()),
    sqrtPriceX96AfterList: sqrtAfter,
    initializedTicksCrossedList: crossed,
    // QuoterV2's measured gas; the SOR's V3 gas model does not read it (it counts hops and ticks), so a rough figure.
    gasEstimate: BigNumber.from(100_000 * hops + 30_000 * crossed.reduce((a, b) => a + b, 0)),
    gasLimit: null
  }
}

/** Time spent inside the quoter (where the real SOR waits on a QuoterV2 multicall), to tell it apart from routing. */
export interface QuoterClock {
  ms: number
  calls: number
  quotes: number
}

export const quoteProvider = (
  world: World,
  remap: Remap,
  blockNumber: number,
  clock: QuoterClock
): IOnChainQuoteProvider => {
  const many = async <TRoute extends SupportedRoutes>(
    amounts: Array<CurrencyAmount>,
    routes: Array<TRoute>,
    exactIn: boolean
  ): Promise<OnChainQuotes<TRoute>> => {
    const start = performance.now()
    clock.calls++
    clock.quotes += amounts.length * routes.length
    const routesWithQuotes: Array<[TRoute, Array<AmountQuote>]> = []
    for (const route of routes) {
      const quotes: Array<AmountQuote> = []
      for (const a of amounts) quotes.push(await quoteRoute(world, remap, route as unknown as V3Route, a, exactIn))
      routesWithQuotes.push([route, quotes])
    }
    clock.ms += performance.now() - start
    return { routesWithQuotes, blockNumber: BigNumber.from(blockNumber) }
  }
  return {
    getQuotesManyExactIn: (amounts, routes) => many(amounts, routes, true),
    getQuotesManyExactOut: (amounts, routes) => many(amounts, routes, false)
  }
}

export const poolProvider = (world: World): IV3PoolProvider => {
  const accessor: V3PoolAccessor = {
    getPool: (a: TokenT, b: TokenT, fee: FeeAmount) => world.byKey.get(poolKey(a.address, b.address, fee))?.sor,
    getPoolByAddress: (address: string) => world.byAddress.get(address.toLowerCase())?.sor,
    getAllPools: () => [...world.byKey.values()].map((e) => e.sor)
  }
  return {
    getPools: async () => accessor,
    getPoolAddress: (a: TokenT, b: TokenT, fee: FeeAmount) => {
      const [token0, token1] = a.sortsBefore(b) ? [a, b] : [b, a]
      const e = world.byKey.get(poolKey(a.address, b.address, fee))
      // A pair without a pool gets a made-up address that matches nothing (the SOR then finds no pool for it).
      return {
        poolAddress:
          e?.ours.address ??
          `0x${poolKey(a.address, b.address, fee)
            .replace(/[^0-9a-f]/gu, "")
            .slice(0, 40)}`,
        token0,
        token1
      }
    }
  }
}

export const subgraphProvider = (world: World): IV3SubgraphProvider => ({
  getPools: async () => world.subgraph.map((p) => ({ ...p, token0: { ...p.token0 }, token1: { ...p.token1 } }))
})

export const tokenProvider = (world: World): ITokenProvider => ({
  getTokens: async () => ({
    getTokenByAddress: (address: string) => world.tokens.get(address.toLowerCase()),
    getTokenBySymbol: (symbol: string) => [...world.tokens.values()].find((t) => t.symbol === symbol),
    getAllTokens: () => [...world.tokens.values()]
  })
})

export const gasPriceProvider = (gasPriceWei: bigint): IGasPriceProvider => ({
  getGasPrice: async () => ({ gasPriceWei: BigNumber.from(gasPriceWei.toString()) })
})

/** No fee-on-transfer tokens and nothing to validate: the snapshot's tokens are plain ERC-20s. */
export const tokenPropertiesProvider: ITokenPropertiesProvider = { getTokensProperties: async () => ({}) }
export const tokenValidatorProvider: ITokenValidatorProvider = {
  validateTokens: async () => ({ getValidationByToken: () => undefined })
}

/**
 * No V2 or V4 pools. Still injected: the mixed-route gas model is built on every quote and looks for a V2 WETH pool of
 * the quote token, and the default providers would multicall chain 1 for it.
 */
export const emptyV2PoolProvider: IV2PoolProvider = {
  getPools: async () => ({ getPool: () => undefined, getPoolByAddress: () => undefined, getAllPools: () => [] }),
  getPoolAddress: (a: TokenT, b: TokenT) => {
    const [token0, token1] = a.sortsBefore(b) ? [a, b] : [b, a]
    return { poolAddress: "0x0000000000000000000000000000000000000000", token0, token1 }
  }
}
export const emptyV4PoolProvider: IV4PoolProvider = {
  getPools: async () => ({ getPool: () => undefined, getPoolById: () => undefined, getAllPools: () => [] }),
  getPoolId: (a, b) => {
    const [currency0, currency1] = a.wrapped.sortsBefore(b.wrapped) ? [a, b] : [b, a]
    return { poolId: "0x0000000000000000000000000000000000000000000000000000000000000000", currency0, currency1 }
  }
}
