import { Cause, Context, Effect, Layer, Option } from "effect"
import { McpProtocol, McpSchema, McpServer } from "effect/ai"
import { type HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { McpSessions } from "./McpSessions.ts"
import { buildRequest, type Credentials, type RouteResponse, toOutcome, type ToolError } from "./RouteCall.ts"
import type { RouteTool } from "./RouteTools.ts"

/**
 * Registers derived tools on an effect/ai McpServer. A call is sent to the route itself through an `Executor`
 * (in process on the HTTP transport, over HTTP from the stdio process) with the session's credentials.
 */

/** Sends one route request and reads the answer whole. */
export type Executor = (request: Request, caller: CallerInfo) => Effect.Effect<RouteResponse>

export interface CallerInfo {
  readonly remoteAddress: string | undefined
  readonly forwardedFor: string | undefined
}

/** What the transport knows about the caller: its MCP session key and the credentials it connected with. */
export interface TransportCredentials extends Credentials, CallerInfo {
  readonly sessionKey: string | undefined
}

export type CredentialsOf = (tool: RouteTool) => Effect.Effect<TransportCredentials>

/** The MCP revisions served: the ones with sessions (a sign-in is remembered per `Mcp-Session-Id`). */
export const PROTOCOLS = [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26] as const

const errorResult = (error: ToolError) =>
  new McpSchema.CallToolResult({
    isError: true,
    content: [{ type: "text", text: JSON.stringify(error) }],
    _meta: { "fire-api/error": error }
  })

/** The partner-key header every quote route declares (PartnerAuth); the server may rename it (QUOTE_API_KEY_HEADER). */
export const DECLARED_API_KEY_HEADER = "x-api-key"

/**
 * Credentials of the HTTP transport: `Authorization: Bearer`, the partner-key header (read on every call, whichever
 * the tool: a session binds the key it sent, see `registerRouteTools`), the `Mcp-Session-Id`.
 */
export const httpCredentials =
  (apiKeyHeader: string = DECLARED_API_KEY_HEADER): CredentialsOf =>
  () =>
    Effect.map(Effect.serviceOption(HttpServerRequest.HttpServerRequest), (request) => {
      if (Option.isNone(request)) return { sessionKey: undefined, remoteAddress: undefined, forwardedFor: undefined }
      const headers = request.value.headers
      const bearer = /^Bearer\s+(.+)$/i.exec(headers["authorization"] ?? "")?.[1]
      const apiKey = headers[apiKeyHeader] || undefined
      return {
        sessionKey: headers["mcp-session-id"],
        session: bearer,
        apiKey,
        remoteAddress: Option.getOrUndefined(request.value.remoteAddress),
        forwardedFor: headers["x-forwarded-for"]
      }
    })

export interface RegisterOptions {
  readonly tools: ReadonlyArray<RouteTool>
  /** The executor of each tool's service. */
  readonly executorFor: (service: string) => Executor
  readonly credentials: CredentialsOf
  /** The header the service reads partner keys from, when it is not the declared `x-api-key` (QUOTE_API_KEY_HEADER). */
  readonly apiKeyHeader?: string | undefined
  /** Called once with a listener of ended sessions (McpGuard.ts): their JWT and partner key are forgotten. */
  readonly onSessionEnded?: ((listener: (sessionId: string) => void) => void) | undefined
}

/**
 * One `addTool` per derived tool. Credentials of a call: the JWT its MCP session signed in with (a tool whose route
 * issues a session), else the transport's (`Authorization`); the partner key of the call's own request, else the key
 * the session sent before (a client that sends it only once keeps it for the session), else none.
 */
export const registerRouteTools = (options: RegisterOptions) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const mcp = yield* McpServer.McpServer
      const sessions = new McpSessions()
      const partnerKeys = new McpSessions()
      options.onSessionEnded?.((sessionId) => {
        sessions.clear(sessionId)
        partnerKeys.clear(sessionId)
      })
      for (const tool of options.tools) {
        const execute = options.executorFor(tool.route.service)
        yield* mcp.addTool({
          tool: new McpSchema.Tool({
            name: tool.name,
            title: tool.title,
            description: tool.description,
            inputSchema: tool.inputSchema,
            outputSchema: tool.outputSchema,
            // A plain object: `ToolAnnotations` is an opaque schema, `new` would drop the values.
            annotations: tool.annotations as unknown as McpSchema.ToolAnnotations
          }),
          annotations: Context.empty(),
          handle: (input: Record<string, unknown> | undefined) =>
            Effect.gen(function* () {
              const transport = yield* options.credentials(tool)
              const key = transport.sessionKey
              const session = (key !== undefined ? sessions.get(key) : undefined) ?? transport.session
              if (key !== undefined && transport.apiKey !== undefined)
                partnerKeys.set(key, transport.apiKey, Number.POSITIVE_INFINITY)
              const apiKey = transport.apiKey ?? (key !== undefined ? partnerKeys.get(key) : undefined)
              const built = buildRequest(tool, input, "http://mcp.internal", {
                session,
                apiKey,
                apiKeyHeader: options.apiKeyHeader
              })
              if (built._tag === "Invalid") return errorResult(built.error)
              const response = yield* execute(built.request, transport)
              const outcome = toOutcome(tool, response)
              if (outcome._tag === "Failure") return errorResult(outcome.error)
              if (
                key !== undefined &&
                tool.route.sessionEffect === "issues" &&
                typeof outcome.structured["token"] === "string"
              ) {
                const expiresAt = Date.parse(String(outcome.structured["expiresAt"]))
                sessions.set(
                  key,
                  outcome.structured["token"],
                  Number.isNaN(expiresAt) ? Date.now() + 3_600_000 : expiresAt
                )
              }
              if (key !== undefined && tool.route.sessionEffect === "ends") sessions.clear(key)
              return new McpSchema.CallToolResult({
                content: [
                  { type: "text", text: JSON.stringify(outcome.structured) },
                  ...(outcome.image
                    ? [
                        {
                          type: "image" as const,
                          data: new Uint8Array(Buffer.from(outcome.image.data, "base64")),
                          mimeType: outcome.image.mimeType
                        }
                      ]
                    : [])
                ],
                structuredContent: outcome.structured
              })
            })
        })
      }
    })
  )

