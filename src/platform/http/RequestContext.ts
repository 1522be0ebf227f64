import { ByteSize, Cause, Context, Effect } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { AppConfig } from "../AppConfig.ts"
import type { ErrorBody } from "../ApiError.ts"
import { recordHttpRequest } from "../metrics/Metrics.ts"
import { type BodyLimitTable, bodyLimitBytes, makeBodyLimitTable } from "./BodyLimits.ts"
import type { ErrorWriter } from "./ErrorWriter.ts"
import { httpSecurityConfig, loadHttpSecurity } from "./HttpSecurity.ts"
import { makeUnsafeRequestGuard, type UnsafeRequestPolicy } from "./UnsafeRequests.ts"

export const errorResponse = (status: number, body: ErrorBody) => HttpServerResponse.jsonUnsafe(body, { status })

/** A client-supplied request id is kept when it is short and plain; otherwise we mint one (also the HTTP fast lane's). */
export const requestIdFrom = (given: string | undefined) =>
  given !== undefined && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : crypto.randomUUID()

const serverErrorReasons = (cause: Cause.Cause<unknown>) =>
  cause.reasons.flatMap((reason) => {
    const error = Cause.isFailReason(reason) ? reason.error : Cause.isDieReason(reason) ? reason.defect : undefined
    return HttpServerError.isHttpServerError(error) ? [error.reason] : []
  })

const bodyTooLarge = (reason: HttpServerError.HttpServerError["reason"]) =>
  reason._tag === "RequestParseError" && reason.reason === "BodyTooLarge"
const isBodyTooLarge = (cause: Cause.Cause<unknown>) => serverErrorReasons(cause).some(bodyTooLarge)

/** The error of reading a body past the route's limit (a handler that reads the body itself lets it through). */
export const isBodyTooLargeError = (error: unknown) =>
  HttpServerError.isHttpServerError(error) && bodyTooLarge(error.reason)

/**
 * The router fails with RouteNotFound (instead of reaching the `*` fallback) when the path does not percent-decode
 * to valid UTF-8, e.g. `/v1/images/%ED%BF%BF` (found by the contract fuzz): that is the caller's 404, not our 500.
 * Only such paths are mapped: the MCP transport's own routes rely on RouteNotFound reaching the server as before.
 */
const undecodablePath = (url: string) => {
  try {
    decodeURIComponent(url.split("?")[0]!)
    return false
  } catch {
    return true
  }
}
const isRouteNotFound = (cause: Cause.Cause<unknown>) =>
  serverErrorReasons(cause).some((reason) => reason._tag === "RouteNotFound")

/**
 * Global middleware of every service:
 * - an `x-request-id` on every response, also attached to every log line of the request;
 * - the body limit of the route (BodyLimits.ts, declared by the route layers in `bodyLimits`): a declared
 *   `Content-Length` over it is refused before reading, a streamed body is cut at the limit; both answer 413 with the
 *   error body;
 * - CORS and the security headers (HttpSecurity.ts) on every response, preflights answered here;
 * - with the service's `unsafeRequests` policy, state-changing requests from other sites and bodies that are not
 *   JSON (or multipart on upload routes) refused before any route runs (UnsafeRequests.ts);
 * - any failure that no endpoint declared becomes 500 `INTERNAL` with no internals in the body, logged in full with
 *   the request id, which the caller can quote;
 * - `http_request_duration_seconds{service,method,route,status}` for every request, `route` being the matched
 *   pattern (`/v1/tokens/:mintAddress`, `*` for the 404 fallback) so that ids do not explode the series;
 * - with ACCESS_LOG=true, one log line per request (`http` with requestId, service, method, route, path, status,
 *   durationMs as annotations: fields of the JSON object under LOG_FORMAT=json). The query string is not logged:
 *   it may carry tokens.
 */
