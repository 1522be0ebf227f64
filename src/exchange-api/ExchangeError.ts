import { Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import type { ErrorBody } from "../platform/ApiError.ts"
import type { ErrorShape } from "../platform/http/ErrorWriter.ts"

/**
 * The exchange API's error body (spec, "Quote records" → error): `{ error, details? }`.
 * - `error`: a human-readable sentence; where the spec names one it is used verbatim
 *   (`Invalid API key`, `Token not permitted by allowlist`).
 * - `code`: a stable SCREAMING_CASE string to switch on (the spec leaves fields other than `error`/`details` open;
 *   the quote routes put their QuoteErrorReason here, e.g. `NO_ROUTE`).
 * - `details`: structured context, e.g. `details.addresses` for allowlist violations, `details.issues` for bad input.
 * One class per HTTP status, so that OpenAPI, typed clients and MCP tools learn the status from the declaration.
 * These are the exchange counterparts of `src/platform/ApiError.ts` (client API, `{ code, message }`): never mix them.
 */
const fields = {
  error: Schema.String.annotate({ description: "Human-readable error; the spec's exact wording where it gives one" }),
  code: Schema.String.annotate({
    description: "Stable machine-readable code (SCREAMING_CASE), e.g. NO_ROUTE, POOL_NOT_FOUND"
  }),
  details: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)).annotate({
    description: "Structured context: offending addresses (`addresses`), input issues (`issues`), limits"
  })
}

export class ExchangeBadRequest extends Schema.Error<ExchangeBadRequest>("ExchangeBadRequest")(fields, {
  httpApiStatus: 400
}) {}
export class ExchangeUnauthorized extends Schema.Error<ExchangeUnauthorized>("ExchangeUnauthorized")(fields, {
  httpApiStatus: 401
}) {}
export class ExchangeNotFound extends Schema.Error<ExchangeNotFound>("ExchangeNotFound")(fields, {
  httpApiStatus: 404
}) {}
export class ExchangeTooManyRequests extends Schema.Error<ExchangeTooManyRequests>("ExchangeTooManyRequests")(fields, {
  httpApiStatus: 429
}) {}
export class ExchangeInternal extends Schema.Error<ExchangeInternal>("ExchangeInternal")(fields, {
  httpApiStatus: 500
}) {}
export class ExchangeUnavailable extends Schema.Error<ExchangeUnavailable>("ExchangeUnavailable")(fields, {
  httpApiStatus: 503
}) {}

/** Plain JSON form, for responses written outside an endpoint's error encoding (429 from the limiter, fallbacks). */
export interface ExchangeErrorBody {
  readonly error: string
  readonly code: string
  readonly details?: Record<string, unknown>
}

/** Writes a `{ code, message, details? }` error of the shared HTTP stack (404 fallback, 413, 500) in the exchange shape. */
export const exchangeErrorResponse = (status: number, body: ErrorBody) =>
  HttpServerResponse.jsonUnsafe(
    {
      error: body.message,
      code: body.code,
      ...(body.details === undefined ? {} : { details: body.details })
    } satisfies ExchangeErrorBody,
    { status }
  )

/** The exchange API answers its own error shape `{ error, code, details? }` (spec) also for 404/413/500 and malformed requests. */
export const exchangeErrorShape: ErrorShape = {
  response: exchangeErrorResponse,
  plainBody: (code, message) => ({ error: message, code })
}