const internalError = (message: string): RouteResponse => ({
  status: 500,
  contentType: "application/json",
  body: new TextEncoder().encode(JSON.stringify({ code: "INTERNAL", message }))
})

/**
 * Runs the request through this server's own router: the same route, middleware (request id, body limit, error
 * body), validation, auth and handlers as a request from outside, without a socket. The caller's address is kept
 * so per-IP rules see the agent, not the server.
 */
export const inProcessExecutor = (router: HttpRouter.HttpRouter): Executor => {
  let app: ReturnType<HttpRouter.HttpRouter["asHttpEffect"]> | undefined
  return (request, caller) =>
    Effect.gen(function* () {
      // Built on first use: by then every route of the service is registered.
      app ??= router.asHttpEffect()
      const headers = new Headers(request.headers)
      if (caller.forwardedFor !== undefined) headers.set("x-forwarded-for", caller.forwardedFor)
      const serverRequest = HttpServerRequest.fromWeb(new Request(request, { headers })).modify({
        remoteAddress: Option.fromUndefinedOr(caller.remoteAddress)
      })
      const context = yield* Effect.context<never>()
      const response = yield* app.pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, serverRequest))
      const web = HttpServerResponse.toWeb(response, { context })
      const body = new Uint8Array(yield* Effect.promise(() => web.arrayBuffer()))
      return { status: web.status, contentType: web.headers.get("content-type") ?? "", body }
    }).pipe(
      Effect.scoped,
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.failCause(cause as Cause.Cause<never>)
          : Effect.as(Effect.logError("MCP in-process route call failed", cause), internalError("The route failed"))
      )
    )
}

/** Sends the request over HTTP to `baseUrl` (the stdio entry, and services that run in another process). */
export const fetchExecutor =
  (baseUrl: () => string | undefined): Executor =>
  (request) =>
    Effect.gen(function* () {
      const base = baseUrl()
      if (base === undefined) return internalError("The service of this tool is not reachable from here")
      const url = new URL(request.url)
      const target = new URL(url.pathname + url.search, base)
      return yield* Effect.tryPromise(async () => {
        const response = await fetch(new Request(target, request))
        const body = new Uint8Array(await response.arrayBuffer())
        return { status: response.status, contentType: response.headers.get("content-type") ?? "", body }
      }).pipe(
        Effect.catch((error) =>
          Effect.succeed(internalError(`${target.origin} did not answer: ${String(error.cause ?? error)}`))
        )
      )
    })
