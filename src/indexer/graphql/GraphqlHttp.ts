import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { GraphQLError, getOperationAST } from "graphql"
import { AppConfig } from "../../platform/AppConfig.ts"
import { BodyLimits } from "../../platform/http/BodyLimits.ts"
import { errorResponse, isBodyTooLargeError } from "../../platform/http/RequestContext.ts"
import { limitSentence, rateLimitHeaders } from "../../platform/ratelimit/RateLimitHttp.ts"
import { rateLimitSettings, RateLimiter } from "../../platform/ratelimit/RateLimiter.ts"
import { callerLimitKey } from "../../platform/system/CallerIp.ts"
import { GraphiqlAssetsLive } from "./GraphiqlAssets.ts"
import { GraphqlConfig } from "./GraphqlConfig.ts"
import { TableSizes } from "./GraphqlDatabase.ts"
import { executeWithDeadline, GRAPHQL_BUCKET, parseDocument, validateWithLimits } from "./GraphqlOperation.ts"
import { GraphqlSchema, newContext } from "./GraphqlSchema.ts"
import { GraphqlWsLive } from "./GraphqlWs.ts"

const GraphqlRequest = Schema.Struct({
  query: Schema.String.check(Schema.isMinLength(1)),
  variables: Schema.optional(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))),
  operationName: Schema.optional(Schema.NullOr(Schema.String))
})
const decodeRequest = Schema.decodeUnknownEffect(GraphqlRequest)

/**
 * GraphQL over HTTP at `/v1/graphql`: POST `{ query, variables?, operationName? }`. A body that is not such an object
 * is a 400 with our error body; a query that does not parse or validate is a 400 with GraphQL's `errors`; execution
 * errors come back with status 200 beside partial `data`, as the GraphQL-over-HTTP spec says for JSON responses.
 * A document of more than MAX_TOKENS tokens is refused with 400 QUERY_TOO_LARGE while it is parsed, and operations
 * over the other limits of src/indexer/graphql/Limits.ts with 400 before they run; a client IP past
 * GRAPHQL_RATE_LIMIT (or its burst, GRAPHQL_RATE_BURST) gets 429 RATE_LIMITED; queries run on GraphQL's own pool (GraphqlDatabase.ts). A subscription is
 * a 400 SUBSCRIPTION_OVER_HTTP: it runs over the WebSocket only.
 * GET serves GraphiQL for browsers (GraphiqlAssetsLive); WebSocket upgrades on the same path are graphql-ws (GraphqlWsLive).
 */
export const GraphqlHttpLive = Layer.unwrap(
  Effect.gen(function* () {
    const schema = yield* GraphqlSchema
    const sizes = yield* TableSizes
    const settings = yield* GraphqlConfig
    const limits = yield* rateLimitSettings
    const limiter = yield* RateLimiter
    const app = yield* AppConfig
    const rule = settings.rateLimit
    /** The 429 of a caller past its limit, or the headers to add to its answer. */
    const admit = limits.enabled
      ? Effect.gen(function* () {
          const key = yield* Effect.provideService(callerLimitKey, AppConfig, app)
          const decision = yield* limiter.consume(GRAPHQL_BUCKET, key, rule)
          const headers = rateLimitHeaders(decision, rule)
          if (decision.allowed) return { headers }
          const message = `Rate limit exceeded: ${limitSentence(decision, rule, "GraphQL requests")}; retry in ${decision.resetSeconds} s`
          return {
            headers,
            refused: HttpServerResponse.setHeaders(
              errorResponse(429, {
                code: "RATE_LIMITED",
                message,
                details: { limit: rule.limit, windowSeconds: rule.windowSeconds }
              }),
              { ...headers, "retry-after": String(decision.resetSeconds) }
            )
          }
        })
      : Effect.succeed({ headers: {} as Record<string, string>, refused: undefined })

    const handle = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const body = yield* request.json.pipe(Effect.result)
      if (body._tag === "Failure") {
        // Over the body limit: the middleware's 413 (src/platform/http/RequestContext.ts), not a malformed body.
        if (isBodyTooLargeError(body.failure)) return yield* Effect.die(body.failure)
        return errorResponse(400, {
          code: "INVALID_BODY",
          message: "Expected a JSON body { query, variables?, operationName? }"
        })
      }
      const decoded = yield* decodeRequest(body.success).pipe(Effect.result)
      if (decoded._tag === "Failure") {
        return errorResponse(400, {
          code: "INVALID_BODY",
          message: `Invalid GraphQL request: ${decoded.failure.message}`
        })
      }
      const { query, variables, operationName } = decoded.success
      // At most MAX_TOKENS tokens are read: a longer document is refused before the rest is parsed (Limits.ts).
      const parsed = parseDocument(query)
      if ("errors" in parsed) return HttpServerResponse.jsonUnsafe({ errors: parsed.errors }, { status: 400 })
      const { document } = parsed
      // Depth and cost are checked before anything runs: one query cannot ask for unbounded work.
      yield* sizes.refresh
      const validationErrors = validateWithLimits(schema, document, variables ?? {}, sizes)
      if (validationErrors.length > 0)
        return HttpServerResponse.jsonUnsafe({ errors: validationErrors }, { status: 400 })
      // Executed as a query, a subscription's root field resolves to nothing ("Cannot return null for non-nullable
      // field Subscription.launches"), which does not say what is wrong: subscriptions need the socket.
      if (getOperationAST(document, operationName)?.operation === "subscription") {
        const error = new GraphQLError(
          "Subscriptions run over graphql-ws (protocol graphql-transport-ws): open a WebSocket to this path",
          { extensions: { code: "SUBSCRIPTION_OVER_HTTP" } }
        )
        return HttpServerResponse.jsonUnsafe({ errors: [error] }, { status: 400 })
      }
      const result = yield* Effect.promise(async () =>
        executeWithDeadline(
          {
            schema,
            document,
            variableValues: variables ?? undefined,
            operationName: operationName ?? undefined,
            contextValue: newContext()
          },
          settings.statementTimeoutMs
        )
      )
      return HttpServerResponse.jsonUnsafe(result)
    })

    return Layer.mergeAll(
      GraphqlWsLive,
      // Its own body limit (src/platform/http/BodyLimits.ts GRAPHQL_BODY_BYTES), enforced by the global middleware.
      Layer.effectDiscard(
        BodyLimits.use((limits) => limits.declare([{ method: "POST", path: "/v1/graphql", kind: "graphql" }]))
      ),
      GraphiqlAssetsLive,
      HttpRouter.add(
        "POST",
        "/v1/graphql",
        Effect.gen(function* () {
          const admitted = yield* admit
          if (admitted.refused !== undefined) return admitted.refused
          return HttpServerResponse.setHeaders(yield* handle, admitted.headers)
        })
      )
    )
  })
)
