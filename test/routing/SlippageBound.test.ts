import { describe, expect, it } from "vitest"
import { buildMethodParameters, buildMethodParametersWithSdk, slippageBound } from "../../workers/Calldata.ts"
import type { CalldataChain, CalldataOptions } from "../../workers/CalldataTypes.ts"
import { enforcedBound } from "./enforcedBound.ts"
import { getSqrtRatioAtTick } from "../../workers/routing/math/TickMath.ts"
import type { Address, QuoteResult, QuoteToken, RouteResult } from "../../workers/routing/types.ts"
import { quoteOfRoutes } from "./quoteOfRoutes.ts"

/**
 * The quote's `minimumAmountOut` / `maximumAmountIn` (slippageBound) is what the calldata enforces: read back from
 * the calldata the Uniswap SDKs encode (and from the default viem encoder), its amountOutMinimum / sweep minimum
 * (exactIn) or the sum of its amountInMaximum (exactOut), on both routers, one to three routes.
 */

const chain: CalldataChain = {
  chainId: 31337,
  swapRouter02: "0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45",
  universalRouter: "0x66a9893cc07d91d95644aedd05d03f95e1dba8af"
}
const tokenIn: Address = "0x00000000000000000000000000000000000000a1"
const tokenOut: Address = "0x00000000000000000000000000000000000000b2"
const tokens = new Map<string, QuoteToken>([
  [tokenIn, { address: tokenIn, decimals: 18, symbol: "IN" }],
  [tokenOut, { address: tokenOut, decimals: 6, symbol: "OUT" }]
])

/** Single-hop routes at price 1 with distinct fees (one pool each), the given amounts. */
const quoteOf = (type: QuoteResult["type"], amounts: ReadonlyArray<readonly [bigint, bigint]>): QuoteResult => {
  const fees = [500, 3000, 10_000]
  const routes: Array<RouteResult> = amounts.map(([amountIn, amountOut], i) => ({
    percent: 100,
    path: [tokenIn, tokenOut],
    hops: [
      {
        pool: "0x0000000000000000000000000000000000000001",
        tokenIn,
        tokenOut,
        fee: fees[i]!,
        sqrtPriceX96Before: getSqrtRatioAtTick(0),
        sqrtPriceX96After: getSqrtRatioAtTick(0),
        liquidity: 10n ** 24n,
        tickBefore: 0,
        ticksCrossed: 0,
        amountIn,
        amountOut
      }
    ],
    amountIn,
    amountOut,
    gasEstimate: 0n
  }))
  return quoteOfRoutes(type, routes)
}

const cases: Array<{ name: string; type: QuoteResult["type"]; amounts: Array<readonly [bigint, bigint]> }> = [
  { name: "exactIn, one route, 1,000,000 out", type: "exactIn", amounts: [[1_000_000n, 1_000_000n]] },
  {
    name: "exactIn, two routes",
    type: "exactIn",
    amounts: [
      [600_001n, 599_999n],
      [400_003n, 399_997n]
    ]
  },
  {
    name: "exactIn, three routes (sweep)",
    type: "exactIn",
    amounts: [
      [1n, 333_333n],
      [2n, 333_333n],
      [3n, 333_335n]
    ]
  },
  { name: "exactOut, one route", type: "exactOut", amounts: [[1_000_001n, 1_000_000n]] },
  {
    name: "exactOut, three routes",
    type: "exactOut",
    amounts: [
      [333_333n, 1n],
      [333_333n, 2n],
      [333_335n, 3n]
    ]
  }
]

describe("slippageBound: the quote's minimumAmountOut / maximumAmountIn is what the calldata enforces", () => {
  for (const routerType of ["swap-router-02", "universal"] as const)
    for (const c of cases)
      for (const bps of [50n, 100n, 333n])
        it(`${routerType}, ${c.name}, ${bps} bps`, () => {
          const quote = quoteOf(c.type, c.amounts)
          const options: CalldataOptions = {
            routerType,
            slippage: { numerator: bps, denominator: 10_000n },
            recipient: "0x00000000000000000000000000000000000000c3",
            deadline: 2_000_000_000n,
            useRouterBalance: false
          }
          const sdk = buildMethodParametersWithSdk(chain, quote, tokens, options)
          const bound = slippageBound(quote, options.slippage)
          expect(enforcedBound(routerType, sdk.calldata)).toBe(bound)
          expect(enforcedBound(routerType, buildMethodParameters(chain, quote, tokens, options).calldata)).toBe(bound)
        })

  it("the worked example: 1,000,000 out at 50 bps is 995,000, as the SDK enforces (not 995,024)", () => {
    expect(slippageBound(quoteOf("exactIn", [[1n, 1_000_000n]]), { numerator: 50n, denominator: 10_000n })).toBe(
      995_000n
    )
    expect(slippageBound(quoteOf("exactOut", [[1_000_000n, 1n]]), { numerator: 50n, denominator: 10_000n })).toBe(
      1_005_000n
    )
  })
})
