import { Schema } from "effect"
import { AddressParam } from "../Ids.ts"

/** Response and request schemas of the quote routes (spec "Quote records"). Amounts are base-unit decimal strings. */

const devnetWeth = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const devnetUsdt = "0x9A9f2CCfdE556A7E9Ff0848998Aa4a0CFD8863AE"
const devnetAccount = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

const Amount = Schema.String.annotate({ description: "Base units, decimal string", examples: ["1000000000000000000"] })
const Addr = Schema.String.annotate({ description: "EVM address, 0x + 40 hex digits" })
const Hex = Schema.String.annotate({ description: "0x-prefixed hex" })

export const QuoteTokenModel = Schema.Struct({ address: Addr, decimals: Schema.Int, symbol: Schema.String })

export const HopModel = Schema.Struct({
  type: Schema.Literal("v3-pool"),
  address: Addr.annotate({ description: "Pool address" }),
  tokenIn: QuoteTokenModel,
  tokenOut: QuoteTokenModel,
  fee: Schema.Int.annotate({ description: "Fee tier in hundredths of a bip (500 = 0.05 %)" }),
  sqrtRatioX96: Schema.String.annotate({ description: "Pool price before the swap (Q64.96)" }),
  liquidity: Schema.String.annotate({ description: "In-range liquidity before the swap" }),
  tickCurrent: Schema.Int,
  amountIn: Amount,
  amountOut: Amount
})

const QuoteSummaryFields = {
  quoteId: Schema.String.annotate({ description: "Unique id of this quote (for support and logs)" }),
  chainId: Schema.Int,
  type: Schema.Literals(["exactIn", "exactOut"]),
  amount: Amount.annotate({ description: "The requested amount (input for exactIn, output for exactOut)" }),
  amountIn: Amount,
  amountOut: Amount,
  quote: Amount.annotate({ description: "exactIn: output amount; exactOut: input amount" }),
  quoteDecimals: Schema.String.annotate({ description: "`quote` in token units" }),
  quoteGasAdjusted: Amount.annotate({
    description:
      "exactIn: quote − gas cost in the output token; exactOut: quote + gas cost in the input token (equal to quote when no WETH price path exists)"
  }),
  gasUseEstimate: Schema.String.annotate({ description: "Estimated gas units of the swap" }),
  gasUseEstimateQuote: Schema.NullOr(Schema.String).annotate({
    description:
      "Gas cost in the quote token: gasUseEstimate × gasPriceWei plus, on OP-stack chains, l1DataFeeWei, converted at the WETH mid price (null without a WETH price path, or while the L1 data fee is unknown)"
  }),
  gasPriceWei: Schema.String,
  l1DataFeeWei: Schema.NullOr(Schema.String).annotate({
    description:
      "OP-stack chains (Base, OP Mainnet…): the transaction's L1 data fee in wei, as the GasPriceOracle predeploy's getL1Fee would answer it (computed with its formula from its values of a recent block), included in gasUseEstimateQuote; null on other chains or while those values are unknown (not yet read, or the oracle unreadable)"
  }),
  priceImpact: Schema.String.annotate({
    description: 'Price impact in percent against the mid price along the route (e.g. "0.1250")'
  }),
  blockNumber: Schema.String.annotate({ description: "Indexed block the pool state was read at" }),
  tokenIn: QuoteTokenModel,
  tokenOut: QuoteTokenModel,
  route: Schema.Array(Schema.Array(HopModel)).annotate({ description: "One array of hops per route of the split" }),
  routeString: Schema.String.annotate({
    description: "Human-readable route, e.g. `[V3] 100.00% = EMBR -- 1% [0x2112] --> WETH`"
  }),
  routerType: Schema.Literals(["swap-router-02", "universal"]),
  slippageBps: Schema.Int,
  minimumAmountOut: Schema.NullOr(Amount).annotate({
    description: "exactIn: the least the calldata accepts (quote after slippage)"
  }),
  maximumAmountIn: Schema.NullOr(Amount).annotate({
    description: "exactOut: the most the calldata spends (quote after slippage)"
  }),
  deadline: Schema.String.annotate({ description: "Unix seconds after which the calldata reverts" })
}

export const GetQuoteResponse = Schema.Struct({
  ...QuoteSummaryFields,
  methodParameters: Schema.Struct({
    calldata: Hex.annotate({ description: "Transaction data (key `calldata`, lowercase, in this schema only)" }),
    value: Hex.annotate({ description: "Wei to send, hex" }),
    to: Addr.annotate({ description: "The router to call" })
  })
}).annotate({ identifier: "GetQuoteResponse" })

export const PartnerQuoteResponse = Schema.Struct({
  ...QuoteSummaryFields,
  transaction: Schema.Struct({
    to: Addr,
    callData: Hex.annotate({ description: "Transaction data (key `callData`, capital D, in this schema only)" }),
    value: Hex,
    gas: Schema.optional(Schema.String).annotate({
      description:
        "eth_estimateGas of this transaction from `sender` plus 25 %; absent when no `sender` was given or the simulation failed (no balance or allowance yet)"
    })
  }),
  meta: Schema.Struct({ allowlistApplied: Schema.Boolean })
}).annotate({ identifier: "PartnerQuoteResponse" })

export const QuoteRequestBody = Schema.Struct({
  chainId: Schema.Int.annotate({ description: "EVM chain id", examples: [31337] }),
  tokenInAddress: Addr.annotate({ examples: [devnetWeth] }),
  tokenOutAddress: Addr.annotate({ examples: [devnetUsdt] }),
  tokenInDecimals: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 }))).annotate({
    description: "Accepted for compatibility; the chain's decimals are used"
  }),
  tokenOutDecimals: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 }))).annotate({
    description: "Accepted for compatibility; the chain's decimals are used"
  }),
  amount: Amount.annotate({ examples: ["1000000000000000"] }),
  type: Schema.optional(Schema.Literals(["exactIn", "exactOut"])).annotate({
    description: "exactIn (default) or exactOut"
  }),
  slippage: Schema.optional(Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 0.5 }))).annotate({
    description: "Decimal fraction (0.005 = 0.5 %, the default); at most 0.5"
  }),
  recipient: AddressParam.annotate({ description: "Where the output lands (any case)", examples: [devnetAccount] }),
  routerType: Schema.optional(Schema.Literals(["swap-router-02", "universal"])).annotate({
    description: "swap-router-02 (default) or universal"
  }),
  useRouterBalance: Schema.optional(Schema.Boolean).annotate({
    description:
      "Universal only: spend what the router holds (pre-funded in the same transaction) instead of pulling through Permit2"
  }),
  deadline: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0))).annotate({
    description: "Unix seconds; default now + QUOTE_DEADLINE_SECONDS (1800)"
  }),
  sender: Schema.optional(AddressParam).annotate({
    description: "The wallet that will send the transaction: when given, `transaction.gas` is estimated for it",
    examples: [devnetAccount]
  })
}).annotate({ identifier: "QuoteRequest" })

export const TokensResponse = Schema.Struct({
  chainId: Schema.Int,
  tokens: Schema.Array(
    Schema.Struct({ address: Addr, symbol: Schema.NullOr(Schema.String), decimals: Schema.NullOr(Schema.Int) })
  )
}).annotate({ identifier: "TokensResponse" })

export const examples = { devnetWeth, devnetUsdt, devnetAccount }
