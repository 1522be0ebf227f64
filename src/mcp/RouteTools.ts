import { Context, Schema } from "effect"
import { HttpApi, HttpApiSchema, OpenApi } from "effect/http-api"
import type { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { McpExclude, McpSessionEffect, McpToolHints } from "../platform/McpAnnotations.ts"
import { toolNames } from "./ToolNames.ts"
import {
  describe,
  encodedDoc,
  fileFields,
  fileInputSchema,
  type Json,
  objectOf,
  resolve,
  type SchemaDoc,
  typeDoc,
  withoutNullBranch
} from "./ToolSchemas.ts"

/**
 * One MCP tool per HttpApi endpoint, found by walking the API with `HttpApi.reflect` (there is no list of tools
 * anywhere). Pure data: the HTTP and stdio servers, the docs and the tests all read the same derivation.
 */

export interface ToolAnnotations {
  readonly title: string
  readonly readOnlyHint: boolean
  readonly destructiveHint: boolean
  readonly idempotentHint: boolean
  readonly openWorldHint: boolean
}

/** Where each input field goes in the HTTP request. */
export interface RouteBinding {
  /** The service that serves the route (`client`, `exchange`, `search`): where a call is sent. */
  readonly service: string
  readonly group: string
  readonly endpoint: string
  readonly method: string
  readonly path: string
  readonly pathParams: ReadonlyArray<string>
  readonly queryParams: ReadonlyArray<string>
  /** json: body fields flattened into the input (or the whole input field `body` when `nested`); multipart: parts. */
  readonly body:
    | { readonly kind: "none" }
    | { readonly kind: "json"; readonly fields: ReadonlyArray<string> | "nested" }
    | { readonly kind: "multipart"; readonly fields: ReadonlyArray<string>; readonly files: ReadonlyArray<string> }
  /** Header that carries the partner key when the route declares one (`x-api-key`). */
  readonly apiKeyHeader: string | undefined
  /** The route requires a session JWT (Bearer). */
  readonly requiresSession: boolean
  readonly sessionEffect: "issues" | "ends" | undefined
  /** object: the JSON body is the structured output; wrapped: `{result}`; empty: 204; binary: `{contentType, base64}`. */
  readonly output: "object" | "wrapped" | "empty" | "binary"
}

export interface RouteTool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: Json & { readonly type: "object" }
  readonly outputSchema: Json & { readonly type: "object" }
  readonly annotations: ToolAnnotations
  readonly route: RouteBinding
}

export interface DeriveOptions {
  readonly prefix: "app" | "dex"
  /** Tool name of the sign-in route, named in the descriptions of routes that need a session. */
  readonly signInTool?: string
}

/** An API and the service that serves it. */
export interface ServedApi {
  readonly service: string
  /** Any HttpApi (typed structurally: the variance of `HttpApi.Top` rejects concrete APIs). */
  readonly api: { readonly groups: unknown; readonly annotations: unknown }
}

interface Reflected {
  readonly service: string
  readonly group: HttpApiGroup.Top
  readonly endpoint: HttpApiEndpoint.Top
  readonly annotations: Context.Context<never>
  readonly middleware: ReadonlySet<any>
  readonly successes: ReadonlyMap<number, ReadonlyArray<Schema.Top>>
}

/** The endpoints of one API, in declaration order (skipping the ones OpenAPI excludes too). */
export const reflectRoutes = ({ api, service }: ServedApi): Array<Reflected> => {
  const routes: Array<Reflected> = []
  HttpApi.reflect(api as any, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint, mergedAnnotations, middleware, successes }) => {
      if (Context.getOrElse(mergedAnnotations, OpenApi.Exclude, () => false)) return
      routes.push({ service, group, endpoint, annotations: mergedAnnotations, middleware, successes })
    }
  })
  return routes
}

const methodHints = (method: string): Omit<ToolAnnotations, "title"> => {
  switch (method) {
    case "GET":
    case "HEAD":
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    case "PUT":
    case "PATCH":
    case "DELETE":
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }
    default:
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }
  }
}

const securityOf = (middleware: ReadonlySet<any>) => {
  let bearer = false
  let apiKeyHeader: string | undefined
  for (const m of middleware) {
    for (const scheme of Object.values((m?.security ?? {}) as Record<string, any>)) {
      if (scheme._tag === "Bearer") bearer = true
      if (scheme._tag === "ApiKey" && scheme.in === "header") apiKeyHeader = String(scheme.key).toLowerCase()
    }
  }
  return { bearer, apiKeyHeader }
}

const mergeDefs = (into: Record<string, Json>, doc: SchemaDoc) => Object.assign(into, doc.defs)

