import { ByteSize, Config, Effect } from "effect"
import { HttpEffect, HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { AppConfig } from "../platform/AppConfig.ts"
import { BodyLimits } from "../platform/http/BodyLimits.ts"
import { rateLimitHeaders } from "../platform/ratelimit/RateLimitHttp.ts"
import { rateLimitSettings, RateLimiter } from "../platform/ratelimit/RateLimiter.ts"
import type { RateLimitRule } from "../platform/ratelimit/RateLimitConfig.ts"
import { callerLimitKey } from "../platform/system/CallerIp.ts"
import { type InitializeBounds, initializeProblem } from "./InitializeBounds.ts"
import { McpSessionTable } from "./McpSessionTable.ts"

/** The `/mcp` limits (README, "Configuration"). */
export interface McpGuardSettings {
  /** MCP_MAX_SESSIONS: live sessions per endpoint; a new one past it ends the least recently used. */
  readonly maxSessions: number
  /** MCP_MAX_SESSIONS_PER_IP: live sessions per client IP; a new one past it ends that IP's oldest. */
  readonly maxSessionsPerIp: number
  /** MCP_SESSION_IDLE_SECONDS: a session unused this long is ended. */
  readonly idleSeconds: number
  /** MCP_MESSAGE_BYTES: largest body of any message but `tools/call` (which may carry a file). */
  readonly messageBytes: number
  /** MCP_INITIALIZE_RATE_LIMIT per MCP_INITIALIZE_RATE_LIMIT_WINDOW_SECONDS: `initialize` calls per client IP. */
  readonly initialize: RateLimitRule
  /** MCP_INITIALIZE_VALUES, MCP_INITIALIZE_CHARS: what an `initialize` may make the runtime keep (InitializeBounds.ts). */
  readonly initializeBounds: InitializeBounds
}

export const mcpGuardSettingsConfig: Config.Config<McpGuardSettings> = Config.all({
  maxSessions: Config.Int("MCP_MAX_SESSIONS").pipe(Config.withDefault(1_000)),
  maxSessionsPerIp: Config.Int("MCP_MAX_SESSIONS_PER_IP").pipe(Config.withDefault(20)),
  idleSeconds: Config.Int("MCP_SESSION_IDLE_SECONDS").pipe(Config.withDefault(1_800)),
  messageBytes: Config.Int("MCP_MESSAGE_BYTES").pipe(Config.withDefault(16_384)),
  initialize: Config.all({
    limit: Config.Int("MCP_INITIALIZE_RATE_LIMIT").pipe(Config.withDefault(30)),
    windowSeconds: Config.Int("MCP_INITIALIZE_RATE_LIMIT_WINDOW_SECONDS").pipe(Config.withDefault(60))
  }),
  initializeBounds: Config.all({
    maxValues: Config.Int("MCP_INITIALIZE_VALUES").pipe(Config.withDefault(64)),
    maxChars: Config.Int("MCP_INITIALIZE_CHARS").pipe(Config.withDefault(2_048))
  })
})

const SESSION_HEADER = "mcp-session-id"

const refusal = (status: number, id: unknown, code: string, message: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(
    {
      jsonrpc: "2.0",
      id: typeof id === "string" || typeof id === "number" ? id : null,
      error: { code: -32600, message, data: { code } }
    },
    { status, headers }
  )

const methodsOf = (message: unknown): Array<string> =>
  (Array.isArray(message) ? message : [message]).map((m) =>
    typeof m === "object" && m !== null && typeof (m as { method?: unknown }).method === "string"
      ? (m as { method: string }).method
      : ""
  )

/** The first problem of the `initialize` messages in `message` (one, or a batch, which the runtime then refuses). */
const initializeProblemOf = (message: unknown, bounds: InitializeBounds) => {
  for (const m of Array.isArray(message) ? message : [message]) {
    if (typeof m !== "object" || m === null || (m as { method?: unknown }).method !== "initialize") continue
    const problem = initializeProblem((m as { params?: unknown }).params, bounds)
    if (problem !== undefined) return problem
  }
  return undefined
}

/**
 * Bounds what `/mcp` keeps and what one caller can make it keep. Effect's MCP runtime holds every session (and its
 * `initialize` payload) until a DELETE; this guard keeps the table of live sessions (McpSessionTable) and ends the
 * ones it pushes out or finds idle with that same DELETE, through the service's own router, so a later request
 * with such an id gets the runtime's own 404 (session not found). Also: `initialize` is limited per client IP and in
 * what it makes the runtime keep (InitializeBounds.ts), and every message but `tools/call` to MCP_MESSAGE_BYTES.
 * `onEnded` tells the tools (McpTools.ts) to forget the JWT and partner key a session collected.
 */
export const makeMcpGuard = (path: string, onEnded: (sessionId: string) => void) =>
  Effect.gen(function* () {
    const settings = yield* mcpGuardSettingsConfig
    const limits = yield* rateLimitSettings
    const limiter = yield* RateLimiter
    const app = yield* AppConfig
    const router = yield* HttpRouter.HttpRouter
    const { bytes } = yield* BodyLimits
    const table = new McpSessionTable(settings.maxSessions, settings.maxSessionsPerIp, settings.idleSeconds * 1000)
    let routes: ReturnType<HttpRouter.HttpRouter["asHttpEffect"]> | undefined

    const terminate = (ids: ReadonlyArray<string>) =>
      Effect.forEach(
        ids,
        (id) => {
          onEnded(id)
          routes ??= router.asHttpEffect()
          const request = HttpServerRequest.fromWeb(
            new Request(`http://mcp.internal${path}`, { method: "DELETE", headers: { [SESSION_HEADER]: id } })
          )
          return routes.pipe(
            Effect.provideService(HttpServerRequest.HttpServerRequest, request),
            Effect.scoped,
            Effect.ignore
          )
        },
        { discard: true }
      )

    // Outside any request (a DELETE run from a request's own pre-response handler would write to that request).
    const context = yield* Effect.context<never>()
    const endInBackground = (ids: ReadonlyArray<string>) => {
      if (ids.length > 0) Effect.runForkWith(context)(terminate(ids))
    }

    const admitInitialize = Effect.gen(function* () {
      if (!limits.enabled) return undefined
      const key = yield* Effect.provideService(callerLimitKey, AppConfig, app)
      const decision = yield* limiter.consume("mcp-initialize", key, settings.initialize)
      return decision.allowed
        ? undefined
        : { ...rateLimitHeaders(decision, settings.initialize), "retry-after": String(decision.resetSeconds) }
    })

    const guard = <E, R>(inner: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (request.url.split("?")[0] !== path) return yield* inner
        if (request.method !== "POST") {
          const response = yield* inner
          const id = request.headers[SESSION_HEADER]
          if (request.method === "DELETE" && id !== undefined && response.status < 300) table.remove(id)
          return response
        }
        const text = yield* request.text.pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(bytes.mcp)),
          Effect.result
        )
        // Unreadable or not JSON: the runtime answers it (413 from the body limit, a parse error otherwise).
        if (text._tag === "Failure") return yield* inner
        let message: unknown
        try {
          message = JSON.parse(text.success)
        } catch {
          return yield* inner
        }
        const methods = methodsOf(message)
        const id = Array.isArray(message) ? null : (message as { id?: unknown }).id
        const size = Buffer.byteLength(text.success)
        if (size > settings.messageBytes && methods.some((m) => m !== "tools/call")) {
          return refusal(
            413,
            id,
            "PAYLOAD_TOO_LARGE",
            `MCP messages other than tools/call are limited to ${settings.messageBytes} bytes`
          )
        }
        const now = Date.now()
        const sessionId = request.headers[SESSION_HEADER]
        if (methods.includes("initialize")) {
          const problem = initializeProblemOf(message, settings.initializeBounds)
          if (problem !== undefined) return refusal(400, id, problem.code, problem.message)
          const refused = yield* admitInitialize
          if (refused !== undefined)
            return refusal(
              429,
              id,
              "RATE_LIMITED",
              `Too many MCP initialize calls: ${settings.initialize.limit} per ${settings.initialize.windowSeconds} s`,
              refused
            )
        } else if (sessionId !== undefined) {
          yield* terminate(table.touch(sessionId, now))
        }
        const owner = yield* Effect.provideService(callerLimitKey, AppConfig, app)
        const response = yield* inner
        // The runtime sets Mcp-Session-Id in a pre-response handler: this one, appended after, sees it.
        yield* HttpEffect.appendPreResponseHandler((_request, sent) =>
          Effect.sync(() => {
            const opened = sent.headers[SESSION_HEADER]
            if (opened !== undefined && !table.has(opened)) endInBackground(table.open(opened, owner, now))
            return sent
          })
        )
        return response
      })

    // Idle sessions are ended even when no request comes to notice them.
    yield* Effect.forkScoped(
      Effect.forever(
        Effect.andThen(
          Effect.sleep(`${Math.max(1, Math.min(settings.idleSeconds, 60))} seconds`),
          Effect.suspend(() => terminate(table.expire(Date.now())))
        )
      )
    )

    return {
      /** Live sessions (tests, metrics). */
      sessions: () => table.size,
      middleware: HttpRouter.middleware(Effect.succeed(guard), { global: true })
    }
  })
