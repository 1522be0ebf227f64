/**
 * Builds consistent pool states for tests and benchmarks from liquidity positions, the way a real pool accumulates
 * them: each position adds +L at its lower tick and −L at its upper tick, and the in-range liquidity is the sum of
 * the positions that contain the current tick. Used by the property test (against v3-sdk) and by generatePools.
 */
import { getSqrtRatioAtTick, getTickAtSqrtRatio, MAX_TICK, MIN_TICK } from "../math/TickMath.ts"
import type { Address, PoolState, TickState } from "../types.ts"

export interface Position {
  readonly tickLower: number
  readonly tickUpper: number
  readonly liquidity: bigint
}

export const TICK_SPACINGS: Readonly<Record<number, number>> = { 100: 1, 500: 10, 3000: 60, 10000: 200 }

export const minUsableTick = (tickSpacing: number) => Math.ceil(MIN_TICK / tickSpacing) * tickSpacing
export const maxUsableTick = (tickSpacing: number) => Math.floor(MAX_TICK / tickSpacing) * tickSpacing

/** Rounds a tick to the spacing and clamps it into the usable range. */
export const usableTick = (tick: number, tickSpacing: number) =>
  Math.min(
    maxUsableTick(tickSpacing),
    Math.max(minUsableTick(tickSpacing), Math.round(tick / tickSpacing) * tickSpacing)
  )

/** Initialized ticks (sorted) of a set of positions; a tick whose net cancels out stays initialized, as on chain. */
export const ticksOf = (positions: ReadonlyArray<Position>): Array<TickState> => {
  const net = new Map<number, bigint>()
  for (const p of positions) {
    net.set(p.tickLower, (net.get(p.tickLower) ?? 0n) + p.liquidity)
    net.set(p.tickUpper, (net.get(p.tickUpper) ?? 0n) - p.liquidity)
  }
  return [...net.entries()].sort(([a], [b]) => a - b).map(([index, liquidityNet]) => ({ index, liquidityNet }))
}

export interface PoolInput {
  readonly address: Address
  readonly token0: Address
  readonly token1: Address
  readonly fee: number
  readonly positions: ReadonlyArray<Position>
  readonly sqrtPriceX96: bigint
  /** Defaults to getTickAtSqrtRatio; pass tick − 1 with a price exactly on a tick to get the state a downward crossing leaves. */
  readonly tick?: number
}

export const buildPool = (input: PoolInput): PoolState => {
  const tickSpacing = TICK_SPACINGS[input.fee]
  if (tickSpacing === undefined) throw new Error(`no tick spacing for fee ${input.fee}`)
  const positions = input.positions.filter((p) => p.liquidity > 0n && p.tickLower < p.tickUpper)
  const tick = input.tick ?? getTickAtSqrtRatio(input.sqrtPriceX96)
  let liquidity = 0n
  for (const p of positions) if (p.tickLower <= tick && tick < p.tickUpper) liquidity += p.liquidity
  return {
    address: input.address,
    token0: input.token0,
    token1: input.token1,
    fee: input.fee,
    tickSpacing,
    sqrtPriceX96: input.sqrtPriceX96,
    tick,
    liquidity,
    ticks: ticksOf(positions)
  }
}

/** A price strictly inside tick `tick`'s range at `fraction` ∈ [0, 1) of the way to the next tick (deterministic). */
export const priceInTick = (tick: number, fractionPpm: number): bigint => {
  const low = getSqrtRatioAtTick(tick)
  const high = getSqrtRatioAtTick(Math.min(MAX_TICK, tick + 1))
  return low + ((high - low) * BigInt(Math.max(0, Math.min(999_999, fractionPpm)))) / 1_000_000n
}
