import type { QuoteResult, RouteResult } from "../../workers/routing/types.ts"

/** A quote over given routes, with its totals summed and no gas: the calldata tests need only the routes and amounts. */
export const quoteOfRoutes = (type: QuoteResult["type"], routes: ReadonlyArray<RouteResult>): QuoteResult => ({
  type,
  routes: [...routes],
  amountIn: routes.reduce((s, r) => s + r.amountIn, 0n),
  amountOut: routes.reduce((s, r) => s + r.amountOut, 0n),
  gasEstimate: 0n,
  gasCostWei: 0n,
  gasCostInQuoteToken: null,
  gasRate: null,
  quoteGasAdjusted: 0n,
  priceImpactPpm: 0,
  blockNumber: 0n
})
