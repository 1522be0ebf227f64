import type { HttpServerResponse } from "effect/http"
import type { ErrorBody } from "../ApiError.ts"

/**
 * How a service writes the error bodies the shared HTTP stack produces itself (404, 413, 500, the security checks):
 * the client, search and indexer services `{ code, message }` (RequestContext.ts `errorResponse`), the exchange its
 * own shape.
 */
export type ErrorWriter = (status: number, body: ErrorBody) => HttpServerResponse.HttpServerResponse

/** A service's error shape, for the errors the shared HTTP stack writes itself. */
export interface ErrorShape {
  /** 404, 413, 500 and the security refusals, as responses. */
  readonly response: ErrorWriter
  /** The JSON body of an answer written on the raw socket (requests Node's HTTP parser refuses, ClientErrors.ts). */
  readonly plainBody: (code: string, message: string) => unknown
}
