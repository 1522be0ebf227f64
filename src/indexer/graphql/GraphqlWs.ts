import { Effect, Layer } from "effect"
import { type DocumentNode, type ExecutionArgs, GraphQLError, parse, subscribe } from "graphql"
import { useServer } from "graphql-ws/use/ws"
import type { IncomingMessage } from "node:http"
import { WebSocketServer } from "ws"
import { AppConfig } from "../../platform/AppConfig.ts"
import { UpgradeRoutes } from "../../platform/http/Serve.ts"
import { BodyLimits } from "../../platform/http/BodyLimits.ts"
import { rateLimitSettings, RateLimiter } from "../../platform/ratelimit/RateLimiter.ts"
import { callerIpOf, ipLimitKey, proxyTrustOf } from "../../platform/system/CallerIp.ts"
import { GraphqlConfig } from "./GraphqlConfig.ts"
import { TableSizes } from "./GraphqlDatabase.ts"
import { executeWithDeadline, GRAPHQL_BUCKET, parseDocument, validateWithLimits } from "./GraphqlOperation.ts"
import { GraphqlSchema, newContext } from "./GraphqlSchema.ts"

const refusal = (message: string, code: string) => new GraphQLError(message, { extensions: { code } })

/**
 * GraphQL over WebSocket at `/v1/graphql` (graphql-ws, protocol `graphql-transport-ws`) on the service's own port:
 * subscriptions (`launches`, `swaps(pool)`, `poolUpdated(pool)`) and any other operation, validated with the same
 * limits as HTTP queries and counted in the same per-IP rate limit. At most GRAPHQL_WS_MAX_SOCKETS_PER_IP sockets per
 * client IP (the upgrade past it is answered 429) and GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_SOCKET operations at once per
 * socket (one more is answered with TOO_MANY_SUBSCRIPTIONS): each subscriber may buffer up to 1,000 events
 * (Subscriptions.ts). Sockets are closed when the service stops.
 */
export const GraphqlWsLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const schema = yield* GraphqlSchema
    const upgrades = yield* UpgradeRoutes
    const sizes = yield* TableSizes
    const settings = yield* GraphqlConfig
    const limits = yield* rateLimitSettings
    const limiter = yield* RateLimiter
    const app = yield* AppConfig
    const trust = proxyTrustOf(app)
    const context = yield* Effect.context<never>()
    const limitKeyOf = (request: IncomingMessage) =>
      ipLimitKey(
        callerIpOf(trust, request.headers["x-forwarded-for"] as string | undefined, request.socket.remoteAddress)
      )
    // A graphql-ws message is held to the GraphQL body limit too (ws would take up to 100 MiB; it closes with 1009).
    const maxPayload = (yield* BodyLimits).bytes.graphql
    const wss = yield* Effect.acquireRelease(
      Effect.sync(() => new WebSocketServer({ noServer: true, maxPayload })),
      (wss) =>
        Effect.callback<void>((resume) => {
          for (const client of wss.clients) client.terminate()
          wss.close(() => resume(Effect.void))
        })
    )
    // The operation runs with this module's `graphql` (execute/subscribe given explicitly), so the schema and errors
    // are always of one graphql instance. A refused operation (parse, validation, limits) is answered with its
    // `errors` as the operation's result (graphql-ws's own error path insists on its instance's GraphQLError class).
    const refused = new WeakMap<object, ReadonlyArray<GraphQLError>>()
    const refusalOf = (args: ExecutionArgs) =>
      typeof args.contextValue === "object" && args.contextValue !== null ? refused.get(args.contextValue) : undefined
    const admitted = (request: IncomingMessage) =>
      limits.enabled
        ? Effect.runPromiseWith(context)(
            Effect.map(limiter.consume(GRAPHQL_BUCKET, limitKeyOf(request), settings.rateLimit), (d) => d.allowed)
          )
        : Promise.resolve(true)
    const server = useServer<Record<string, unknown> | undefined, { request: IncomingMessage }>(
      {
        schema,
        execute: (args) => {
          const errors = refusalOf(args)
          return errors === undefined ? executeWithDeadline(args, settings.statementTimeoutMs) : { errors }
        },
        subscribe: (args) => {
          const errors = refusalOf(args)
          return errors === undefined ? subscribe(args) : { errors }
        },
        onSubscribe: async (ctx, _id, payload) => {
          const variables = payload.variables ?? {}
          const contextValue = newContext()
          let document: DocumentNode = parse("{ __typename }")
          const refuse = (errors: ReadonlyArray<GraphQLError>) => {
            refused.set(contextValue, errors)
            return {
              schema,
              document,
              variableValues: variables,
              operationName: payload.operationName ?? undefined,
              contextValue
            }
          }
          // graphql-ws registers the operation before asking: the count includes this one.
          const running = Object.keys(ctx.subscriptions).length
          if (running > settings.maxSubscriptionsPerSocket) {
            return refuse([
              refusal(
                `at most ${settings.maxSubscriptionsPerSocket} operations at once per socket`,
                "TOO_MANY_SUBSCRIPTIONS"
              )
            ])
          }
          if (!(await admitted(ctx.extra.request))) {
            return refuse([
              refusal(
                `Rate limit exceeded: ${settings.rateLimit.limit} GraphQL operations per ${settings.rateLimit.windowSeconds} s`,
                "RATE_LIMITED"
              )
            ])
          }
          try {
            const parsed = parseDocument(payload.query)
            if ("errors" in parsed) return refuse(parsed.errors)
            document = parsed.document
            await Effect.runPromiseWith(context)(sizes.refresh)
            const errors = validateWithLimits(schema, document, variables, sizes)
            if (errors.length > 0) return refuse(errors)
          } catch (error) {
            document = parse("{ __typename }")
            return refuse([error instanceof GraphQLError ? error : new GraphQLError(String(error))])
          }
          return {
            schema,
            document,
            variableValues: variables,
            operationName: payload.operationName ?? undefined,
            contextValue
          }
        }
      },
      wss
    )
    yield* Effect.addFinalizer(() => Effect.promise(async () => server.dispose()))

    const sockets = new Map<string, number>()
    yield* upgrades.add("/v1/graphql", (request, socket, head) => {
      const key = limitKeyOf(request)
      const open = sockets.get(key) ?? 0
      if (open >= settings.maxSocketsPerIp) {
        const body = JSON.stringify({
          code: "TOO_MANY_SOCKETS",
          message: `at most ${settings.maxSocketsPerIp} GraphQL sockets per client`
        })
        socket.end(
          `HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
        )
        return
      }
      sockets.set(key, open + 1)
      let counted = true
      const release = () => {
        if (!counted) return
        counted = false
        const left = (sockets.get(key) ?? 1) - 1
        if (left <= 0) sockets.delete(key)
        else sockets.set(key, left)
      }
      // A failed handshake never becomes a WebSocket: its socket's close releases the slot too.
      socket.once("close", release)
      wss.handleUpgrade(request, socket, head, (ws) => {
        ws.once("close", release)
        wss.emit("connection", ws, request)
      })
    })
  })
)
