import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  ExchangeBadRequest,
  ExchangeInternal,
  ExchangeNotFound,
  ExchangeTooManyRequests,
  ExchangeUnauthorized,
  ExchangeUnavailable
} from "../ExchangeError.ts"
import { ROUTING_SETTINGS } from "./RoutingSettings.ts"
import { McpToolHints } from "../../platform/McpAnnotations.ts"
import { PartnerAuth } from "./PartnerAuth.ts"
import { reasonsDoc } from "./QuoteError.ts"
import { AddressParam } from "../Ids.ts"
import { examples, GetQuoteResponse, PartnerQuoteResponse, QuoteRequestBody, TokensResponse } from "./QuoteModels.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })
const errors = [
  ExchangeBadRequest,
  ExchangeUnauthorized,
  ExchangeNotFound,
  ExchangeTooManyRequests,
  ExchangeInternal,
  ExchangeUnavailable
]
/** A POST quote computes and returns calldata; it changes nothing (so its MCP tool is read-only, like the GET). */
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const
const common =
  `Errors: \`{ error, code, details? }\` with \`code\` = the QuoteErrorReason (${reasonsDoc}). ` +
  "Malformed chain ids, token addresses and amounts answer their reason (CHAIN_NOT_SUPPORTED, INVALID_TOKEN_ADDRESS, " +
  "INVALID_AMOUNT) rather than a generic INVALID_QUERY. AMOUNT_TOO_SMALL: below QUOTE_MIN_AMOUNT base units " +
  "(default 1000) or an exactIn amount that buys nothing. TOKEN_NOT_FOUND: no contract code at the address; " +
  "TOKEN_DECIMALS_FETCH_FAILED: a contract whose `decimals()` cannot be read. 503 RPC_UNAVAILABLE (with " +
  "`Retry-After`): the chain's RPC is down, slow or rate-limiting while reading a token not yet indexed. " +
  "400 FEE_ON_TRANSFER_UNSUPPORTED: a " +
  "token on the route takes a fee on transfer (a simulated transfer delivers less than it takes; details.tokens " +
  "lists each with its feeBps): such tokens are refused, not quoted. 401 `Invalid API key` without a valid " +
  "partner key (header `x-api-key`; QUOTE_API_KEY_HEADER renames it); 429 over the key's rate limit. Pool state comes " +
  "from the indexer (block in `blockNumber`): quote right before sending."

const r = ROUTING_SETTINGS
/** How routes are chosen, from the settings the router runs with (src/exchange-api/quotes/QuoteChains.ts). */
const routing =
  `Routing: Uniswap v3 routes of 1–${r.maxHops} hops. Intermediate tokens: WETH and the chain's stablecoin, plus ` +
  `"connectors": for each of tokenIn and tokenOut, the partner tokens of its ${r.connectorsPerToken} deepest pools ` +
  "(depth = the pool's in-range reserve of that token), and for 3-hop routes the " +
  `${r.secondHopsPerConnector === 1 ? "deepest partner" : `${r.secondHopsPerConnector} deepest partners`} of each connector. ` +
  `Up to ${r.poolsPerPair} pools per pair (most in-range liquidity first); the amount may be split across up to ` +
  `${r.maxSplits} routes in ${r.splitStepPercent} % steps; the best candidate by output net of gas (gas priced in the ` +
  "quote token through WETH) wins."

const Bps = Schema.String.check(
  Schema.isPattern(/^(?:[0-9]{1,3}|[1-4][0-9]{3}|5000)$/u, { message: "basis points 0–5000" })
).annotate({ description: "Slippage in basis points (50 = 0.5 %, the default), 0–5000", examples: ["50"] })