export const requestContext = (
  writeError: ErrorWriter,
  service = "app",
  bodyLimits?: BodyLimitTable,
  unsafeRequests?: UnsafeRequestPolicy
) =>
  HttpRouter.middleware(
    Effect.gen(function* () {
      const { accessLog, trustProxy } = yield* AppConfig
      const security = yield* loadHttpSecurity(trustProxy, writeError, service)
      const limits = bodyLimits ?? makeBodyLimitTable(yield* bodyLimitBytes)
      const guardUnsafe =
        unsafeRequests === undefined
          ? undefined
          : makeUnsafeRequestGuard(unsafeRequests, (yield* httpSecurityConfig).corsOrigins, writeError)
      const tooLarge = (maxBytes: number) =>
        writeError(413, {
          code: "PAYLOAD_TOO_LARGE",
          message: `Request body exceeds the limit of ${maxBytes} bytes`,
          details: { maxBytes }
        })
      return (app) =>
        Effect.gen(function* () {
          const t0 = performance.now()
          const request = yield* HttpServerRequest.HttpServerRequest
          const requestId = requestIdFrom(request.headers["x-request-id"])
          const preflight = security.preflight(request)
          if (preflight !== undefined)
            return HttpServerResponse.setHeader(security.decorate(request, preflight), "x-request-id", requestId)
          yield* Effect.annotateCurrentSpan("http.request_id", requestId)
          // The router puts the matched route in the fiber's context and leaves it there until the request ends.
          let route = "unmatched"
          const captureRoute = Effect.withFiber((fiber) => {
            route = Context.getOrUndefined(fiber.context, HttpRouter.RouteContext)?.route.path ?? route
            return Effect.void
          })
          const declared = Number(request.headers["content-length"] ?? 0)
          // The route's own limit (BodyLimits.ts). No GET route reads a body: the hot reads skip the lookup.
          const maxBytes = request.method === "GET" ? limits.bytes.json : limits.limitFor(request.method, request.url)
          const refused =
            guardUnsafe === undefined || request.method === "GET"
              ? undefined
              : guardUnsafe(request, limits.kindFor(request.method, request.url))
          const response =
            refused !== undefined
              ? refused
              : declared > maxBytes
                ? tooLarge(maxBytes)
                : yield* app.pipe(
                    Effect.onExit(() => captureRoute),
                    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBytes)),
                    Effect.catchCause((cause) => {
                      if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
                      if (isBodyTooLarge(cause)) return Effect.succeed(tooLarge(maxBytes))
                      if (isRouteNotFound(cause) && undecodablePath(request.url)) {
                        return Effect.succeed(
                          writeError(404, {
                            code: "NOT_FOUND",
                            message: `No route for ${request.method} ${request.url.split("?")[0]}`
                          })
                        )
                      }
                      return Effect.as(
                        Effect.logError(`${request.method} ${request.url} failed`, cause),
                        writeError(500, {
                          code: "INTERNAL",
                          message: `Internal error; quote request id ${requestId} when reporting it`
                        })
                      )
                    }),
                    Effect.annotateLogs({ requestId })
                  )
          const sent = HttpServerResponse.setHeader(
            security.decorate(request, asErrorBody(response, writeError)),
            "x-request-id",
            requestId
          )
          const seconds = (performance.now() - t0) / 1000
          yield* recordHttpRequest({ service, method: request.method, route, status: sent.status }, seconds)
          if (accessLog) {
            yield* Effect.logInfo("http").pipe(
              Effect.annotateLogs({
                requestId,
                service,
                method: request.method,
                route,
                path: request.url.split("?")[0]!,
                status: sent.status,
                durationMs: Math.round(seconds * 1e5) / 100
              })
            )
          }
          return sent
        })
    }),
    { global: true }
  )
export const RequestContextLive = requestContext(errorResponse)

const codeOfStatus: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  406: "NOT_ACCEPTABLE",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  500: "INTERNAL"
}
const decoder = new TextDecoder()

/**
 * Error responses the framework writes itself (415 for a body in a content type the route does not take, empty
 * 4xx bodies) get our error body too, so that clients only ever parse one shape. Ours, already JSON, pass as they are.
 */
const asErrorBody = (response: HttpServerResponse.HttpServerResponse, writeError: ErrorWriter) => {
  if (response.status < 400 || (response.headers["content-type"] ?? "").includes("json")) return response
  const text =
    response.body._tag === "Empty"
      ? ""
      : response.body._tag === "Uint8Array" && response.body.contentType.startsWith("text/plain")
        ? decoder.decode(response.body.body)
        : undefined
  if (text === undefined) return response
  return HttpServerResponse.setHeaders(
    writeError(response.status, {
      code: codeOfStatus[response.status] ?? `HTTP_${response.status}`,
      message: text.trim() || `HTTP ${response.status}`
    }),
    Object.fromEntries(Object.entries(response.headers).filter(([name]) => !name.startsWith("content-")))
  )
}

/** Unknown routes answer with the error body instead of an empty 404. Registered on every service. */
export const notFoundFallback = (writeError: ErrorWriter) =>
  HttpRouter.add("*", "*", (request) =>
    Effect.succeed(
      writeError(404, {
        code: "NOT_FOUND",
        message: `No route for ${request.method} ${request.url.split("?")[0]}`
      })
    )
  )
export const NotFoundFallbackLive = notFoundFallback(errorResponse)
