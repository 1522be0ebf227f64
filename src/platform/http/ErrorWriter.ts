import type { HttpServerResponse } from "effect/http"
import type { ErrorBody } from "../ApiError.ts"

/**
 * How a service writes the error bodies the shared HTTP stack produces itself (404, 413, 500, the security checks):
 * the client, search and indexer services `{ code, message }` (RequestContext.ts `errorResponse`), the exchange its
 * own shape.
 */
export type ErrorWriter = (status: number, body: ErrorBody) => HttpServerResponse.HttpServerResponse