const descriptionOf = (doc: SchemaDoc, property: Json): Json => {
  if (typeof property["description"] === "string") return property
  const target = resolve(doc, property)
  return typeof target["description"] === "string" ? { ...property, description: target["description"] } : property
}

const hasBody = (method: string) => !["GET", "HEAD", "OPTIONS"].includes(method)

const buildInput = (route: Reflected, defs: Record<string, Json>) => {
  const { endpoint } = route
  const properties: Record<string, Json> = {}
  const required: Array<string> = []
  const add = (name: string, schema: Json, isRequired: boolean, fallback: string) => {
    if (name in properties) return false
    properties[name] = describe(schema, fallback)
    if (isRequired) required.push(name)
    return true
  }
  const params = (schema: Schema.Top | undefined, where: "path" | "query") => {
    if (schema === undefined) return []
    const doc = typeDoc(schema)
    mergeDefs(defs, doc)
    const object = objectOf(doc)
    if (object === undefined) return []
    return Object.entries(object.properties).flatMap(([name, property]) => {
      const schema = withoutNullBranch(descriptionOf(doc, property))
      // A path segment cannot be empty: say so, so that a model (or a generator) never sends "".
      const nonEmpty =
        where === "path" && schema["type"] === "string" && schema["minLength"] === undefined
          ? { ...schema, minLength: 1 }
          : schema
      return add(name, nonEmpty, object.required.includes(name), `The ${where} parameter \`${name}\``) ? [name] : []
    })
  }
  const pathParams = params(endpoint.params, "path")
  // A GET's "payload" is its query string (HttpApi encodes it as one).
  const payloads = [...endpoint.payload.values()]
  const queryFromPayload =
    !hasBody(endpoint.method) && payloads.length === 1 ? (payloads[0]!.schemas[0] as Schema.Top) : undefined
  const queryParams = [...params(endpoint.query, "query"), ...params(queryFromPayload, "query")]

  let body: RouteBinding["body"] = { kind: "none" }
  const multipart = [...endpoint.payload.entries()].find(([type]) => type.startsWith("multipart/"))
  const json = endpoint.payload.get("application/json")
  if (hasBody(endpoint.method) && multipart !== undefined) {
    const schema = multipart[1].schemas[0] as Schema.Top
    const files = fileFields(schema)
    const doc = encodedDoc(schema)
    mergeDefs(defs, doc)
    const object = objectOf(doc)
    const fields: Array<string> = []
    for (const [name, property] of Object.entries(object?.properties ?? {})) {
      const isFile = files.includes(name)
      const schemaJson = isFile ? fileInputSchema(name) : descriptionOf(doc, property)
      if (add(name, schemaJson, object!.required.includes(name), `The form field \`${name}\``)) fields.push(name)
      else throw new Error(`${endpoint.method} ${endpoint.path}: form field ${name} clashes with a parameter`)
    }
    body = { kind: "multipart", fields: fields.filter((f) => !files.includes(f)), files }
  } else if (
    hasBody(endpoint.method) &&
    json !== undefined &&
    !HttpApiSchema.isNoContent((json.schemas[0] as Schema.Top).ast)
  ) {
    const schema = json.schemas.length === 1 ? (json.schemas[0] as Schema.Top) : Schema.Union(json.schemas as any)
    const doc = encodedDoc(schema)
    mergeDefs(defs, doc)
    const object = objectOf(doc)
    const clashes = object !== undefined && Object.keys(object.properties).some((name) => name in properties)
    if (object !== undefined && !clashes) {
      const fields = Object.entries(object.properties).map(([name, property]) => {
        // An optional field is left out, as an optional parameter is: its `null` branch only confuses a model.
        const isRequired = object.required.includes(name)
        const schema = isRequired ? descriptionOf(doc, property) : withoutNullBranch(descriptionOf(doc, property))
        add(name, schema, isRequired, `The body field \`${name}\``)
        return name
      })
      body = { kind: "json", fields }
    } else {
      add("body", doc.schema, true, `The JSON body of ${endpoint.method} ${endpoint.path}`)
      body = { kind: "json", fields: "nested" }
    }
  }
  const inputSchema = {
    type: "object" as const,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false
  }
  return { inputSchema, pathParams, queryParams, body }
}

const isBinary = (schema: Schema.Top) => {
  try {
    // Not in the public typings of effect 4.1, but the same function OpenAPI uses to pick a response encoding.
    return (HttpApiSchema as any).getResponseEncodingSchema(schema)._tag === "Uint8Array"
  } catch {
    return false
  }
}

