/**
 * Generated pools for `npm run bench:quotes` (interim: replaced by the routing core's `generatePools` once it lands):
 * `count` Uniswap v3 pools over `count / 3` tokens of 6, 8 or 18 decimals, attached to the given WETH and stablecoin
 * (so that they merge with the devnet's pools): a third paired with WETH, a tenth with the stablecoin, the rest
 * between tokens; fees 0.01–1 % with their standard spacings; one pool per pair and fee (as the factory enforces).
 * Each pool holds 1–6 positions (often one full range) whose TVL is log-uniform from 0.1 to 10,000 ETH; ticks carry
 * the positions' liquidityNet and the in-range liquidity is their sum, so a swap across them is exact.
 */
import { createRequire } from "node:module"
import type { Address, PoolSnapshot, PoolState, TickState, TokenInfo } from "../../workers/routing/types.ts"

const require = createRequire(import.meta.url)
const v3 = require("@uniswap/v3-sdk") as { TickMath: { getSqrtRatioAtTick: (t: number) => { toString: () => string }; MIN_TICK: number; MAX_TICK: number } }
const sqrtAt = (tick: number) => BigInt(v3.TickMath.getSqrtRatioAtTick(tick).toString())

export const rng = (seed: number) => () => {
  // mulberry32: deterministic, and good enough for shapes of pools.
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

const FEES: ReadonlyArray<readonly [number, number]> = [[100, 1], [500, 10], [3000, 60], [10000, 200]]
const hex = (prefix: number, i: number) => `0x${prefix.toString(16).padStart(8, "0")}${i.toString(16).padStart(32, "0")}` as Address

export interface GeneratedPools {
  readonly pools: ReadonlyArray<PoolState>
  readonly tokens: ReadonlyArray<TokenInfo>
  /** Price of one whole token in ETH, per token (for sizing requests). */
  readonly priceEth: ReadonlyMap<Address, number>
}

export const generatePools = (seed: number, count: number, weth: Address, stable: Address, ethUsd = 3000): GeneratedPools => {
  const random = rng(seed)
  const tokenCount = Math.max(4, Math.ceil(count / 3))
  const tokens: Array<TokenInfo> = []
  const priceEth = new Map<Address, number>([[weth, 1], [stable, 1 / ethUsd]])
  for (let i = 0; i < tokenCount; i++) {
    const address = hex(0xb0000000 + seed, i + 1)
    tokens.push({ address, decimals: [6, 8, 18, 18][Math.floor(random() * 4)]!, symbol: `G${i}` })
    priceEth.set(address, 10 ** (-8 + random() * 9)) // 1e-8 … 10 ETH
  }
  const decimals = new Map<Address, number>([[weth, 18], [stable, 18], ...tokens.map((t) => [t.address, t.decimals] as const)])
  const pools: Array<PoolState> = []
  const seen = new Set<string>()
  // A deep WETH/stablecoin pool at 0.05 % (the devnet's is at 0.3 %): gas priced in USD needs one, as on mainnet.
  if (count > 0) {
    const [s0, s1] = weth < stable ? [weth, stable] : [stable, weth]
    pools.push(makePool(random, hex(0xc0000000 + seed, 0), s0, s1, 500, 10, priceEth, new Map([[weth, 18], [stable, 18]]), 50_000))
    seen.add(`${weth}${stable}500`).add(`${stable}${weth}500`)
  }
  for (let n = 0; pools.length < count && n < count * 20; n++) {
    const a = tokens[Math.floor(random() * tokens.length)]!.address
    const roll = random()
    const b = roll < 0.33 ? weth : roll < 0.43 ? stable : tokens[Math.floor(random() * tokens.length)]!.address
    const [fee, spacing] = FEES[Math.floor(random() * FEES.length)]!
    if (a === b || seen.has(`${a}${b}${fee}`)) continue
    seen.add(`${a}${b}${fee}`).add(`${b}${a}${fee}`)
    const [token0, token1] = a < b ? [a, b] : [b, a]
    pools.push(makePool(random, hex(0xc0000000 + seed, pools.length + 1), token0, token1, fee, spacing, priceEth, decimals))
  }
  return { pools, tokens, priceEth }
}

const makePool = (
  random: () => number, address: Address, token0: Address, token1: Address, fee: number, tickSpacing: number,
  priceEth: ReadonlyMap<Address, number>, decimals: ReadonlyMap<Address, number>, fixedTvlEth?: number
): PoolState => {
  const d0 = decimals.get(token0)!
  const d1 = decimals.get(token1)!
  // token1 per token0 in base units, ±2 % off the tokens' reference prices (so routes differ between pools).
  const price = (priceEth.get(token0)! / priceEth.get(token1)!) * 10 ** (d1 - d0) * (0.98 + random() * 0.04)
  const tick = Math.max(-880_000, Math.min(880_000, Math.floor(Math.log(price) / Math.log(1.0001))))
  const lo = sqrtAt(tick)
  const sqrtPriceX96 = lo + ((sqrtAt(tick + 1) - lo) * BigInt(Math.floor(random() * 1e6))) / 1_000_000n
  const minTick = Math.ceil(v3.TickMath.MIN_TICK / tickSpacing) * tickSpacing
  const maxTick = Math.floor(v3.TickMath.MAX_TICK / tickSpacing) * tickSpacing
  const sqrtP = Math.sqrt(price)
  const tvlEth = fixedTvlEth ?? 10 ** (-1 + random() * 5)
  // Full-range liquidity that holds about `tvlEth`: value of token1 side = L·√P (base units of token1).
  const fullL = (tvlEth / 2 / priceEth.get(token1)!) * 10 ** d1 / sqrtP
  const net = new Map<number, bigint>()
  let active = 0n
  const positions = 1 + Math.floor(random() * 6)
  for (let k = 0; k < positions; k++) {
    const full = k === 0 && random() < 0.7
    const width = (1 + Math.floor(random() * 60)) * tickSpacing
    const centre = Math.floor(tick / tickSpacing) * tickSpacing + Math.floor((random() - 0.5) * 20) * tickSpacing
    const lower = full ? minTick : Math.max(minTick, centre - width)
    const upper = full ? maxTick : Math.min(maxTick, centre + width)
    if (lower >= upper) continue
    const share = full ? 1 : random() * 3 * Math.sqrt(887272 / (upper - lower)) / 20
    const liquidity = BigInt(Math.max(1, Math.floor(fullL * share)))
    net.set(lower, (net.get(lower) ?? 0n) + liquidity)
    net.set(upper, (net.get(upper) ?? 0n) - liquidity)
    if (lower <= tick && tick < upper) active += liquidity
  }
  const ticks: Array<TickState> = [...net.entries()].filter(([, l]) => l !== 0n).sort((x, y) => x[0] - y[0]).map(([index, liquidityNet]) => ({ index, liquidityNet }))
  return { address, token0, token1, fee, tickSpacing, sqrtPriceX96, tick, liquidity: active, ticks }
}

/** Devnet pools and generated pools as one snapshot (the generated set attaches to the devnet's WETH and stablecoin). */
export const mergeSnapshots = (base: PoolSnapshot, extra: GeneratedPools): PoolSnapshot => ({
  chainId: base.chainId,
  blockNumber: base.blockNumber,
  pools: [...base.pools, ...extra.pools],
  tokens: [...base.tokens, ...extra.tokens.filter((t) => !base.tokens.some((b) => b.address === t.address))]
})
