import * as NodeStdio from "@effect/platform-node/NodeStdio"
import { Effect, Layer, Logger } from "effect"
import { McpServer } from "effect/ai"
import { CLIENT_INSTRUCTIONS, clientTools, EXCHANGE_INSTRUCTIONS, exchangeTools } from "./AgentTools.ts"
import { fetchExecutor, PROTOCOLS, registerRouteTools } from "./McpTools.ts"

export interface StdioOptions {
  readonly services: "client" | "exchange"
  /** Base URLs of the running services the tools call (`client`, `exchange`, `search`). */
  readonly urls: Readonly<Record<string, string | undefined>>
  /** Session JWT to start with (FIRE_API_TOKEN or a stored `fire-api login`); a sign-in tool call replaces it. */
  readonly token?: string | undefined
  /** Partner key for the quote tools (FIRE_API_KEY). */
  readonly apiKey?: string | undefined
}

/**
 * The same derived tools over stdio, for agents that start their MCP servers as subprocesses. The process holds no
 * database or chain: each call is the route's HTTP request to the running service, so validation, auth and errors
 * are the service's. The whole process is one MCP session. Logs go to stderr (stdout carries the protocol).
 */
export const McpStdioLive = (options: StdioOptions) =>
  McpServer.layerStdio({
    name: options.services === "client" ? "fire-api-client" : "fire-api-exchange",
    version: "1",
    protocols: PROTOCOLS,
    instructions: options.services === "client" ? CLIENT_INSTRUCTIONS : EXCHANGE_INSTRUCTIONS,
    registrations: registerRouteTools({
      tools: options.services === "client" ? clientTools() : exchangeTools(),
      executorFor: (service) => fetchExecutor(() => options.urls[service]),
      credentials: () =>
        Effect.succeed({
          sessionKey: "stdio",
          session: options.token,
          apiKey: options.apiKey,
          remoteAddress: undefined,
          forwardedFor: undefined
        })
    })
  }).pipe(Layer.provide(NodeStdio.layer), Layer.provide(Layer.succeed(Logger.LogToStderr)(true)))
