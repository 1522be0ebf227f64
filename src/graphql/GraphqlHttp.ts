import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { execute, parse, specifiedRules, validate } from "graphql"
import { errorResponse } from "../http/RequestContext.ts"
import { graphiqlPage } from "./GraphiqlPage.ts"
import { GraphqlSchema, listFieldNames, newContext } from "./GraphqlSchema.ts"
import { costLimit, depthLimit } from "./Limits.ts"

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
 * Queries deeper than MAX_DEPTH or costlier than MAX_COST rows are refused with 400 before they run.
 * GET serves a query page for browsers.
 */
export const GraphqlHttpLive = Layer.unwrap(Effect.map(GraphqlSchema, (schema) =>
  Layer.mergeAll(
  HttpRouter.add("GET", "/v1/graphql", HttpServerResponse.html(graphiqlPage)),
  HttpRouter.add(
    "POST",
    "/v1/graphql",
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const body = yield* request.json.pipe(Effect.option)
      if (body._tag === "None") {
        return errorResponse(400, { code: "INVALID_BODY", message: "Expected a JSON body { query, variables?, operationName? }" })
      }
      const decoded = yield* decodeRequest(body.value).pipe(Effect.result)
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
      const validationErrors = validate(schema, document, [
        ...specifiedRules,
        depthLimit(),
        costLimit(listFieldNames, variables ?? {})
      ])
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
