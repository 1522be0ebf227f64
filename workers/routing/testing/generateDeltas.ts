/**
 * Deltas for a generated pool set (./generatePools.ts), as indexer batches produce them: per block, some pools
 * swapped (their price, tick and in-range liquidity moved by an exact swap of up to ~5 % of the in-range reserve),
 * some given a new position around the price (ticks and liquidity changed), some removed (a rolled-back pool) and
 * some added from a held-back list (a pool created since, with its tokens). Consistent states, so that quotes on
 * them run the same swap maths as on the chain. Used by the delta tests (test/quotes/WorkerDeltas.test.ts) and
 * the scale bench (scripts/bench-quote-scale.ts).
 */
import { swap } from "../math/PoolSwap.ts"
import type { Address, PoolDelta, PoolState, QuoteRequest, TickState, TokenInfo } from "../types.ts"
import { maxUsableTick, minUsableTick, usableTick } from "./PoolBuilder.ts"

export interface DeltaMix {
  readonly swapped: number
  readonly minted?: number
  readonly removed?: number
  readonly added?: number
}

const Q96 = 2n ** 96n

/** A swap of `ppm` millionths of the pool's in-range reserve of its input token; the pool as the swap leaves it. */
export const swapped = (pool: PoolState, zeroForOne: boolean, ppm: number): PoolState => {
  const reserve = zeroForOne ? (pool.liquidity * Q96) / pool.sqrtPriceX96 : (pool.liquidity * pool.sqrtPriceX96) / Q96
  const amount = (reserve * BigInt(Math.max(1, ppm))) / 1_000_000n
  if (amount <= 0n) return pool
  const result = swap(pool, zeroForOne, amount)
  if (!result.filled || result.liquidity <= 0n) return pool
  return { ...pool, sqrtPriceX96: result.sqrtPriceX96, tick: result.tick, liquidity: result.liquidity }
}

/** A new position of `liquidity` over [lower, upper) around the price; the pool with its ticks merged. */
export const minted = (pool: PoolState, halfWidthSpacings: number, liquidity: bigint): PoolState => {
  const ts = pool.tickSpacing
  const lower = Math.max(minUsableTick(ts), usableTick(pool.tick - halfWidthSpacings * ts, ts))
  const upper = Math.min(maxUsableTick(ts), Math.max(lower + ts, usableTick(pool.tick + halfWidthSpacings * ts, ts)))
  const net = new Map<number, bigint>(pool.ticks.map((t) => [t.index, t.liquidityNet]))
  net.set(lower, (net.get(lower) ?? 0n) + liquidity)
  net.set(upper, (net.get(upper) ?? 0n) - liquidity)
  const ticks: Array<TickState> = [...net.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, liquidityNet]) => ({ index, liquidityNet }))
  const inRange = lower <= pool.tick && pool.tick < upper
  return { ...pool, ticks, liquidity: inRange ? pool.liquidity + liquidity : pool.liquidity }
}

/**
 * Makes deltas over a current pool map (updated in place as each delta is made, so the next one builds on it).
 * `pending` holds pools not yet in the state, added in order; `tokensOf` gives a token's info for an added pool.
 */
export const makeDeltaSource = (input: {
  readonly chainId: number
  readonly pools: Map<Address, PoolState>
  readonly pending: Array<PoolState>
  readonly tokens: ReadonlyMap<Address, TokenInfo>
  readonly rand: () => number
}) => {
  const { pools, pending, rand } = input
  let keys = [...pools.keys()]
  const pickLive = (): PoolState | undefined => {
    for (let tries = 0; tries < 8 && keys.length > 0; tries++) {
      const pool = pools.get(keys[Math.floor(rand() * keys.length)]!)
      if (pool !== undefined) return pool
    }
    return undefined
  }
  return (blockNumber: bigint, mix: DeltaMix): PoolDelta => {
    const changed = new Map<Address, PoolState>()
    const removed: Array<Address> = []
    for (let i = 0; i < mix.swapped; i++) {
      const pool = pickLive()
      if (pool !== undefined) changed.set(pool.address, swapped(pool, rand() < 0.5, 1 + Math.floor(rand() * 50_000)))
    }
    for (let i = 0; i < (mix.minted ?? 0); i++) {
      const pool = pickLive()
      if (pool !== undefined)
        changed.set(
          pool.address,
          minted(pool, 1 + Math.floor(rand() * 50), (pool.liquidity * BigInt(1 + Math.floor(rand() * 100))) / 100n + 1n)
        )
    }
    for (let i = 0; i < (mix.removed ?? 0); i++) {
      const pool = pickLive()
      if (pool !== undefined && !changed.has(pool.address)) removed.push(pool.address)
    }
    const tokens = new Map<Address, TokenInfo>()
    for (let i = 0; i < (mix.added ?? 0) && pending.length > 0; i++) {
      const pool = pending.shift()!
      changed.set(pool.address, pool)
      for (const t of [pool.token0, pool.token1]) {
        const info = input.tokens.get(t)
        if (info !== undefined) tokens.set(t, info)
      }
    }
    for (const a of removed) pools.delete(a)
    for (const [a, p] of changed) pools.set(a, p)
    if (removed.length > 0 || (mix.added ?? 0) > 0) keys = [...pools.keys()]
    return { chainId: input.chainId, blockNumber, pools: [...changed.values()], removed, tokens: [...tokens.values()] }
  }
}

/**
 * Random quote requests between the tokens of `pools`, worth $10 to $100k (`usd`: a token's dollar price), both trade
 * types. `tokens` is read at each call, so tokens a delta adds later are known by then.
 */
export const randomQuoteRequests = (
  pools: ReadonlyArray<PoolState>,
  tokens: ReadonlyMap<Address, TokenInfo>,
  usd: ReadonlyMap<Address, number>,
  rand: () => number
) => {
  const traded = [...new Set(pools.flatMap((p) => [p.token0, p.token1]))]
  return (): QuoteRequest => {
    const a = traded[Math.floor(rand() * traded.length)]!
    let b = a
    while (b === a) b = traded[Math.floor(rand() * traded.length)]!
    const type = rand() < 0.5 ? ("exactIn" as const) : ("exactOut" as const)
    const token = tokens.get(type === "exactIn" ? a : b)!
    const whole = (10 ** (1 + rand() * 4) / usd.get(token.address)!) * 10 ** Math.min(token.decimals, 12)
    const amount = BigInt(Math.max(1, Math.floor(whole))) * 10n ** BigInt(Math.max(0, token.decimals - 12))
    return { tokenIn: a, tokenOut: b, amount, type, gasPriceWei: 1_000_000_000n }
  }
}
