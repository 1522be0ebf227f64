import fc from "fast-check"
import { hostileJson, hostileString, rawBodies, wrongContentTypes } from "./Hostile.ts"
import type { Param, Route } from "./OpenApiRoutes.ts"
import { valueOf } from "./SchemaArbitrary.ts"

/**
 * One fuzz request for one documented route: mostly well-formed pieces with one or two broken on purpose, so that
 * each check of the route is reached by some inputs and tripped by others. `kind` names what was broken (for the
 * report); `session` asks the runner to attach the caller's session (Bearer or cookie).
 */
export interface FuzzRequest {
  readonly route: Route
  readonly method: string
  readonly pathAndQuery: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | Uint8Array | undefined
  readonly kind: ReadonlyArray<string>
  readonly sessionVia: "bearer" | "cookie" | "bogus" | "none"
}

export interface RequestOptions {
  /** A body this size (bytes) goes over the service's limit; sent rarely, since each costs that much. */
  readonly oversizeBytes: number
  readonly withSession: boolean
}

const asText = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? "null"))

/** Header values must be visible ASCII for fetch (undici refuses the rest before sending). */
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, "?").slice(0, 2000)

/**
 * Percent-encoding that survives lone surrogates (encodeURIComponent throws on them): they are sent as the bytes
 * of their WTF-8 form (`%ED%A0%80`), which is invalid UTF-8 — itself a case the server must refuse cleanly.
 */
const encode = (s: string) =>
  s
    .split(/([\ud800-\udfff])/u)
    .map((piece) =>
      /^[\ud800-\udfff]$/u.test(piece)
        ? [
            0xe0 | (piece.charCodeAt(0) >> 12),
            0x80 | ((piece.charCodeAt(0) >> 6) & 0x3f),
            0x80 | (piece.charCodeAt(0) & 0x3f)
          ]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join("")
        : encodeURIComponent(piece)
    )
    .join("")

/** `arb` one time in `n`, else null (fc.option's `freq` is the other way round: null one time in `freq`). */
const oneIn = <A>(n: number, arb: fc.Arbitrary<A>) =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb })

const part = <A>(name: string, arb: fc.Arbitrary<A>) => arb.map((value) => ({ name, value }))

const paramValue = (param: Param) =>
  fc.oneof(
    { weight: 3, arbitrary: part("valid", valueOf(param.schema).map(asText)) },
    { weight: 2, arbitrary: part(`hostile ${param.name}`, hostileString) }
  )

const pathOf = (route: Route) =>
  fc.tuple(...route.pathParams.map((p) => fc.tuple(paramValue(p), fc.integer({ min: 0, max: 9 })))).map((values) => {
    let path = route.path
    const kinds: Array<string> = []
    route.pathParams.forEach((p, i) => {
      const [{ name, value }, roll] = values[i]!
      if (name !== "valid") kinds.push(name)
      // Mostly percent-encoded; sometimes raw, which also makes bad escapes (`%zz`) and extra segments.
      path = path.replace(`{${p.name}}`, roll === 0 ? value : encode(value))
    })
    return { path, kinds }
  })

const queryOf = (route: Route) =>
  fc
    .tuple(
      fc.tuple(
        ...route.query.map((p) =>
          p.required
            ? paramValue(p)
            : fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: paramValue(p) })
        )
      ),
      oneIn(
        3,
        fc.oneof(
          part(
            "repeated key",
            fc
              .constantFrom(...(route.query.length > 0 ? route.query.map((p) => p.name) : ["limit"]))
              .chain((k) => hostileString.map((v) => `${k}=1&${k}=${encode(v)}`))
          ),
          part(
            "unknown key",
            hostileString.map((v) => `zz${encode(v.slice(0, 20))}=${encode(v)}`)
          ),
          part("bracket key", fc.constant("limit[]=1&offset[x]=2")),
          part("bad escape", fc.constant("q=%E0%A4%A&limit=%zz")),
          part("long query", fc.constant(`q=${"x".repeat(6000)}`))
        )
      )
    )
    .map(([values, extra]) => {
      const kinds: Array<string> = []
      const pairs = route.query.flatMap((p, i) => {
        const v = values[i]
        if (v === undefined) return []
        if (v.name !== "valid") kinds.push(v.name)
        return [`${encode(p.name)}=${encode(v.value)}`]
      })
      if (extra !== null) {
        kinds.push(extra.name)
        pairs.push(extra.value)
      }
      return { query: pairs.length === 0 ? "" : `?${pairs.join("&")}`, kinds }
    })

const jsonBody = (route: Route, options: RequestOptions) => {
  const schema = route.body?.schema ?? {}
  const valid = valueOf(schema)
  const keys = [...new Set([...Object.keys(schema.properties ?? {}), ...(schema.required ?? [])])]
  return fc.oneof(
    { weight: 30, arbitrary: part("valid body", valid.map(asText)) },
    {
      weight: 40,
      arbitrary: part(
        "hostile field",
        fc
          .tuple(valid, fc.constantFrom(...(keys.length > 0 ? keys : ["x"])), hostileJson)
          .map(([v, k, bad]) => asText(typeof v === "object" && v !== null ? { ...v, [k]: bad } : { [k]: bad }))
      )
    },
    {
      weight: 10,
      arbitrary: part(
        "missing field",
        fc.tuple(valid, fc.constantFrom(...(keys.length > 0 ? keys : ["x"]))).map(([v, k]) => {
          const copy = { ...(typeof v === "object" && v !== null ? v : {}) } as Record<string, unknown>
          delete copy[k]
          return asText(copy)
        })
      )
    },
    { weight: 10, arbitrary: part("wrong body type", hostileJson.map(asText)) },
    { weight: 20, arbitrary: part("raw body", rawBodies) },
    { weight: 10, arbitrary: part("empty body", fc.constant<string | undefined>(undefined)) },
    {
      weight: 1, // ~1 in 120: each one costs the limit in bytes
      arbitrary: part("oversized body", fc.constant(`{"x":"${"a".repeat(options.oversizeBytes)}"}`))
    }
  )
}