const buildOutput = (route: Reflected, defs: Record<string, Json>) => {
  const schemas = [...route.successes.entries()].filter(([status]) => status < 300).flatMap(([, s]) => s)
  const content = schemas.filter((s) => !HttpApiSchema.isNoContent(s.ast))
  if (content.length === 0) {
    return {
      output: "empty" as const,
      outputSchema: {
        type: "object" as const,
        description: "The route answers 204 No Content: an empty object",
        properties: {}
      }
    }
  }
  if (content.some(isBinary)) {
    return {
      output: "binary" as const,
      outputSchema: {
        type: "object" as const,
        properties: {
          contentType: { type: "string", description: "MIME type of the bytes" },
          base64: { type: "string", contentEncoding: "base64", description: "The bytes, base64-encoded" }
        },
        required: ["contentType", "base64"]
      }
    }
  }
  const doc = encodedDoc(content.length === 1 ? content[0]! : Schema.Union(content as any))
  mergeDefs(defs, doc)
  const root = resolve(doc)
  if (objectOf(doc) !== undefined)
    return { output: "object" as const, outputSchema: { ...root, type: "object" as const } }
  return {
    output: "wrapped" as const,
    outputSchema: {
      type: "object" as const,
      description: "The route's JSON answer is under `result`",
      properties: { result: doc.schema },
      required: ["result"]
    }
  }
}

const summaryOf = (route: Reflected) =>
  Context.getOrUndefined(route.endpoint.annotations, OpenApi.Summary) ??
  `${route.endpoint.method} ${route.endpoint.path}`

const describeTool = (route: Reflected, binding: Omit<RouteBinding, "output">, options: DeriveOptions) => {
  const text = Context.getOrUndefined(route.endpoint.annotations, OpenApi.Description)
  const groupText = Context.getOrUndefined(route.group.annotations, OpenApi.Description)
  const auth = binding.requiresSession
    ? `Needs a session: sign in first with ${options.signInTool ?? "the sign-in tool"} (this MCP session then sends its JWT), ` +
      "or connect with `Authorization: Bearer <JWT>`."
    : binding.apiKeyHeader !== undefined
      ? `Needs a partner key (not the session JWT): the \`${binding.apiKeyHeader}\` header on the MCP HTTP connection ` +
        "(kept for the MCP session once sent), or FIRE_API_KEY for the stdio server. Servers without partner keys accept any call."
      : undefined
  const files =
    binding.body.kind === "multipart" && binding.body.files.length > 0
      ? `File parts (${binding.body.files.join(", ")}) are given as {base64, contentType}.`
      : undefined
  return [
    summaryOf(route) + ".",
    text,
    auth,
    files,
    `Route: ${binding.method} ${binding.path}${groupText ? ` (${groupText})` : ""}.`
  ]
    .filter((s): s is string => s !== undefined && s !== "")
    .join("\n\n")
}

/**
 * Derives the tools of one or more APIs served together under one prefix (the exchange and search APIs are both
 * `dex_`). A route whose method and path an earlier API already has (the search service's `/api/health`, same as
 * the exchange's) is one tool, not two.
 */
export const deriveTools = (apis: ReadonlyArray<ServedApi>, options: DeriveOptions): Array<RouteTool> => {
  const seen = new Set<string>()
  const routes = apis.flatMap(reflectRoutes).filter((r) => {
    if (Context.getOrElse(r.annotations, McpExclude, () => false)) return false
    const key = `${r.endpoint.method} ${r.endpoint.path}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  const names = toolNames(
    options.prefix,
    routes.map((r) => ({ method: r.endpoint.method, path: r.endpoint.path }))
  )
  return routes.map((route, i) => {
    const inputDefs: Record<string, Json> = {}
    const outputDefs: Record<string, Json> = {}
    const { inputSchema, pathParams, queryParams, body } = buildInput(route, inputDefs)
    const { output, outputSchema } = buildOutput(route, outputDefs)
    const security = securityOf(route.middleware)
    const binding: Omit<RouteBinding, "output"> = {
      service: route.service,
      group: route.group.identifier,
      endpoint: route.endpoint.identifier,
      method: route.endpoint.method,
      path: route.endpoint.path,
      pathParams,
      queryParams,
      body,
      apiKeyHeader: security.apiKeyHeader,
      requiresSession: security.bearer,
      sessionEffect: Context.getOrUndefined(route.endpoint.annotations, McpSessionEffect)
    }
    const withDefs = <S extends Json>(schema: S, defs: Record<string, Json>): S =>
      Object.keys(defs).length > 0 ? { ...schema, $defs: defs } : schema
    const title = summaryOf(route)
    return {
      name: names[i]!,
      title,
      description: describeTool(route, binding, options),
      inputSchema: withDefs(inputSchema, inputDefs),
      outputSchema: withDefs(outputSchema, outputDefs),
      annotations: {
        title,
        ...methodHints(route.endpoint.method),
        ...Context.getOrElse(route.endpoint.annotations, McpToolHints, () => ({}))
      },
      route: { ...binding, output }
    }
  })
}
