import { Effect } from "effect"
import { SchemaIssue } from "effect"
import { type HttpApiError, HttpApiMiddleware } from "effect/http-api"
import { BadRequest } from "../ApiError.ts"

/**
 * Turns the framework's decode failures of path, query, headers and body into our 400 body. Every API adds it
 * last (`.middleware(Validation)` covers only the groups added before it).
 */
export class Validation extends HttpApiMiddleware.Service<Validation>()("app/http/Validation", { error: BadRequest }) {}

const codes = {
  Params: "INVALID_PATH",
  Query: "INVALID_QUERY",
  Headers: "INVALID_HEADERS",
  Body: "INVALID_BODY",
  Payload: "INVALID_BODY",
  ResponseHeaders: "INVALID_RESPONSE"
} as const

const where = {
  Params: "path parameter",
  Query: "query parameter",
  Headers: "header",
  Body: "body field",
  Payload: "body field",
  ResponseHeaders: "response header"
} as const

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/** Code, sentence and per-field issues of a decode failure; shared with the exchange API's own error shape. */
export const describeSchemaError = (error: HttpApiError.HttpApiSchemaError) => {
  const issues = formatIssues(error.cause.issue).issues.map((issue) => ({
    field: (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join("."),
    message: issue.message
  }))
  const first = issues[0]
  const message =
    first === undefined
      ? `Invalid ${where[error.kind]}`
      : first.field === ""
        ? `Invalid ${error.kind === "Payload" || error.kind === "Body" ? "body" : where[error.kind]}: ${first.message}`
        : `Invalid ${where[error.kind]} "${first.field}": ${first.message}`
  return { code: codes[error.kind], message, issues }
}

export const ValidationLive = HttpApiMiddleware.layerSchemaErrorTransform(Validation, (error) => {
  const { code, message, issues } = describeSchemaError(error)
  return Effect.fail(new BadRequest({ code, message, details: { issues } }))
})
