import { Config, Context, Effect } from "effect"
import { HttpApi, type HttpApiGroup } from "effect/http-api"
import { AppConfig } from "../AppConfig.ts"

/**
 * Request body limits per route (docs/SECURITY.md, "Body size limits"). Each route belongs to one kind, and each kind
 * has its limit; a body over its route's limit is answered 413 PAYLOAD_TOO_LARGE by the global middleware
 * (src/platform/http/RequestContext.ts): a declared `Content-Length` before anything is read, a streamed body when the reader
 * passes the limit.
 *
 * Where the kinds come from: an HttpApi's routes are read from the API itself (`routeBodyLimits`: a multipart payload
 * is an upload, any other body JSON), so a new endpoint gets the right limit without a list to keep up to date; the
 * routes outside the HttpApis declare theirs where they are added (GraphQL in src/indexer/graphql/GraphqlHttp.ts, `/mcp` in
 * src/mcp/McpHttp.ts). A request to any other route (none of which reads a body) gets the JSON limit.
 *
 * MAX_BODY_BYTES stays the ceiling of every route but `/mcp`: an operator can lower all limits at once.
 */
export type BodyLimitKind = "json" | "upload" | "graphql" | "mcp"

/**
 * JSON bodies of the REST routes. The largest legitimate one is a token claim carrying a 20,000-character ERC-6492
 * signature (under 25 KB); everything else is a few hundred bytes.
 */
export const JSON_BODY_BYTES = 65_536
/** GraphQL requests: a document with fragments and variables (the full introspection query is under 2 KB). */
export const GRAPHQL_BODY_BYTES = 131_072
/** What an upload may carry besides its file: boundaries, part headers, up to 4 parts of ≤ 4 KiB (ImageUploadLimits). */
export const MULTIPART_ENVELOPE_BYTES = 65_536
/** What an MCP tool call adds around its arguments (JSON-RPC envelope, tool name, the other arguments). */
export const MCP_ENVELOPE_BYTES = 65_536

export type BodyLimitBytes = Readonly<Record<BodyLimitKind, number>>

/**
 * The largest file an upload route takes, in bytes (IMAGE_MAX_BYTES: the uploads are images; the image store,
 * src/client-api/accounts/images/ImageStore.ts, holds the file part to the same setting).
 */
export const uploadFileBytesConfig: Config.Config<number> = Config.Int("IMAGE_MAX_BYTES").pipe(
  Config.withDefault(1_000_000)
)

/** The limit of each kind under this configuration (MAX_BODY_BYTES, IMAGE_MAX_BYTES). */
export const bodyLimitBytes = Effect.gen(function* () {
  const { maxBodyBytes } = yield* AppConfig
  const imageMaxBytes = yield* uploadFileBytesConfig
  const capped = (bytes: number) => Math.min(bytes, maxBodyBytes)
  const upload = capped(imageMaxBytes + MULTIPART_ENVELOPE_BYTES)
  const limits: BodyLimitBytes = {
    json: capped(JSON_BODY_BYTES),
    graphql: capped(GRAPHQL_BODY_BYTES),
    upload,
    // A tool call carries a file as base64 inside JSON-RPC (4/3 of its bytes): the route it becomes is held to its
    // own limit, so the largest file is the same over REST and MCP.
    mcp: Math.ceil((upload * 4) / 3) + MCP_ENVELOPE_BYTES
  }
  return limits
})

/** One route's kind. `method` is an HTTP method or `*`; `path` a router pattern (`/v1/launch/:id/image`). */
export interface RouteBodyLimit {
  readonly method: string
  readonly path: string
  readonly kind: BodyLimitKind
}

/** The kind of a body from the content types its route takes: multipart is an upload, anything else JSON. */
export const kindOfContentTypes = (contentTypes: Iterable<string>): BodyLimitKind =>
  [...contentTypes].some((type) => type.startsWith("multipart/")) ? "upload" : "json"

