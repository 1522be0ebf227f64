import { Config, ConfigProvider, Effect } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { ErrorWriter } from "./ErrorWriter.ts"

/**
 * Browser-facing protections applied to every response of every service (from the global request middleware):
 *
 * - CORS. `CORS_ORIGINS` lists the origins (`https://app.example.com`) whose pages may call the APIs; only those get
 *   `Access-Control-Allow-Origin` with `Access-Control-Allow-Credentials: true` (the session cookie and
 *   `Authorization`). The entry `*` lets any other origin read responses *without* credentials (public data, e.g.
 *   the exchange API); it never grants credentials. Unset: no CORS headers at all, so browsers allow same-origin
 *   only. A preflight from an origin that is not allowed is refused (403 CORS_ORIGIN_NOT_ALLOWED).
 *   Whatever CORS_ORIGINS says, the routes the spec makes public to everyone (`openToAnyOrigin`) answer any origin
 *   as `*` does, without credentials: the exchange API's public tier and `POST /api/v1/quote/open` ("not restricted
 *   by origin"), the search service and the indexer's GraphQL ("need no credentials"). The exchange's other quote
 *   routes (the allowlisted `POST /api/v1/quote`, `GET /api/v1/quote`, `/quote/tokens`) stay with CORS_ORIGINS: they
 *   serve our own frontend, and partners call them from servers.
 * - Security headers: `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` and CSP `frame-ancestors 'none'`
 *   (no framing, so no clickjacking of the docs and GraphiQL pages), `Referrer-Policy: no-referrer`, and HSTS when
 *   the request came over TLS (`X-Forwarded-Proto: https` from a trusted proxy, TRUST_PROXY=true). A route that sets
 *   its own CSP keeps it (GraphiQL's page: src/indexer/graphql/GraphiqlAssets.ts, which also says `frame-ancestors 'none'`).
 */
export interface HttpSecuritySettings {
  readonly corsOrigins: ReadonlyArray<string>
  readonly hstsMaxAgeSeconds: number
}

const invalid = (name: string, why: string) =>
  Config.fail(new ConfigProvider.SourceError({ message: `${name}: ${why}` }))