/** The four quote routes (spec "Quotes"), all behind a partner key. */
export class QuotesApi extends HttpApiGroup.make("quotes")
  .add(
    HttpApiEndpoint.get("getQuote", "/api/v1/quote", {
      query: {
        chainId: Schema.String.annotate({ description: "Chain id (decimal string)", examples: ["31337"] }),
        tokenInAddress: Schema.String.annotate({ description: "Input token address", examples: [examples.devnetWeth] }),
        tokenInDecimals: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 }))).annotate({
          description: "Default 18; accepted for compatibility, the chain's decimals are used"
        }),
        tokenOutAddress: Schema.String.annotate({
          description: "Output token address",
          examples: [examples.devnetUsdt]
        }),
        tokenOutDecimals: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 }))).annotate({
          description: "Default 18; accepted for compatibility, the chain's decimals are used"
        }),
        amount: Schema.String.annotate({
          description: "Base units of the input token (of the output token when type=exactOut)",
          examples: ["1000000000000000"]
        }),
        type: Schema.optional(Schema.Literals(["exactIn", "exactOut"])).annotate({
          description: "exactIn (default) or exactOut"
        }),
        slippageBps: Schema.optional(Bps),
        recipient: AddressParam.annotate({
          description: "Where the swap output lands (any case)",
          examples: [examples.devnetAccount]
        }),
        routerType: Schema.optional(Schema.Literals(["swap-router-02", "universal"])).annotate({
          description: "swap-router-02 (default) or universal"
        }),
        useRouterBalance: Schema.optional(Schema.Literals(["true", "false"])).annotate({
          description:
            "false (default); true only with routerType=universal (400 ROUTER_BALANCE_NEEDS_UNIVERSAL otherwise): the router spends its own balance"
        })
      },
      success: GetQuoteResponse,
      error: errors
    })
      .middleware(PartnerAuth)
      .annotateMerge(
        doc(
          "Quote with calldata",
          "One-shot quote through our router with the full route details and " +
            "`methodParameters { calldata, value, to }` ready to send (SwapRouter02 multicall, or UniversalRouter execute with " +
            `Permit2 pulling the input). No allowlist. ${routing} ${common}`
        )
      ),
    HttpApiEndpoint.post("createQuote", "/api/v1/quote", {
      payload: QuoteRequestBody,
      success: PartnerQuoteResponse,
      error: errors
    })
      .middleware(PartnerAuth)
      .annotateMerge(
        doc(
          "Partner quote (allowlist enforced)",
          "Transaction-ready quote: `transaction { to, callData, value, gas? }` and `meta.allowlistApplied: true`. Both tokens " +
            "must be on the chain's allowlist (GET /api/v1/quote/tokens): otherwise 400 `Token not permitted by allowlist` " +
            `(code TOKEN_NOT_PERMITTED) with \`details.addresses\`. \`slippage\` is a fraction (0.005 = 0.5 %). ${routing} ${common}`
        )
      )
      .annotate(McpToolHints, readOnly),
    HttpApiEndpoint.post("createOpenQuote", "/api/v1/quote/open", {
      payload: QuoteRequestBody,
      success: PartnerQuoteResponse,
      error: errors
    })
      .middleware(PartnerAuth)
      .annotateMerge(
        doc(
          "Partner quote (any pair)",
          `Same body and response as POST /api/v1/quote without the allowlist (\`meta.allowlistApplied: false\`). Still needs the partner key. ${common}`
        )
      )
      .annotate(McpToolHints, readOnly),
    HttpApiEndpoint.get("getQuoteTokens", "/api/v1/quote/tokens", {
      query: { chainId: Schema.Int.annotate({ description: "Chain id (required)", examples: [31337] }) },
      success: TokensResponse,
      error: errors
    })
      .middleware(PartnerAuth)
      .annotateMerge(
        doc(
          "Token allowlist of a chain",
          "The tokens POST /api/v1/quote accepts on `chainId` (QUOTE_ALLOWLIST plus tokens added with `npm run quote-admin`), " +
            "with symbol and decimals where the index knows them. An empty list means POST /api/v1/quote accepts no token. " +
            "400 without chainId; CHAIN_NOT_CONFIGURED / CHAIN_NOT_SUPPORTED for other chains."
        )
      )
  )
  .annotateMerge(
    OpenApi.annotations({ title: "Quotes", description: "Partner quotes with calldata (partner key in `x-api-key`)" })
  ) {}
