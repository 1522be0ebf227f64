import { HttpServerResponse } from "effect/http"
import type { GetQuoteResponse } from "./QuoteModels.ts"
import { describe, type QuoteOutcome } from "./Quotes.ts"

/** The summary both response shapes (GetQuoteResponse, PartnerQuoteResponse) share, in their schemas' field order. */
export const quoteSummary = (o: QuoteOutcome) => {
  const { routeString, quote, quoteDecimals } = describe(o)
  const token = (a: string) => {
    const t = o.tokens.get(a)!
    return { address: t.address, decimals: t.decimals, symbol: t.symbol }
  }
  const r = o.result
  const bps = Number((o.input.slippage.numerator * 10_000n) / o.input.slippage.denominator)
  return {
    quoteId: o.quoteId,
    chainId: o.chainId,
    type: r.type,
    amount: o.amount.toString(),
    amountIn: r.amountIn.toString(),
    amountOut: r.amountOut.toString(),
    quote: quote.toString(),
    quoteDecimals,
    quoteGasAdjusted: r.quoteGasAdjusted.toString(),
    gasUseEstimate: r.gasEstimate.toString(),
    gasUseEstimateQuote: r.gasCostInQuoteToken === null ? null : r.gasCostInQuoteToken.toString(),
    gasPriceWei: o.gasPriceWei.toString(),
    l1DataFeeWei: o.l1DataFeeWei === null ? null : o.l1DataFeeWei.toString(),
    priceImpact: (r.priceImpactPpm / 10_000).toFixed(4),
    blockNumber: r.blockNumber.toString(),
    tokenIn: token(o.tokenIn.address),
    tokenOut: token(o.tokenOut.address),
    route: r.routes.map((route) =>
      route.hops.map((h) => ({
        type: "v3-pool" as const,
        address: h.pool,
        tokenIn: token(h.tokenIn),
        tokenOut: token(h.tokenOut),
        fee: h.fee,
        sqrtRatioX96: h.sqrtPriceX96Before.toString(),
        liquidity: h.liquidity.toString(),
        tickCurrent: h.tickBefore,
        amountIn: h.amountIn.toString(),
        amountOut: h.amountOut.toString()
      }))
    ),
    routeString,
    routerType: o.input.routerType,
    slippageBps: bps,
    minimumAmountOut: r.type === "exactIn" ? o.bound.toString() : null,
    maximumAmountIn: r.type === "exactOut" ? o.bound.toString() : null,
    deadline: o.deadline.toString()
  }
}

/** The body of `GET /api/v1/quote`: already in GetQuoteResponse's encoded form (every field a string, number or null). */
export const getQuoteBody = (o: QuoteOutcome): typeof GetQuoteResponse.Encoded => {
  const { calldata, value, to } = o.methodParameters
  return { ...quoteSummary(o), methodParameters: { calldata, value, to } }
}

/**
 * The 200 of `GET /api/v1/quote`, serialised here rather than by HttpApi's success encoder: the body is already
 * GetQuoteResponse's encoded form, so encoding it again through the Schema (a walk of every field and hop) only
 * cost the main thread time per quote. The bytes are those the encoder writes (`JSON.stringify` of the encoded
 * value, `application/json`, 200): test/quotes/QuoteBody.test.ts checks it on random quotes, so GetQuoteResponse
 * stays the one definition of the body (the OpenAPI document and the MCP tools are derived from it).
 */
export const getQuoteResponse = (o: QuoteOutcome) =>
  HttpServerResponse.text(JSON.stringify(getQuoteBody(o)), { contentType: "application/json" })