export const httpSecurityConfig: Config.Config<HttpSecuritySettings> = Config.all({
  corsOrigins: Config.String("CORS_ORIGINS").pipe(
    Config.withDefault(""),
    Config.map((s) =>
      s
        .split(",")
        .map((x) => x.trim().replace(/\/$/u, ""))
        .filter((x) => x !== "")
    ),
    Config.flatMap((origins) => {
      // An origin is scheme://host[:port], exactly what browsers send in `Origin`; a typo would silently never match.
      const bad = origins.find((o) => o !== "*" && !/^https?:\/\/[^\s/?#]+$/u.test(o))
      return bad === undefined
        ? Config.succeed(origins)
        : invalid("CORS_ORIGINS", `"${bad}" is not an origin (scheme://host[:port]) or *`)
    })
  ),
  hstsMaxAgeSeconds: Config.Int("HSTS_MAX_AGE_SECONDS").pipe(Config.withDefault(31_536_000))
})

const allowMethods = "GET, POST, PATCH, PUT, DELETE, OPTIONS"
const allowHeaders =
  "authorization, content-type, x-request-id, x-api-key, mcp-session-id, mcp-protocol-version, last-event-id"
const exposeHeaders = "x-request-id, ratelimit-limit, ratelimit-remaining, ratelimit-reset, retry-after, mcp-session-id"

const baseHeaders = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "content-security-policy": "frame-ancestors 'none'"
} as const

/** A request came over TLS when the trusted proxy says so (`X-Forwarded-Proto: https`, first hop); never without TRUST_PROXY. */
const overTls = (trustProxy: boolean, forwardedProto: string | undefined) =>
  trustProxy && forwardedProto !== undefined && forwardedProto.split(",")[0]!.trim() === "https"

/**
 * The security headers of a response, given the request's `X-Forwarded-Proto`, in the order they are sent. The one
 * definition for both ways a response leaves: `decorate` below (the Effect HTTP app) and the fast lane
 * (src/platform/http/CachedFastLane.ts), which answers cache hits at the Node listener and must send the same headers.
 */
export const makeSecurityHeaders = (hstsMaxAgeSeconds: number, trustProxy: boolean) => {
  const { plain, tls, isTls } = securityHeaderVariants(hstsMaxAgeSeconds, trustProxy)
  return (forwardedProto: string | undefined) => (isTls(forwardedProto) ? tls : plain)
}

/**
 * The two sets of security headers (without and with HSTS) and which one a request gets: for the fast lane, which
 * turns each into a header block once instead of per request.
 */
export const securityHeaderVariants = (hstsMaxAgeSeconds: number, trustProxy: boolean) => {
  const plain: Readonly<Record<string, string>> = baseHeaders
  const tls: Readonly<Record<string, string>> = {
    ...baseHeaders,
    "strict-transport-security": `max-age=${hstsMaxAgeSeconds}; includeSubDomains`
  }
  return { plain, tls, isTls: (forwardedProto: string | undefined) => overTls(trustProxy, forwardedProto) }
}

/** Which routes of a service any origin may call without credentials (see above); `path` without the query. */
export type OpenToAnyOrigin = (method: string, path: string) => boolean

/**
 * The spec's answer per service, as an allowlist of its public routes: the exchange's `/api/v1/…` reads and
 * `/api/health` (not the frontend quote routes, but `POST /api/v1/quote/open`), the search service's, the indexer's
 * `/v1/graphql`, and the OpenAPI docs. Never the operational routes (`/metrics`, `/readyz`, `/livez`): those are
 * for the monitoring network, and a page on any site must not read them through a visitor's browser.
 */
export const openToAnyOriginOf = (service: string): OpenToAnyOrigin => {
  const docs = (path: string) => path === "/docs" || path.startsWith("/docs/")
  switch (service) {
    case "exchange":
      return (method, path) =>
        path === "/api/v1/quote" || path.startsWith("/api/v1/quote/")
          ? method === "POST" && path === "/api/v1/quote/open"
          : path.startsWith("/api/v1/") || path === "/api/health" || docs(path)
    case "search":
      return (_, path) => path.startsWith("/api/v1/") || path === "/api/health" || docs(path)
    case "indexer":
      return (_, path) => path === "/v1/graphql"
    default:
      return () => false
  }
}

const pathOf = (url: string) => {
  const q = url.indexOf("?")
  return q === -1 ? url : url.slice(0, q)
}

/** Request headers a preflight may ask for on an open route: header names only (RFC 9110 tokens), at most 20. */
const requestedHeaders = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => /^[a-z0-9!#$%&'*+.^_`|~-]{1,64}$/u.test(h))
    .slice(0, 20)

export const makeHttpSecurity = (
  settings: HttpSecuritySettings,
  trustProxy: boolean,
  writeError: ErrorWriter,
  openToAnyOrigin: OpenToAnyOrigin = () => false
) => {
  const securityHeaders = makeSecurityHeaders(settings.hstsMaxAgeSeconds, trustProxy)
  const listed = new Set(settings.corsOrigins.filter((o) => o !== "*"))
  const anyOrigin = settings.corsOrigins.includes("*")

  /** The CORS headers for `origin` calling `method path`, or undefined when it may not read responses. */
  const corsFor = (origin: string | undefined, method: string, url: string): Record<string, string> | undefined => {
    if (origin === undefined) return undefined
    if (listed.has(origin)) {
      return { "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "Origin" }
    }
    return anyOrigin || openToAnyOrigin(method, pathOf(url)) ? { "access-control-allow-origin": "*" } : undefined
  }

  /** Answers a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method); other requests: undefined. */
  const preflight = (request: HttpServerRequest.HttpServerRequest) => {
    const origin = request.headers["origin"]
    if (
      request.method !== "OPTIONS" ||
      origin === undefined ||
      request.headers["access-control-request-method"] === undefined
    ) {
      return undefined
    }
    const method = String(request.headers["access-control-request-method"]).toUpperCase()
    const cors = corsFor(origin, method, request.url)
    if (cors === undefined) {
      return writeError(403, {
        code: "CORS_ORIGIN_NOT_ALLOWED",
        message: `Origin ${origin.slice(0, 200)} is not allowed (CORS_ORIGINS)`
      })
    }
    // Without credentials any header may be asked for (e.g. a renamed partner-key header); with them, only ours.
    const headers =
      cors["access-control-allow-credentials"] === undefined
        ? [
            ...new Set([
              ...allowHeaders.split(", "),
              ...requestedHeaders(request.headers["access-control-request-headers"])
            ])
          ].join(", ")
        : allowHeaders
    return HttpServerResponse.empty({
      status: 204,
      headers: {
        ...cors,
        "access-control-allow-methods": allowMethods,
        "access-control-allow-headers": headers,
        "access-control-max-age": "600"
      }
    })
  }

  /** Adds the security and CORS headers to a response (a route's own CSP is kept). */
  const decorate = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) => {
    const headers: Record<string, string> = { ...securityHeaders(request.headers["x-forwarded-proto"]) }
    if (response.headers["content-security-policy"] !== undefined) delete headers["content-security-policy"]
    const cors = corsFor(request.headers["origin"], request.method, request.url)
    if (cors !== undefined) {
      Object.assign(headers, cors, { "access-control-expose-headers": exposeHeaders })
      const vary = response.headers["vary"]
      if (cors.vary !== undefined && vary !== undefined) headers.vary = `${vary}, Origin`
    }
    return HttpServerResponse.setHeaders(response, headers)
  }

  return { preflight, decorate }
}

export const loadHttpSecurity = (trustProxy: boolean, writeError: ErrorWriter, service: string) =>
  Effect.map(httpSecurityConfig, (settings) =>
    makeHttpSecurity(settings, trustProxy, writeError, openToAnyOriginOf(service))
  )