/** A 1×1 PNG: a real image, so the upload routes get past the format check sometimes. */
const png1x1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64"
)

const multipartBody = fc
  .tuple(
    fc.constantFrom("file", "image", "", "file[]"),
    fc.oneof(
      part("png", fc.constant<Uint8Array>(png1x1)),
      part("truncated png", fc.constant<Uint8Array>(png1x1.subarray(0, 20))),
      part("svg", fc.constant<Uint8Array>(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>"))),
      part("random bytes", fc.uint8Array({ maxLength: 256 })),
      part("empty file", fc.constant<Uint8Array>(new Uint8Array()))
    ),
    fc.constantFrom("a.png", "../../../etc/passwd", 'x".png', "", "💥.gif"),
    fc.constantFrom("image/png", "image/svg+xml", "text/plain", "application/octet-stream", "image/gif"),
    fc.constantFrom("ok", "no closing boundary", "two files", "wrong boundary")
  )
  .map(([field, file, filename, type, shape]) => {
    const boundary = "fuzzBoundary7MA4YWxk"
    const head = (name: string) =>
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`
      )
    const pieces = [head(field), Buffer.from(file.value), Buffer.from("\r\n")]
    if (shape === "two files") pieces.push(head(field), Buffer.from(file.value), Buffer.from("\r\n"))
    if (shape !== "no closing boundary")
      pieces.push(Buffer.from(`--${shape === "wrong boundary" ? "other" : boundary}--\r\n`))
    return {
      name: `multipart ${file.name} ${shape}`,
      value: new Uint8Array(Buffer.concat(pieces)),
      contentType: `multipart/form-data; boundary=${boundary}`
    }
  })

const extraHeaders = oneIn(
  4,
  fc.oneof(
    part(
      "x-request-id",
      hostileString.map((v) => ({ "x-request-id": headerSafe(v) }))
    ),
    part(
      "x-forwarded-for",
      hostileString.map((v) => ({ "x-forwarded-for": headerSafe(v) }))
    ),
    part(
      "accept",
      fc.constantFrom({ accept: "application/xml" }, { accept: "*/*;q=x" }, { "accept-encoding": "gzip;q=2, br" })
    ),
    part("origin", fc.constantFrom({ origin: "https://evil.example" }, { origin: "null" }))
  )
)

/** The request arbitrary of one route. */
export const requestsOf = (route: Route, options: RequestOptions): fc.Arbitrary<FuzzRequest> => {
  const takesBody = route.body !== undefined || ["POST", "PATCH", "PUT", "DELETE"].includes(route.method)
  const body = route.body?.contentType.startsWith("multipart/")
    ? fc.oneof(
        { weight: 4, arbitrary: multipartBody },
        { weight: 1, arbitrary: jsonBody(route, options).map((b) => ({ ...b, contentType: "application/json" })) }
      )
    : takesBody
      ? jsonBody(route, options).map((b) => ({ ...b, contentType: "application/json" }))
      : fc.constant({
          name: "",
          value: undefined as string | Uint8Array | undefined,
          contentType: undefined as string | undefined
        })
  return fc
    .record({
      path: pathOf(route),
      query: queryOf(route),
      body,
      contentType: fc.oneof(
        { weight: 6, arbitrary: fc.constant<string | null>(null) }, // the body's own type
        { weight: 1, arbitrary: wrongContentTypes },
        { weight: 1, arbitrary: fc.constant("") }
      ),
      sessionVia: options.withSession
        ? fc.constantFrom("bearer" as const, "cookie" as const)
        : fc.oneof(
            { weight: 4, arbitrary: fc.constant("none" as const) },
            { weight: 1, arbitrary: fc.constant("bogus" as const) }
          ),
      extra: extraHeaders,
      wrongMethod: oneIn(15, fc.constantFrom("PUT", "DELETE", "PATCH", "POST", "GET"))
    })
    .map(({ path, query, body, contentType, sessionVia, extra, wrongMethod }) => {
      const kinds = [...path.kinds, ...query.kinds]
      if (body.name !== "") kinds.push(body.name)
      const headers: Record<string, string> = {}
      const type = contentType === null ? body.contentType : contentType
      if (body.value !== undefined && type !== undefined && type !== "") headers["content-type"] = type
      if (contentType !== null && body.value !== undefined) kinds.push(`content-type "${contentType}"`)
      if (extra !== null) {
        Object.assign(headers, extra.value)
        kinds.push(extra.name)
      }
      const method = wrongMethod ?? route.method
      if (wrongMethod !== null) kinds.push(`method ${wrongMethod}`)
      return {
        route,
        method,
        pathAndQuery: path.path + query.query,
        headers,
        body: method === "GET" ? undefined : body.value,
        kind: kinds,
        sessionVia
      }
    })
}
