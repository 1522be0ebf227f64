import { Effect } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { describeSchemaError } from "../platform/http/Validation.ts"
import { ExchangeBadRequest } from "./ExchangeError.ts"

/**
 * The exchange API's decode-failure middleware: the same codes and messages as the client API's `Validation`
 * (INVALID_PATH, INVALID_QUERY, INVALID_BODY, ...) in the exchange shape `{ error, code, details: { issues } }`.
 * `ExchangeApi` adds it last (`.middleware()` covers only the groups added before it).
 */
export class ExchangeValidation extends HttpApiMiddleware.Service<ExchangeValidation>()(
  "app/exchange/ExchangeValidation",
  {
    error: ExchangeBadRequest
  }
) {}

export const ExchangeValidationLive = HttpApiMiddleware.layerSchemaErrorTransform(ExchangeValidation, (error) => {
  const { code, message, issues } = describeSchemaError(error)
  return Effect.fail(new ExchangeBadRequest({ error: message, code, details: { issues } }))
})