/** The routes of an HttpApi that take a body, with their kind, read from the endpoints' payload declarations. */
export const routeBodyLimits = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): Array<RouteBodyLimit> => {
  const routes: Array<RouteBodyLimit> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      if (endpoint.payload.size === 0) return
      routes.push({ method: endpoint.method, path: endpoint.path, kind: kindOfContentTypes(endpoint.payload.keys()) })
    }
  })
  return routes
}

/**
 * Finds the limit of a request among the declared routes (most specific pattern first); others get the JSON limit.
 * `kindFor` answers the declared kind itself (`undefined`: the route declared no body), which the unsafe-request
 * guard (UnsafeRequests.ts) reads to know which routes take multipart.
 */
export const makeBodyLimitTable = (bytes: BodyLimitBytes) => {
  const exact = new Map<string, BodyLimitKind>()
  const patterns: Array<{
    readonly method: string
    readonly segments: ReadonlyArray<string | undefined>
    readonly kind: BodyLimitKind
  }> = []
  const staticCount = (segments: ReadonlyArray<string | undefined>) => segments.filter((s) => s !== undefined).length

  const declare = (routes: ReadonlyArray<RouteBodyLimit>) => {
    for (const { kind, method, path } of routes) {
      if (!path.includes(":")) {
        exact.set(`${method} ${path}`, kind)
        continue
      }
      const segments = path.split("/").map((s) => (s.startsWith(":") ? undefined : s))
      patterns.push({ method, segments, kind })
    }
    patterns.sort((a, b) => staticCount(b.segments) - staticCount(a.segments))
  }

  const kindFor = (method: string, url: string): BodyLimitKind | undefined => {
    const path = url.split("?", 1)[0]!
    const found = exact.get(`${method} ${path}`) ?? exact.get(`* ${path}`)
    if (found !== undefined) return found
    if (patterns.length > 0) {
      const segments = path.split("/")
      for (const p of patterns) {
        if (
          (p.method === method || p.method === "*") &&
          p.segments.length === segments.length &&
          p.segments.every((s, i) => (s === undefined ? segments[i] !== "" : s === segments[i]))
        )
          return p.kind
      }
    }
    return undefined
  }

  const limitFor = (method: string, url: string): number => bytes[kindFor(method, url) ?? "json"]

  return { bytes, declare, kindFor, limitFor }
}
export type BodyLimitTable = ReturnType<typeof makeBodyLimitTable>

/** Where the route layers of one server declare the body limits of their routes (provided by `serveService`). */
export class BodyLimits extends Context.Service<
  BodyLimits,
  {
    /** The limit of each kind on this server. */
    readonly bytes: BodyLimitBytes
    readonly declare: (routes: ReadonlyArray<RouteBodyLimit>) => Effect.Effect<void>
  }
>()("app/http/BodyLimits") {}

const thousands = (n: number) => n.toLocaleString("en-US")

/** The sentence the OpenAPI document gives a route's body, with the limit of this configuration. */
export const bodyLimitSentence = (kind: BodyLimitKind, bytes: BodyLimitBytes) =>
  kind === "upload"
    ? `Request body limit: ${thousands(bytes.upload)} bytes in all (the file part up to IMAGE_MAX_BYTES, plus the multipart ` +
      `envelope); larger → 413 PAYLOAD_TOO_LARGE.`
    : `Request body limit: ${thousands(bytes[kind])} bytes; larger → 413 PAYLOAD_TOO_LARGE.`

/**
 * An OpenAPI transform (`OpenApi.Transform`) that appends its body limit to the description of every operation with
 * a request body, so the served document states the limits this server enforces.
 */
export const documentBodyLimits =
  (bytes: BodyLimitBytes) =>
  (spec: Record<string, any>): Record<string, any> => {
    for (const operations of Object.values<Record<string, any>>(spec.paths ?? {})) {
      for (const operation of Object.values<any>(operations)) {
        const content = operation?.requestBody?.content
        if (content === undefined) continue
        const sentence = bodyLimitSentence(kindOfContentTypes(Object.keys(content)), bytes)
        operation.description =
          operation.description === undefined ? sentence : `${operation.description}\n\n${sentence}`
      }
    }
    return spec
  }
