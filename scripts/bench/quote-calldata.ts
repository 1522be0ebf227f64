/**
 * Calldata encoding in process, part of `npm run bench:quotes`: the viem encoder (workers/ViemCalldata.ts, the
 * default) against the Uniswap SDKs (the baseline, QUOTE_CALLDATA_ENCODER=sdk), alternating rounds in one process, on
 * three trades of the devnet's shape (WETH → token, 1.0001^0 prices): one single-hop route, a split of a single-hop
 * and a two-hop route, and a split of three routes (the aggregated-slippage branch with its sweep), for both routers.
 */
import { buildMethodParameters } from "../../workers/Calldata.ts"
import type { CalldataOptions } from "../../workers/CalldataTypes.ts"
import type { Address, HopResult, QuoteResult, RouteResult } from "../../workers/routing/types.ts"
import { quoteOfRoutes } from "../../test/routing/quoteOfRoutes.ts"

const token = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`
const [WETH, TOKEN, USDC, DAI] = [token(0xa1), token(0xb2), token(0xc3), token(0xd4)]
const Q96 = 1n << 96n

const hop = (tokenIn: Address, tokenOut: Address, fee: number): HopResult => ({
  pool: token(0xff),
  tokenIn,
  tokenOut,
  fee,
  sqrtPriceX96Before: Q96,
  sqrtPriceX96After: Q96,
  liquidity: 10n ** 24n,
  tickBefore: 0,
  ticksCrossed: 0,
  amountIn: 10n ** 17n,
  amountOut: 99n * 10n ** 15n
})
const route = (hops: Array<HopResult>): RouteResult => ({
  percent: 50,
  path: [hops[0]!.tokenIn, ...hops.map((h) => h.tokenOut)],
  hops,
  amountIn: 10n ** 17n,
  amountOut: 99n * 10n ** 15n,
  gasEstimate: 0n
})
const trade = (routes: Array<RouteResult>): QuoteResult => quoteOfRoutes("exactIn", routes)

const trades: ReadonlyArray<readonly [string, QuoteResult]> = [
  ["1 route, 1 hop", trade([route([hop(WETH, TOKEN, 3000)])])],
  [
    "2 routes (1 + 2 hops)",
    trade([route([hop(WETH, TOKEN, 3000)]), route([hop(WETH, USDC, 500), hop(USDC, TOKEN, 500)])])
  ],
  [
    "3 routes (aggregated)",
    trade([
      route([hop(WETH, TOKEN, 3000)]),
      route([hop(WETH, USDC, 500), hop(USDC, TOKEN, 500)]),
      route([hop(WETH, DAI, 100), hop(DAI, TOKEN, 10_000)])
    ])
  ]
]
const tokens = new Map([WETH, TOKEN, USDC, DAI].map((t) => [t, { address: t, decimals: 18, symbol: "T" }]))
const chain = { chainId: 31337, swapRouter02: token(0x02_02), universalRouter: token(0x03_03) }

const microsPerEncoding = (quote: QuoteResult, options: CalldataOptions, count: number) => {
  const start = performance.now()
  for (let i = 0; i < count; i++) buildMethodParameters(chain, quote, tokens, options)
  return ((performance.now() - start) * 1000) / count
}

/** Lines of `µs per encoding` per trade and router, viem vs SDK (best of `rounds` alternating rounds each). */
export const benchCalldataEncoding = (rounds = 3, count = 300): Array<string> =>
  (["swap-router-02", "universal"] as const).flatMap((routerType) =>
    trades.map(([name, quote]) => {
      const options = (encoder: "viem" | "sdk"): CalldataOptions => ({
        routerType,
        slippage: { numerator: 50n, denominator: 10_000n },
        recipient: token(0xbeef),
        deadline: 1_900_000_000n,
        useRouterBalance: false,
        encoder
      })
      const best = { viem: Number.POSITIVE_INFINITY, sdk: Number.POSITIVE_INFINITY }
      for (let round = 0; round < rounds; round++)
        for (const encoder of ["viem", "sdk"] as const)
          best[encoder] = Math.min(best[encoder], microsPerEncoding(quote, options(encoder), count))
      return `${routerType.padEnd(15)} ${name.padEnd(24)} viem ${best.viem.toFixed(0).padStart(5)} µs, SDKs ${best.sdk.toFixed(0).padStart(5)} µs per encoding (×${(best.sdk / best.viem).toFixed(1)})`
    })
  )
