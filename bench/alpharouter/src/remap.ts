/**
 * Address remapping between our chain and the chain 1 that AlphaRouter is told it runs on.
 *
 * Why: `@uniswap/smart-order-router` throws "Unknown chain id" for 31337, and even with every provider injected it
 * reads chain-1 constants directly: WETH9 (`WRAPPED_NATIVE_CURRENCY[1]`) for gas and native routing, and the USD
 * tokens of `usdGasTokensByChain[1]` (DAI, USDC, USDT) for the gas-in-USD pool it insists on finding. So we pretend to
 * be chain 1 and rename exactly two of our tokens: our WETH becomes WETH9 of chain 1, and our stablecoin becomes DAI
 * (when it has 18 decimals) or USDC (6 decimals). Every other token keeps its own address. Pools keep our addresses
 * (the in-memory pool provider answers `getPoolAddress` itself, no CREATE2 with the chain-1 factory).
 *
 * A renamed token can sort on the other side of its pair (Uniswap orders token0 < token1 by address). Such a pool is
 * shown to the SOR inverted (price 1/p, tick from that price); the swaps themselves are always simulated on our own,
 * untouched pool state (providers.ts), so no rounding of the inversion ever reaches a quote.
 */
import { createRequire } from "node:module"
import type { RolesJson, TokenJson } from "./snapshot.ts"

const require = createRequire(import.meta.url)
const sor = require("@uniswap/smart-order-router") as typeof import("@uniswap/smart-order-router")

export const CHAIN_ID = 1

const lower = (a: string) => a.toLowerCase()

export interface Remap {
  /** Our address → the address the SOR sees (lowercase both ways). */
  readonly toSor: (ours: string) => string
  readonly toOurs: (theirs: string) => string
  /** True when the SOR's token0 of this pair is our token1. */
  readonly flipped: (token0: string, token1: string) => boolean
}

export const makeRemap = (roles: RolesJson, tokens: ReadonlyArray<TokenJson>): Remap => {
  const weth9 = lower(sor.WRAPPED_NATIVE_CURRENCY[CHAIN_ID]!.address)
  const usd = tokens.find((t) => lower(t.address) === lower(roles.usdToken))
  if (usd === undefined) throw new Error(`usdToken ${roles.usdToken} is not in the snapshot's tokens`)
  const usdTarget = usd.decimals === 18 ? sor.DAI_MAINNET : usd.decimals === 6 ? sor.USDC_MAINNET : undefined
  if (usdTarget === undefined)
    throw new Error(`usdToken has ${usd.decimals} decimals; only 18 (DAI) or 6 (USDC) map to a chain-1 USD token`)
  const forward = new Map<string, string>([
    [lower(roles.wrappedNative), weth9],
    [lower(roles.usdToken), lower(usdTarget.address)]
  ])
  const backward = new Map<string, string>()
  for (const [ours, theirs] of forward) backward.set(theirs, ours)
  for (const t of tokens) {
    const a = lower(t.address)
    // One of our other tokens sitting on a renamed address would make the mapping ambiguous.
    if (!forward.has(a) && backward.has(a)) throw new Error(`token ${a} collides with a renamed chain-1 address`)
  }
  const toSor = (ours: string) => forward.get(lower(ours)) ?? lower(ours)
  const toOurs = (theirs: string) => backward.get(lower(theirs)) ?? lower(theirs)
  return { toSor, toOurs, flipped: (token0, token1) => toSor(token0) > toSor(token1) }
}

const Q192 = 1n << 192n

/** The price of an inverted pair: sqrt(1/p) in Q64.96, clamped into TickMath's range. */
export const invertSqrtPrice = (sqrtPriceX96: bigint, min: bigint, max: bigint): bigint => {
  const inv = Q192 / sqrtPriceX96
  return inv < min ? min : inv >= max ? max - 1n : inv
}
