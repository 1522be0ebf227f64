/**
 * A deterministic synthetic pool set for benchmarks and router tests: WETH, two stablecoins and many launch-like
 * tokens, each paired mostly with WETH, sometimes with a stablecoin or another token, in the 0.05/0.3/1 % tiers
 * (0.01 % only between the stablecoins, as on mainnet). Prices follow per-token USD prices and decimals; liquidity
 * mixes full-range and concentrated positions, from deep to thin.
 * `generatePools(seed, count)` returns exactly `count` pools; `generateUniverse` adds the USD prices used.
 */
import { getTickAtSqrtRatio, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "../math/TickMath.ts"
import type { Address, PoolSnapshot, PoolState, RoutingConfig, TokenInfo } from "../types.ts"
import { buildPool, maxUsableTick, minUsableTick, type Position, TICK_SPACINGS, usableTick } from "./PoolBuilder.ts"

/** mulberry32: small, fast, good enough for test data. */
export const prng = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const address = (kind: number, i: number): Address =>
  `0x${kind.toString(16).padStart(2, "0")}${i.toString(16).padStart(38, "0")}`

export const GENERATED_WETH = address(0xee, 1)
export const GENERATED_USDC = address(0xee, 2)
export const GENERATED_DAI = address(0xee, 3)

/** A routing config that fits the generated set. */
export const generatedConfig = (overrides: Partial<RoutingConfig> = {}): RoutingConfig => ({
  wrappedNative: GENERATED_WETH,
  baseTokens: [GENERATED_WETH, GENERATED_USDC, GENERATED_DAI],
  connectorsPerToken: 3,
  secondHopsPerConnector: 1,
  maxHops: 3,
  maxSplits: 3,
  splitStepPercent: 5,
  poolsPerPair: 2,
  minLiquidity: 1n,
  ...overrides
})

interface Token extends TokenInfo {
  readonly usd: number
}

const sqrtBig = (n: bigint): bigint => {
  if (n < 2n) return n
  let x = BigInt(Math.floor(Math.sqrt(Number(n))))
  for (;;) {
    const y = (x + n / x) >> 1n
    if (y >= x && y - x <= 1n) return y * y <= n ? y : x
    x = y
  }
}

export interface GeneratedUniverse {
  readonly snapshot: PoolSnapshot
  /** USD price of one whole token (to size request amounts). */
  readonly usd: ReadonlyMap<Address, number>
}

export const generatePools = (seed: number, count: number): PoolSnapshot => generateUniverse(seed, count).snapshot

export const generateUniverse = (seed: number, count: number): GeneratedUniverse => {
  const rand = prng(seed)
  const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(rand() * xs.length)]!
  const tokens: Array<Token> = [
    { address: GENERATED_WETH, decimals: 18, symbol: "WETH", usd: 3000 },
    { address: GENERATED_USDC, decimals: 6, symbol: "USDC", usd: 1 },
    { address: GENERATED_DAI, decimals: 18, symbol: "DAI", usd: 1 }
  ]
  const others = Math.max(1, Math.ceil(count / 2))
  for (let i = 0; i < others; i++) {
    tokens.push({
      address: address(0xaa, i + 1),
      decimals: pick([18, 18, 18, 6, 8]),
      symbol: `T${i + 1}`,
      usd: 10 ** (rand() * 8 - 6)
    })
  }
  const pools: Array<PoolState> = []
  const used = new Set<string>()
  const makePool = (a: Token, b: Token, fee: number, tvlUsd: number) => {
    const [t0, t1] = a.address < b.address ? [a, b] : [b, a]
    if (t0.address === t1.address || used.has(`${t0.address}${t1.address}${fee}`)) return
    used.add(`${t0.address}${t1.address}${fee}`)
    const ts = TICK_SPACINGS[fee]!
    // Raw price token1 per token0, perturbed a little per pool (pools of one pair are never perfectly aligned).
    const price = (t0.usd / t1.usd) * 10 ** (t1.decimals - t0.decimals) * (1 + (rand() - 0.5) * 0.004)
    const scaled = BigInt(Math.floor(Math.sqrt(price) * 2 ** 48)) << 48n
    const sqrtPriceX96 =
      scaled < MIN_SQRT_RATIO + 1n ? MIN_SQRT_RATIO + 1n : scaled >= MAX_SQRT_RATIO ? MAX_SQRT_RATIO - 1n : scaled
    const tick = getTickAtSqrtRatio(sqrtPriceX96)
    // Full-range liquidity for the TVL: L = sqrt(x · y) with x = TVL/2 in raw token0.
    const x = BigInt(Math.max(1, Math.floor(((tvlUsd / 2 / t0.usd) * 10 ** t0.decimals) / 1e6))) * 1_000_000n
    const base = sqrtBig(x * BigInt(Math.max(1, Math.floor(Number(x) * price)))) || 1n
    const positions: Array<Position> = []
    if (rand() < 0.7) positions.push({ tickLower: minUsableTick(ts), tickUpper: maxUsableTick(ts), liquidity: base })
    const concentrated = 1 + Math.floor(rand() * 6)
    for (let i = 0; i < concentrated; i++) {
      const width = ts * (1 + Math.floor(rand() * 400))
      const lower = usableTick(tick - Math.floor(rand() * width), ts)
      positions.push({
        tickLower: lower,
        tickUpper: Math.min(maxUsableTick(ts), lower + width),
        liquidity: (base * BigInt(1 + Math.floor(rand() * 20))) / 4n + 1n
      })
    }
    const pool = buildPool({
      address: address(0xcc, pools.length + 1),
      token0: t0.address,
      token1: t1.address,
      fee,
      positions,
      sqrtPriceX96
    })
    if (pool.liquidity > 0n) pools.push(pool)
  }
  const [weth, usdc, dai] = tokens as [Token, Token, Token]
  for (const fee of [500, 3000]) {
    makePool(weth, usdc, fee, 50e6)
    makePool(weth, dai, fee, 20e6)
  }
  makePool(usdc, dai, 100, 30e6)
  // Copied once, not per pool (a copy per pool made 100k pools take minutes); the draws are the same.
  const launchLike = tokens.slice(3)
  for (let guard = 0; pools.length < count && guard < count * 20; guard++) {
    const token = pick(launchLike)
    const r = rand()
    const partner = r < 0.6 ? weth : r < 0.75 ? usdc : r < 0.85 ? dai : pick(launchLike)
    makePool(token, partner, pick([500, 3000, 3000, 3000, 10000, 10000]), 10 ** (3 + rand() * 4))
  }
  return {
    snapshot: {
      chainId: 31337,
      blockNumber: 1n,
      pools: pools.slice(0, count),
      tokens: tokens.map(({ usd: _, ...t }) => t)
    },
    usd: new Map(tokens.map((t) => [t.address, t.usd]))
  }
}
