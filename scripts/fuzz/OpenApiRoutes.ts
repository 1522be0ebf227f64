/**
 * Reads the routes a service documents in its OpenAPI document (`/docs/openapi.json`): what the fuzzer may send.
 * Only the parts the fuzzer needs are kept: path and query parameters with their schemas, the request body's
 * content type and schema, and whether the route takes a session. `$ref`s are resolved against the document.
 */

/** A JSON Schema as the OpenAPI document has it (draft 2020-12 subset that Effect's Schema emits). */
export type JsonSchema = {
  readonly type?: string | ReadonlyArray<string>
  readonly $ref?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly const?: unknown
  readonly pattern?: string
  readonly format?: string
  readonly minimum?: number
  readonly maximum?: number
  readonly exclusiveMinimum?: number
  readonly exclusiveMaximum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly minItems?: number
  readonly maxItems?: number
  readonly items?: JsonSchema
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly additionalProperties?: boolean | JsonSchema
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly oneOf?: ReadonlyArray<JsonSchema>
  readonly allOf?: ReadonlyArray<JsonSchema>
  readonly examples?: ReadonlyArray<unknown>
}

export type Service = "client" | "exchange" | "search"

export interface Param {
  readonly name: string
  readonly schema: JsonSchema
  readonly required: boolean
}

export interface Route {
  readonly service: Service
  readonly method: string
  /** OpenAPI template, e.g. `/v1/tokens/{mintAddress}`. */
  readonly path: string
  readonly operationId: string
  readonly pathParams: ReadonlyArray<Param>
  readonly query: ReadonlyArray<Param>
  /** The documented request body, if any: its content type (JSON or multipart) and schema. */
  readonly body: { readonly contentType: string; readonly schema: JsonSchema } | undefined
  /** The route declares a security requirement (Bearer or cookie session). */
  readonly secured: boolean
  /** Statuses the route documents. */
  readonly statuses: ReadonlyArray<number>
}

type Doc = {
  readonly paths: Record<string, Record<string, any>>
  readonly components?: { readonly schemas?: Record<string, JsonSchema> }
}

/** Replaces `$ref`s by their targets (recursively, with a depth cap for recursive schemas). */
export const resolver = (doc: Doc) => {
  const resolve = (schema: JsonSchema, depth = 0): JsonSchema => {
    if (depth > 12) return {}
    if (schema.$ref !== undefined) {
      const name = schema.$ref.replace(/^#\/components\/schemas\//, "")
      const target = doc.components?.schemas?.[name]
      return target === undefined ? {} : resolve(target, depth + 1)
    }
    const out: Record<string, unknown> = { ...schema }
    if (schema.items) out.items = resolve(schema.items, depth + 1)
    if (schema.properties) {
      out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, depth + 1)]))
    }
    for (const key of ["anyOf", "oneOf", "allOf"] as const) {
      const list = schema[key]
      if (list) out[key] = list.map((s) => resolve(s, depth + 1))
    }
    if (typeof schema.additionalProperties === "object") {
      out.additionalProperties = resolve(schema.additionalProperties, depth + 1)
    }
    return out as JsonSchema
  }
  return resolve
}

const methods = ["get", "post", "put", "patch", "delete"] as const

/** Every route of one OpenAPI document. */
export const routesOf = (service: Service, doc: Doc): ReadonlyArray<Route> => {
  const resolve = resolver(doc)
  const routes: Array<Route> = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of methods) {
      const op = item[method]
      if (op === undefined) continue
      const params = ((op.parameters ?? []) as Array<any>).map((p) => ({
        in: p.in as string,
        param: { name: p.name as string, schema: resolve(p.schema ?? {}), required: p.required === true }
      }))
      const content = (op.requestBody?.content ?? {}) as Record<string, { schema?: JsonSchema }>
      const contentType = Object.keys(content)[0]
      routes.push({
        service,
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId ?? `${method} ${path}`),
        pathParams: params.filter((p) => p.in === "path").map((p) => p.param),
        query: params.filter((p) => p.in === "query").map((p) => p.param),
        body:
          contentType === undefined ? undefined : { contentType, schema: resolve(content[contentType]!.schema ?? {}) },
        secured: Array.isArray(op.security) && op.security.length > 0,
        statuses: Object.keys(op.responses ?? {})
          .map(Number)
          .filter(Number.isFinite)
      })
    }
  }
  return routes
}
