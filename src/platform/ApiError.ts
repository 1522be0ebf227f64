import { Schema } from "effect"

/**
 * The one error body of every service: `{ code, message, details? }`.
 * `code` is a stable SCREAMING_CASE string clients can switch on; `message` is for humans;
 * `details` carries structured context (the offending field, ids) when there is any.
 * One class per HTTP status: the status lives on the class, so OpenAPI, the typed clients and MCP
 * tools all learn it from the same declaration.
 */
const fields = {
  code: Schema.String.annotate({ description: "Stable machine-readable error code (SCREAMING_CASE)" }),
  message: Schema.String.annotate({ description: "Human-readable explanation" }),
  details: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)).annotate({
    description: "Structured context: offending fields, ids, limits"
  })
}

export class BadRequest extends Schema.Error<BadRequest>("BadRequest")(fields, { httpApiStatus: 400 }) {}
export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(fields, { httpApiStatus: 401 }) {}
export class Forbidden extends Schema.Error<Forbidden>("Forbidden")(fields, { httpApiStatus: 403 }) {}
export class NotFound extends Schema.Error<NotFound>("NotFound")(fields, { httpApiStatus: 404 }) {}
export class Conflict extends Schema.Error<Conflict>("Conflict")(fields, { httpApiStatus: 409 }) {}
export class Gone extends Schema.Error<Gone>("Gone")(fields, { httpApiStatus: 410 }) {}
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("PayloadTooLarge")(fields, { httpApiStatus: 413 }) {}
export class TooManyRequests extends Schema.Error<TooManyRequests>("TooManyRequests")(fields, { httpApiStatus: 429 }) {}
export class Internal extends Schema.Error<Internal>("Internal")(fields, { httpApiStatus: 500 }) {}
export class ServiceUnavailable extends Schema.Error<ServiceUnavailable>("ServiceUnavailable")(fields, {
  httpApiStatus: 503
}) {}

/** Plain JSON form, for responses produced outside an HttpApi endpoint (404 fallback, 413, 500). */
export interface ErrorBody {
  readonly code: string
  readonly message: string
  readonly details?: Record<string, unknown>
}
