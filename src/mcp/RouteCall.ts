import type { RouteTool } from "./RouteTools.ts"

/**
 * A tool call becomes the route's own HTTP request (path, query, JSON or multipart body, credentials), and the
 * route's answer becomes the tool result. Validation, auth and errors are the route's: nothing is re-implemented here.
 */

export interface Credentials {
  /** Session JWT, sent as `Authorization: Bearer`. */
  readonly session?: string | undefined
  /** Partner key, sent in the header the route declares (or `apiKeyHeader`, the server's configured name). */
  readonly apiKey?: string | undefined
  /** The header the service reads the partner key from (QUOTE_API_KEY_HEADER); default: the route's declared one. */
  readonly apiKeyHeader?: string | undefined
}

/** The route's answer, read whole. */
export interface RouteResponse {
  readonly status: number
  readonly contentType: string
  readonly body: Uint8Array
}

/** `{code, message}` as the route said it (or as its status says it when the body has no code). */
export interface ToolError {
  readonly status: number
  readonly code: string
  readonly message: string
  readonly details?: unknown
}

export type Built =
  | { readonly _tag: "Request"; readonly request: Request }
  | { readonly _tag: "Invalid"; readonly error: ToolError }

const invalid = (message: string, details?: unknown): Built => ({
  _tag: "Invalid",
  error: { status: 400, code: "INVALID_ARGUMENTS", message, ...(details !== undefined ? { details } : {}) }
})

const text = (value: unknown) =>
  typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value)

const decodeBase64 = (value: string): Uint8Array | undefined => {
  const clean = value.replace(/^data:[^,]*,/, "").replace(/\s+/g, "")
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return undefined
  return new Uint8Array(Buffer.from(clean, "base64"))
}

/** Builds the HTTP request of one tool call against `baseUrl` (the service's own origin). */
export const buildRequest = (
  tool: RouteTool,
  input: Record<string, unknown> | undefined,
  baseUrl: string,
  credentials: Credentials
): Built => {
  const args = input ?? {}
  const route = tool.route
  const known = new Set<string>([...route.pathParams, ...route.queryParams])
  if (route.body.kind === "json")
    for (const f of route.body.fields === "nested" ? ["body"] : route.body.fields) known.add(f)
  if (route.body.kind === "multipart") for (const f of [...route.body.fields, ...route.body.files]) known.add(f)
  const unknown = Object.keys(args).filter((k) => !known.has(k))
  if (unknown.length > 0) {
    return invalid(`Unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} for ${tool.name}`, {
      unknown
    })
  }

  let path = route.path
  for (const name of route.pathParams) {
    const value = args[name]
    if (value === undefined || value === null || value === "")
      return invalid(`Missing path parameter "${name}"`, { field: name })
    path = path.replace(new RegExp(`[:{]${name}\\}?(?=/|$)`), encodeURIComponent(text(value)))
  }
  const url = new URL(path, baseUrl)
  for (const name of route.queryParams) {
    const value = args[name]
    if (value === undefined || value === null) continue
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, text(item))
  }

  const headers = new Headers({ accept: "application/json, */*" })
  if (credentials.session !== undefined) headers.set("authorization", `Bearer ${credentials.session}`)
  if (route.apiKeyHeader !== undefined && credentials.apiKey !== undefined) {
    headers.set(credentials.apiKeyHeader ?? route.apiKeyHeader, credentials.apiKey)
  }

  let body: string | FormData | undefined
  if (route.body.kind === "json") {
    const payload =
      route.body.fields === "nested"
        ? args["body"]
        : Object.fromEntries(route.body.fields.filter((f) => args[f] !== undefined).map((f) => [f, args[f]]))
    headers.set("content-type", "application/json")
    body = JSON.stringify(payload ?? {})
  } else if (route.body.kind === "multipart") {
    const form = new FormData()
    for (const name of route.body.fields)
      if (args[name] !== undefined && args[name] !== null) form.append(name, text(args[name]))
    for (const name of route.body.files) {
      const file = args[name] as { base64?: unknown; contentType?: unknown; filename?: unknown } | undefined | null
      if (file === undefined || file === null) continue // an optional part left out: the route decides
      if (typeof file.base64 !== "string" || typeof file.contentType !== "string") {
        return invalid(`"${name}" takes {base64, contentType}`, { field: name })
      }
      const bytes = decodeBase64(file.base64)
      if (bytes === undefined) return invalid(`"${name}.base64" is not base64`, { field: `${name}.base64` })
      const filename = typeof file.filename === "string" && file.filename !== "" ? file.filename : name
      form.append(name, new Blob([bytes as Uint8Array<ArrayBuffer>], { type: file.contentType }), filename)
    }
    body = form
  }
  return {
    _tag: "Request",
    request: new Request(url, { method: route.method, headers, ...(body !== undefined ? { body } : {}) })
  }
}

const codeOfStatus = (status: number) =>
  (
    ({
      400: "BAD_REQUEST",
      401: "UNAUTHORIZED",
      403: "FORBIDDEN",
      404: "NOT_FOUND",
      409: "CONFLICT",
      413: "PAYLOAD_TOO_LARGE",
      415: "UNSUPPORTED_MEDIA_TYPE",
      429: "TOO_MANY_REQUESTS",
      503: "SERVICE_UNAVAILABLE"
    }) as Record<number, string>
  )[status] ?? (status >= 500 ? "INTERNAL" : "HTTP_ERROR")

const parseJson = (bytes: Uint8Array): unknown => {
  const source = new TextDecoder().decode(bytes)
  try {
    return JSON.parse(source)
  } catch {
    return source
  }
}

/** `{code, message}` of a failed route: our body, the exchange's spec'd `{error, details}` or a bare status. */
export const toolError = (response: RouteResponse): ToolError => {
  const body = parseJson(response.body) as any
  const object = typeof body === "object" && body !== null ? body : {}
  return {
    status: response.status,
    code:
      typeof object.code === "string"
        ? object.code
        : typeof object.reason === "string"
          ? object.reason
          : codeOfStatus(response.status),
    message:
      typeof object.message === "string"
        ? object.message
        : typeof object.error === "string"
          ? object.error
          : typeof body === "string" && body !== ""
            ? body
            : `HTTP ${response.status}`,
    ...(object.details !== undefined ? { details: object.details } : {})
  }
}

export type ToolOutcome =
  | {
      readonly _tag: "Success"
      readonly structured: Record<string, unknown>
      readonly image?: { data: string; mimeType: string }
    }
  | { readonly _tag: "Failure"; readonly error: ToolError }

/** The route's answer as the tool's structured output (shaped as the tool's outputSchema says). */
export const toOutcome = (tool: RouteTool, response: RouteResponse): ToolOutcome => {
  if (response.status < 200 || response.status >= 300) return { _tag: "Failure", error: toolError(response) }
  switch (tool.route.output) {
    case "empty":
      return { _tag: "Success", structured: {} }
    case "binary": {
      const base64 = Buffer.from(response.body).toString("base64")
      const structured = { contentType: response.contentType, base64 }
      return response.contentType.startsWith("image/")
        ? { _tag: "Success", structured, image: { data: base64, mimeType: response.contentType.split(";")[0]! } }
        : { _tag: "Success", structured }
    }
    case "wrapped":
      return { _tag: "Success", structured: { result: parseJson(response.body) } }
    case "object": {
      const body = parseJson(response.body)
      return {
        _tag: "Success",
        structured: typeof body === "object" && body !== null ? (body as Record<string, unknown>) : { result: body }
      }
    }
  }
}
