import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  type DocumentNode,
  execute,
  type ExecutionArgs,
  GraphQLError,
  type GraphQLSchema,
  parse,
  specifiedRules,
  subscribe,
  validate
} from "graphql"
import { useServer } from "graphql-ws/use/ws"
import { WebSocketServer } from "ws"
import { UpgradeRoutes } from "../Http.ts"
import { BodyLimits } from "../http/BodyLimits.ts"
import { errorResponse, isBodyTooLargeError } from "../http/RequestContext.ts"
import { GraphiqlAssetsLive } from "./GraphiqlAssets.ts"
import { GraphqlSchema, listFieldNames, newContext } from "./GraphqlSchema.ts"
import { costLimit, depthLimit } from "./Limits.ts"

const GraphqlRequest = Schema.Struct({
  query: Schema.String.check(Schema.isMinLength(1)),
  variables: Schema.optional(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))),
  operationName: Schema.optional(Schema.NullOr(Schema.String))
})
const decodeRequest = Schema.decodeUnknownEffect(GraphqlRequest)

/** Standard validation plus the depth and cost limits (queries over HTTP and every graphql-ws operation). */
const validateWithLimits = (schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>) =>
  validate(schema, document, [...specifiedRules, depthLimit(), costLimit(listFieldNames, variables)])

/**
 * GraphQL over WebSocket at `/v1/graphql` (graphql-ws, protocol `graphql-transport-ws`) on the service's own port:
 * subscriptions (`launches`, `swaps(pool)`, `poolUpdated(pool)`) and any other operation, validated with the same
 * depth and cost limits as HTTP queries. Sockets are closed when the service stops.
 */
export const GraphqlWsLive = Layer.effectDiscard(Effect.gen(function*() {
  const schema = yield* GraphqlSchema
  const upgrades = yield* UpgradeRoutes
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
  // are always of one graphql instance. A refused document (parse, validation, depth or cost) is answered with its
  // `errors` as the operation's result (graphql-ws's own error path insists on its instance's GraphQLError class).
  const refused = new WeakMap<object, ReadonlyArray<GraphQLError>>()
  const refusal = (args: ExecutionArgs) =>
    typeof args.contextValue === "object" && args.contextValue !== null ? refused.get(args.contextValue) : undefined
  const server = useServer({
    schema,
    execute: (args) => {
      const errors = refusal(args)
      return errors === undefined ? execute(args) : { errors }
    },
    subscribe: (args) => {
      const errors = refusal(args)
      return errors === undefined ? subscribe(args) : { errors }
    },
    onSubscribe: (_ctx, _id, payload) => {
      const variables = payload.variables ?? {}
      const contextValue = newContext()
      let document: DocumentNode
      try {
        document = parse(payload.query)
        const errors = validateWithLimits(schema, document, variables)
        if (errors.length > 0) refused.set(contextValue, errors)
      } catch (error) {
        document = parse("{ __typename }")
        refused.set(contextValue, [error instanceof GraphQLError ? error : new GraphQLError(String(error))])
      }
      return { schema, document, variableValues: variables, operationName: payload.operationName ?? undefined, contextValue }
    }
  }, wss)
  yield* Effect.addFinalizer(() => Effect.promise(async () => server.dispose()))
  yield* upgrades.add("/v1/graphql", (request, socket, head) =>
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request)))
}))

/**
 * GraphQL over HTTP at `/v1/graphql`: POST `{ query, variables?, operationName? }`. A body that is not such an object
 * is a 400 with our error body; a query that does not parse or validate is a 400 with GraphQL's `errors`; execution
 * errors come back with status 200 beside partial `data`, as the GraphQL-over-HTTP spec says for JSON responses.
 * Queries deeper than MAX_DEPTH or costlier than MAX_COST rows are refused with 400 before they run.
 * GET serves GraphiQL for browsers (GraphiqlAssetsLive); WebSocket upgrades on the same path are graphql-ws (GraphqlWsLive).
 */
export const GraphqlHttpLive = Layer.unwrap(Effect.map(GraphqlSchema, (schema) =>
  Layer.mergeAll(
  GraphqlWsLive,
  // Its own body limit (src/http/BodyLimits.ts GRAPHQL_BODY_BYTES), enforced by the global middleware.
  Layer.effectDiscard(BodyLimits.use((limits) => limits.declare([{ method: "POST", path: "/v1/graphql", kind: "graphql" }]))),
  GraphiqlAssetsLive,
  HttpRouter.add(
    "POST",
    "/v1/graphql",
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const body = yield* request.json.pipe(Effect.result)
      if (body._tag === "Failure") {
        // Over the body limit: the middleware's 413 (src/http/RequestContext.ts), not a malformed body.
        if (isBodyTooLargeError(body.failure)) return yield* Effect.die(body.failure)
        return errorResponse(400, { code: "INVALID_BODY", message: "Expected a JSON body { query, variables?, operationName? }" })
      }
      const decoded = yield* decodeRequest(body.success).pipe(Effect.result)
      if (decoded._tag === "Failure") {
        return errorResponse(400, { code: "INVALID_BODY", message: `Invalid GraphQL request: ${decoded.failure.message}` })
      }
      const { query, variables, operationName } = decoded.success
      let document
      try {
        document = parse(query)
      } catch (error) {
        return HttpServerResponse.jsonUnsafe({ errors: [error] }, { status: 400 })
      }
      // Depth and cost are checked before anything runs: one query cannot ask for unbounded work.
      const validationErrors = validateWithLimits(schema, document, variables ?? {})
      if (validationErrors.length > 0) return HttpServerResponse.jsonUnsafe({ errors: validationErrors }, { status: 400 })
      const result = yield* Effect.promise(async () =>
        execute({
          schema,
          document,
          variableValues: variables ?? undefined,
          operationName: operationName ?? undefined,
          contextValue: newContext()
        })
      )
      return HttpServerResponse.jsonUnsafe(result)
    })
  )
)))
