import { ClientApi } from "../client-api/ClientApi.ts"
import { ExchangeApi } from "../exchange-api/ExchangeApi.ts"
import { SearchApi } from "../search/SearchApi.ts"
import { deriveTools, type RouteTool } from "./RouteTools.ts"

/**
 * The two tool sets: `app_` (one per client route) and `dex_` (one per exchange and search route). No server
 * dependencies, so the stdio entry, docs and tests read them without starting anything.
 */

export const SIGN_IN_TOOL = "app_session_wallet_verify"
export const NONCE_TOOL = "app_session_wallet_nonce"

let client: Array<RouteTool> | undefined
let exchange: Array<RouteTool> | undefined

export const clientTools = (): ReadonlyArray<RouteTool> =>
  (client ??= deriveTools([{ service: "client", api: ClientApi }], { prefix: "app", signInTool: SIGN_IN_TOOL }))

export const exchangeTools = (): ReadonlyArray<RouteTool> =>
  (exchange ??= deriveTools(
    [
      { service: "exchange", api: ExchangeApi },
      { service: "search", api: SearchApi }
    ],
    {
      prefix: "dex",
      signInTool: SIGN_IN_TOOL
    }
  ))

export const CLIENT_INSTRUCTIONS = [
  "Tools of the fire-api client API (the social side of an EVM token launchpad), one per REST route.",
  `Sign in with a wallet (EIP-4361): ${NONCE_TOOL}({address}) → build the EIP-4361 message with that nonce and ` +
    `sign it with personal_sign → ${SIGN_IN_TOOL}({message, signature}). This MCP session then sends the JWT with ` +
    "every later call (or connect with `Authorization: Bearer <JWT>`).",
  "Amounts are base units as decimal strings. Errors come back as tool errors whose text is {code, message}."
].join("\n")

/** The quote flow's tools, named once for the instructions, /llms.txt and docs/agents.md (a test checks they exist). */
export const QUOTE_TOOLS = {
  get: "dex_quote_get",
  partner: "dex_quote_create",
  open: "dex_quote_open",
  allowlist: "dex_quote_tokens",
  status: "dex_status"
} as const

export const EXCHANGE_INSTRUCTIONS = [
  "Tools of the fire-api exchange API and search service (DEX data, quotes), one per REST route.",
  "Quote tools need a partner key (never the session JWT): the `x-api-key` header on the MCP HTTP connection (kept " +
    "for the MCP session once sent) or FIRE_API_KEY (stdio). A server without partner keys accepts every quote.",
  `Quote flow: ${QUOTE_TOOLS.get}({chainId, tokenInAddress, tokenOutAddress, amount, recipient, slippageBps?}) → ` +
    "approve tokenIn to methodParameters.to from the wallet → send {to, data: methodParameters.calldata, value} → " +
    `${QUOTE_TOOLS.status}({chainId, txHash}) until success. ${QUOTE_TOOLS.partner} (allowlist enforced, list it with ` +
    `${QUOTE_TOOLS.allowlist}) and ${QUOTE_TOOLS.open} (any pair) answer transaction {to, callData, value, gas?} instead.`,
  "Amounts are base units as decimal strings. GET quotes take `slippageBps` (basis points); POST quotes take " +
    "`slippage` as a fraction (0.005 = 0.5%). Quote right before sending the returned calldata from the wallet.",
  "Errors come back as tool errors whose text is {code, message}."
].join("\n")
