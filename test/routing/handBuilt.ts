/**
 * Hand-built pool sets for the router's unit tests (Router.test.ts, Connectors.test.ts): numbered token addresses,
 * the test's own WETH and USDC as bases, and full-range pools at a chosen price.
 */
import { generatedConfig } from "../../workers/routing/testing/generatePools.ts"
import { buildPool, maxUsableTick, minUsableTick, TICK_SPACINGS } from "../../workers/routing/testing/PoolBuilder.ts"
import type { Address, PoolState, RoutingConfig } from "../../workers/routing/types.ts"

export const token = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`
export const WETH = token(0xe1)
export const USDC = token(0xe2)
export const Q96 = 1n << 96n
export const E18 = 10n ** 18n

let poolCount = 0
/**
 * A pool with full-range `liquidity` at `sqrtPriceX96` (token1 per token0, as √P · 2^96; default 1:1), plus optional
 * concentrated positions `[tickLower, tickUpper, liquidity]`.
 */
export const pool = (
  a: Address,
  b: Address,
  fee: number,
  liquidity: bigint,
  options: { readonly sqrtPriceX96?: bigint; readonly extra?: ReadonlyArray<readonly [number, number, bigint]> } = {}
): PoolState => {
  const ts = TICK_SPACINGS[fee]!
  const [token0, token1] = a < b ? [a, b] : [b, a]
  return buildPool({
    address: token(0xc000 + ++poolCount),
    token0,
    token1,
    fee,
    sqrtPriceX96: options.sqrtPriceX96 ?? Q96,
    positions: [
      { tickLower: minUsableTick(ts), tickUpper: maxUsableTick(ts), liquidity },
      ...(options.extra ?? []).map(([tickLower, tickUpper, l]) => ({ tickLower, tickUpper, liquidity: l }))
    ]
  })
}

/** The generated set's routing settings, with these tests' own WETH and USDC as the bases. */
export const config = (overrides: Partial<RoutingConfig> = {}): RoutingConfig =>
  generatedConfig({ wrappedNative: WETH, baseTokens: [WETH, USDC], ...overrides })
