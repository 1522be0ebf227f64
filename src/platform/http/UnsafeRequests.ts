import type { HttpServerRequest, HttpServerResponse } from "effect/http"
import type { BodyLimitKind } from "./BodyLimits.ts"
import type { ErrorWriter } from "./ErrorWriter.ts"

/**
 * A service's rules for state-changing requests (POST, PUT, PATCH, DELETE), passed to `serveService` as its
 * ErrorShape is: the shared stack knows no feature's cookie or route. A service that passes none (exchange, search,
 * indexer: no cookie authenticates anything there) is not checked. docs/SECURITY.md, "Cross-site requests".
 */
export interface UnsafeRequestPolicy {
  /**
   * The cookies that authenticate a request (the client API's session cookie). A request that carries one and no
   * `Authorization: Bearer` is cookie-authenticated: a browser attached the cookie, whoever's page sent it.
   */
  readonly credentialCookies: ReadonlyArray<string>
}

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** `Content-Length` over 0 or a chunked body: something to parse. A bodiless POST (logout, like) names no type. */
const carriesBody = (headers: HttpServerRequest.HttpServerRequest["headers"]) =>
  headers["transfer-encoding"] !== undefined || Number(headers["content-length"] ?? 0) > 0

const mediaTypeOf = (contentType: string | undefined) => (contentType ?? "").split(";", 1)[0]!.trim().toLowerCase()

/** The same test as the session middleware's: a Bearer token in `Authorization` wins over the cookie. */
const bearerPattern = /^Bearer +\S+\s*$/iu

/** The `host[:port]` of an origin (`https://app.example.com`), or undefined for `null` and garbage. */
const hostOf = (origin: string) => {
  try {
    return new URL(origin).host.toLowerCase()
  } catch {
    return undefined
  }
}

/**
 * Builds the check the global middleware (RequestContext.ts) runs before a state-changing request reaches its route;
 * it answers the refusal, or `undefined` to let the request through:
 *
 * - **403 CROSS_SITE_REQUEST** for a cookie-authenticated request that a browser marks `Sec-Fetch-Site: cross-site`,
 *   or whose `Origin` is neither one of `allowedOrigins` (CORS_ORIGINS) nor the request's own host (`Host`, so a
 *   front end served from the API's own origin needs no setting). `SameSite=Lax` keeps the cookie off cross-site
 *   POSTs, but not off those of a sibling subdomain (same site), which this check refuses by its `Origin`.
 *   Bearer-authenticated requests are not checked: a page cannot make a browser attach someone's Bearer token.
 * - **415 UNSUPPORTED_MEDIA_TYPE** for a body that is not `application/json`, or `multipart/form-data` on a route that
 *   takes an upload (`routeKind`). A page can send a simple (no-preflight) request only as `text/plain`, a form or
 *   multipart: requiring JSON keeps such bodies from being parsed as if the API's own client had sent them.
 */
export const makeUnsafeRequestGuard = (
  policy: UnsafeRequestPolicy,
  allowedOrigins: ReadonlyArray<string>,
  writeError: ErrorWriter
) => {
  const allowed = new Set(allowedOrigins.filter((o) => o !== "*"))

  const cookieAuthenticated = (request: HttpServerRequest.HttpServerRequest) =>
    !bearerPattern.test(request.headers["authorization"] ?? "") &&
    policy.credentialCookies.some((name) => (request.cookies[name] ?? "") !== "")

  const foreignOrigin = (request: HttpServerRequest.HttpServerRequest) => {
    const origin = request.headers["origin"]
    if (origin === undefined || allowed.has(origin)) return false
    const host = request.headers["host"]?.toLowerCase()
    return host === undefined || hostOf(origin) !== host
  }

  return (
    request: HttpServerRequest.HttpServerRequest,
    routeKind: BodyLimitKind | undefined
  ): HttpServerResponse.HttpServerResponse | undefined => {
    if (!unsafeMethods.has(request.method)) return undefined
    if (
      cookieAuthenticated(request) &&
      (request.headers["sec-fetch-site"] === "cross-site" || foreignOrigin(request))
    ) {
      return writeError(403, {
        code: "CROSS_SITE_REQUEST",
        message:
          "A cookie-authenticated request from another site is refused; call from an origin in CORS_ORIGINS or send the session as Authorization: Bearer"
      })
    }
    if (!carriesBody(request.headers)) return undefined
    const type = mediaTypeOf(request.headers["content-type"])
    if (type === "application/json" || (routeKind === "upload" && type === "multipart/form-data")) return undefined
    const accepted = routeKind === "upload" ? ["multipart/form-data"] : ["application/json"]
    return writeError(415, {
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: `A ${request.method} body must be sent as ${accepted.join(" or ")}${type === "" ? " (no Content-Type was given)" : `, not ${type.slice(0, 100)}`}`,
      details: { accepted }
    })
  }
}
