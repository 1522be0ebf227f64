/**
 * Requests for `npm run bench:quotes`: random pairs of tokens of a snapshot that both have a WETH price (so a route
 * can exist), sized by value in ETH (log-uniform between `minEth` and `maxEth`) and converted into the exact token's
 * units; half exactIn, half exactOut. Deterministic for a given seed.
 */
import type { Address, PoolSnapshot, QuoteRequest } from "../../workers/routing/types.ts"
import { prng } from "../../workers/routing/testing/generatePools.ts"

/** Price of one whole token in ETH from its deepest WETH pool (mid price), WETH itself 1. */
export const pricesInEth = (snapshot: PoolSnapshot, weth: Address): Map<Address, number> => {
  const decimals = new Map(snapshot.tokens.map((t) => [t.address, t.decimals]))
  const best = new Map<Address, { price: number; liquidity: bigint }>()
  for (const p of snapshot.pools) {
    if (p.token0 !== weth && p.token1 !== weth) continue
    const other = p.token0 === weth ? p.token1 : p.token0
    const d0 = decimals.get(p.token0) ?? 18
    const d1 = decimals.get(p.token1) ?? 18
    const p1per0 = (Number(p.sqrtPriceX96) / 2 ** 96) ** 2 * 10 ** (d0 - d1) // whole token1 per whole token0
    const price = p.token0 === weth ? 1 / p1per0 : p1per0
    const seen = best.get(other)
    if (Number.isFinite(price) && price > 0 && (seen === undefined || p.liquidity > seen.liquidity))
      best.set(other, { price, liquidity: p.liquidity })
  }
  return new Map<Address, number>([[weth, 1], ...[...best].map(([a, v]) => [a, v.price] as const)])
}

export interface RequestPlan {
  readonly count: number
  readonly seed: number
  readonly minEth: number
  readonly maxEth: number
  readonly gasPriceWei: bigint
  /** Tokens to draw from (default: every priced token). */
  readonly tokens?: ReadonlyArray<Address>
  /** Pairs always included first (e.g. WETH → launch token and back). */
  readonly pinned?: ReadonlyArray<readonly [Address, Address]>
}

export const makeRequests = (snapshot: PoolSnapshot, weth: Address, plan: RequestPlan): Array<QuoteRequest> => {
  const random = prng(plan.seed)
  const prices = pricesInEth(snapshot, weth)
  const decimals = new Map(snapshot.tokens.map((t) => [t.address, t.decimals]))
  const pool = (plan.tokens ?? [...prices.keys()]).filter((t) => prices.has(t))
  if (pool.length < 2) throw new Error("fewer than two priced tokens to draw requests from")
  const out: Array<QuoteRequest> = []
  for (let i = 0; out.length < plan.count && i < plan.count * 10; i++) {
    const pinned = plan.pinned?.[i]
    const tokenIn = pinned?.[0] ?? pool[Math.floor(random() * pool.length)]!
    const tokenOut = pinned?.[1] ?? pool[Math.floor(random() * pool.length)]!
    if (tokenIn === tokenOut) continue
    const type = out.length % 2 === 0 ? "exactIn" : "exactOut"
    const exact = type === "exactIn" ? tokenIn : tokenOut
    const valueEth = plan.minEth * (plan.maxEth / plan.minEth) ** random()
    const amount = BigInt(
      Math.max(1, Math.floor((valueEth / prices.get(exact)!) * 10 ** (decimals.get(exact) ?? 18))).toLocaleString(
        "fullwide",
        { useGrouping: false }
      )
    )
    out.push({ tokenIn, tokenOut, amount, type, gasPriceWei: plan.gasPriceWei })
  }
  return out
}
