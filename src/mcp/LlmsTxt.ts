import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import {
  CLIENT_INSTRUCTIONS,
  clientTools,
  EXCHANGE_INSTRUCTIONS,
  exchangeTools,
  NONCE_TOOL,
  QUOTE_TOOLS,
  SIGN_IN_TOOL
} from "./AgentTools.ts"
import type { RouteTool } from "./RouteTools.ts"

/**
 * `/llms.txt` on the client service (the llms.txt convention: a Markdown index for language models). Written from
 * the same derivation as the MCP tools, so it lists exactly the tools the servers offer. Like `/docs`, it is a
 * document about the API, not an API route, so it is no HttpApi endpoint and no tool.
 */

const line = (tool: RouteTool) => `- \`${tool.name}\` (${tool.route.method} ${tool.route.path}): ${tool.title}`

export const llmsTxt = () =>
  [
    "# fire-api",
    "",
    "> Backend of an EVM token launchpad with a DEX data layer. Every REST route is also an MCP tool: the client " +
      "service serves the `app_` tools at `/mcp`, the exchange service the `dex_` tools at its own `/mcp` (streamable HTTP); " +
      "`npx fire-api mcp --services client|exchange` serves them over stdio.",
    "",
    "## How an agent works",
    "",
    CLIENT_INSTRUCTIONS,
    "",
    EXCHANGE_INSTRUCTIONS,
    "",
    `Sign-in in one MCP session: \`${NONCE_TOOL}\` → sign the EIP-4361 message (personal_sign) → \`${SIGN_IN_TOOL}\`. ` +
      "The whole flow (quote, swap, launch, comment, fuel, fees, graduation, notifications) is in docs/agents.md of the repository.",
    "",
    "## Quote and swap (exchange /mcp, partner key in `x-api-key`)",
    "",
    `1. \`${QUOTE_TOOLS.get}\` (GET /api/v1/quote, no allowlist): \`methodParameters { to, calldata, value }\`; ` +
      "or `" +
      QUOTE_TOOLS.partner +
      "` (POST /api/v1/quote, allowlist: `" +
      QUOTE_TOOLS.allowlist +
      "`) / `" +
      QUOTE_TOOLS.open +
      "` (POST /api/v1/quote/open): `transaction { to, callData, value, gas? }`.",
    "2. From the wallet: approve the input token to `to` (SwapRouter02; UniversalRouter pulls through Permit2), then send the transaction.",
    `3. \`${QUOTE_TOOLS.status}\` ({ chainId, txHash }) → pending | success | failed.`,
    "",
    "## Docs",
    "",
    "- [OpenAPI of the client API](/docs/openapi.json): the same descriptions as the tools",
    "- [Interactive reference](/docs)",
    "",
    `## Client tools (${clientTools().length}, at /mcp of this service)`,
    "",
    ...clientTools().map(line),
    "",
    `## Exchange and search tools (${exchangeTools().length}, at /mcp of the exchange service)`,
    "",
    ...exchangeTools().map(line),
    ""
  ].join("\n")

export const LlmsTxtLive = HttpRouter.add(
  "GET",
  "/llms.txt",
  Effect.sync(() => HttpServerResponse.text(llmsTxt(), { contentType: "text/markdown; charset=utf-8" }))
)
