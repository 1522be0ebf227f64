import { Data } from "effect"
import { ExchangeBadRequest, ExchangeInternal, ExchangeNotFound, ExchangeUnavailable } from "../ExchangeError.ts"

/** The spec's QuoteErrorReason with the HTTP status of each (spec "Errors"). */
export const QUOTE_ERROR_STATUS = {
  NO_ROUTE: 404,
  INSUFFICIENT_LIQUIDITY: 500,
  NO_POOLS_AVAILABLE: 500,
  ROUTE_MISSING_METHOD_PARAMETERS: 500,
  INVALID_TOKEN_ADDRESS: 400,
  TOKEN_NOT_FOUND: 500,
  TOKEN_DECIMALS_FETCH_FAILED: 500,
  INVALID_AMOUNT: 400,
  AMOUNT_TOO_SMALL: 400,
  CHAIN_NOT_CONFIGURED: 400,
  CHAIN_NOT_SUPPORTED: 400,
  RPC_ERROR: 500,
  QUOTE_TIMEOUT: 500,
  ROUTE_BUILD_FAILED: 500,
  /** Not in the spec: a token on the route takes a fee on transfer (src/exchange-api/quotes/TransferCheck.ts). */
  FEE_ON_TRANSFER_UNSUPPORTED: 400,
  /**
   * Not in the spec: the chain's RPC is down, slow or rate-limiting (src/exchange-api/RpcUnavailable.ts); a retry
   * later may succeed, so 503 with `Retry-After` (`details.retryAfterSeconds`), not the spec's 500 RPC_ERROR.
   */
  RPC_UNAVAILABLE: 503
} as const

export type QuoteErrorReason = keyof typeof QUOTE_ERROR_STATUS
export const QuoteErrorReasons = Object.keys(QUOTE_ERROR_STATUS) as ReadonlyArray<QuoteErrorReason>

/** The one failure of the quote service: a reason from the spec's list, a sentence, optional structured context. */
export class QuoteFailure extends Data.TaggedError("QuoteFailure")<{
  readonly reason: QuoteErrorReason
  readonly message: string
  readonly details?: Record<string, unknown>
}> {}

export const fail = (reason: QuoteErrorReason, message: string, details?: Record<string, unknown>) =>
  new QuoteFailure(details === undefined ? { reason, message } : { reason, message, details })

/** The exchange error body `{ error, code: <reason>, details? }` with the reason's status. */
export const toHttpError = (failure: QuoteFailure) => {
  const body = {
    error: failure.message,
    code: failure.reason,
    ...(failure.details === undefined ? {} : { details: failure.details })
  }
  switch (QUOTE_ERROR_STATUS[failure.reason]) {
    case 400:
      return new ExchangeBadRequest(body)
    case 404:
      return new ExchangeNotFound(body)
    case 503:
      return new ExchangeUnavailable(body)
    default:
      return new ExchangeInternal(body)
  }
}

/** Quote errors in OpenAPI: one line per reason. */
export const reasonsDoc = QuoteErrorReasons.map((r) => `${r} ${QUOTE_ERROR_STATUS[r]}`).join(", ")
