import { Config, Effect, Layer } from "effect"
import { McpServer } from "effect/ai"
import { HttpRouter } from "effect/http"
import { Listening } from "../platform/http/Serve.ts"
import { BodyLimits } from "../platform/http/BodyLimits.ts"
import { quoteSettings } from "../exchange-api/quotes/QuoteConfig.ts"
import { CLIENT_INSTRUCTIONS, clientTools, EXCHANGE_INSTRUCTIONS, exchangeTools } from "./AgentTools.ts"
import { LlmsTxtLive } from "./LlmsTxt.ts"
import { makeMcpGuard } from "./McpGuard.ts"
import { mcpNewSessionRate } from "./McpNewSessionRate.ts"
import {
  DECLARED_API_KEY_HEADER,
  fetchExecutor,
  httpCredentials,
  inProcessExecutor,
  PROTOCOLS,
  registerRouteTools
} from "./McpTools.ts"

/**
 * Streamable HTTP MCP endpoints at `/mcp`, on the router of the service they belong to. A tool call runs through
 * that router in process (same validation, auth and errors as REST). The exchange's `dex_` set includes the search
 * routes, which the search service serves: those calls go to it over HTTP (same process: its bound address;
 * otherwise SEARCH_URL).
 */

/**
 * `/mcp` takes its own body limit (src/platform/http/BodyLimits.ts): a tool call may carry a file in base64, 4/3 of the
 * upload route's limit. The request it becomes is then held to that route's limit, as over REST. Every other message
 * is held to MCP_MESSAGE_BYTES, and sessions are bounded, by McpGuard.ts.
 */
const McpBodyLimit = Layer.effectDiscard(
  BodyLimits.use((limits) => limits.declare([{ method: "*", path: "/mcp", kind: "mcp" }]))
)

/**
 * The rate of new sessions across all callers (McpNewSessionRate.ts), provided to each `/mcp` layer below so that
 * its middleware is registered before McpGuard's, and so runs first: it refuses before the guard reads the body.
 * A layer per service (a call each, not one shared value, which the layers' memo map would build only once).
 */
const newSessionRate = () => mcpNewSessionRate("/mcp")

/** Ended sessions (McpGuard.ts) reach the tools' credential stores through this. */
const sessionEndings = () => {
  const listeners: Array<(sessionId: string) => void> = []
  return {
    onSessionEnded: (listener: (sessionId: string) => void) => void listeners.push(listener),
    ended: (sessionId: string) => listeners.forEach((listener) => listener(sessionId))
  }
}

/** `/mcp` with the `app_` tools, and `/llms.txt` listing them. */
export const ClientMcpLive = Layer.unwrap(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const local = inProcessExecutor(router)
    const endings = sessionEndings()
    const guard = yield* makeMcpGuard("/mcp", endings.ended)
    return Layer.merge(
      guard.middleware,
      McpServer.layerHttp({
        name: "fire-api-client",
        version: "1",
        path: "/mcp",
        protocols: PROTOCOLS,
        instructions: CLIENT_INSTRUCTIONS,
        allowSessionTermination: true,
        registrations: registerRouteTools({
          tools: clientTools(),
          executorFor: () => local,
          credentials: httpCredentials(),
          onSessionEnded: endings.onSessionEnded
        })
      })
    )
  })
).pipe(Layer.merge(LlmsTxtLive), Layer.merge(McpBodyLimit), Layer.provideMerge(newSessionRate()))

export const ExchangeMcpLive = Layer.unwrap(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const listening = yield* Listening
    const searchUrl = yield* Config.String("SEARCH_URL").pipe(Config.option)
    // The partner key travels in the header the quote routes read (QUOTE_API_KEY_HEADER; never Authorization).
    const { apiKeyHeader: configured } = yield* quoteSettings
    const apiKeyHeader = configured === "authorization" ? DECLARED_API_KEY_HEADER : configured
    const local = inProcessExecutor(router)
    const search = fetchExecutor(
      () => listening.get("search") ?? (searchUrl._tag === "Some" ? searchUrl.value : undefined)
    )
    const endings = sessionEndings()
    const guard = yield* makeMcpGuard("/mcp", endings.ended)
    return Layer.merge(
      guard.middleware,
      McpServer.layerHttp({
        name: "fire-api-exchange",
        version: "1",
        path: "/mcp",
        protocols: PROTOCOLS,
        instructions: EXCHANGE_INSTRUCTIONS,
        allowSessionTermination: true,
        registrations: registerRouteTools({
          tools: exchangeTools(),
          executorFor: (service) => (service === "search" ? search : local),
          credentials: httpCredentials(apiKeyHeader),
          apiKeyHeader,
          onSessionEnded: endings.onSessionEnded
        })
      })
    )
  })
).pipe(Layer.merge(McpBodyLimit), Layer.provideMerge(newSessionRate()))
