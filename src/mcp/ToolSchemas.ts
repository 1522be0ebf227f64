import { Schema, SchemaAST } from "effect"

/** JSON Schema pieces for tool inputs and outputs, built from the route's Effect schemas. */

export type Json = Record<string, unknown>

export interface SchemaDoc {
  readonly schema: Json
  readonly defs: Record<string, Json>
}

/** The wire (encoded) form: what the route reads from a JSON body and writes in a response. */
export const encodedDoc = (schema: Schema.Top): SchemaDoc => {
  const doc = Schema.toJsonSchemaDocument(schema)
  return { schema: doc.schema as Json, defs: doc.definitions as Record<string, Json> }
}

/**
 * Path and query values travel as strings, but a model should see what they mean: the decoded (type) side gives
 * real integers and booleans. A type that has no JSON form (a Date, a bigint) falls back to its string form.
 */
export const typeDoc = (schema: Schema.Top): SchemaDoc => {
  try {
    return encodedDoc(Schema.toType(schema))
  } catch {
    return encodedDoc(schema)
  }
}

/** Follows `#/$defs/<name>` references at the root. */
export const resolve = (doc: SchemaDoc, schema: Json = doc.schema): Json => {
  const ref = schema["$ref"]
  if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
    const target = doc.defs[decodeURIComponent(ref.slice("#/$defs/".length))]
    if (target !== undefined) return resolve(doc, target)
  }
  return schema
}

/** The properties of an object schema, or undefined when the root is not a plain object (array, union, scalar). */
export const objectOf = (doc: SchemaDoc): { properties: Record<string, Json>; required: Array<string> } | undefined => {
  const root = resolve(doc)
  if (root["type"] !== "object" || root["anyOf"] !== undefined || root["oneOf"] !== undefined) return undefined
  return {
    properties: (root["properties"] ?? {}) as Record<string, Json>,
    required: (root["required"] ?? []) as Array<string>
  }
}

/** An optional parameter is simply left out: the `null` branch the encoder adds for `optional` only confuses a model. */
export const withoutNullBranch = (property: Json): Json => {
  const anyOf = property["anyOf"]
  if (!Array.isArray(anyOf)) return property
  const rest = anyOf.filter((s: Json) => s["type"] !== "null")
  if (rest.length === anyOf.length) return property
  const { anyOf: _, ...outer } = property
  if (rest.length !== 1) return { ...outer, anyOf: rest }
  const inner = rest[0] as Json
  // Keep both texts: the field's own ("whose widget") and its type's ("EVM address, 0x + 40 hex digits").
  const texts = [outer["description"], inner["description"]].filter((d): d is string => typeof d === "string")
  const merged = { ...inner, ...outer }
  return texts.length === 2 && texts[0] !== texts[1] ? { ...merged, description: `${texts[0]}. ${texts[1]}` } : merged
}

const isPersistedFile = (ast: SchemaAST.AST) =>
  ast._tag === "Declaration" &&
  (ast.annotations?.["representation"] as { id?: string } | undefined)?.id === "effect/http/PersistedFile"

/**
 * Names of the file parts of a multipart payload (the rest are text fields): any property whose wire form is a
 * PersistedFile or an array of them (`SingleFileSchema`, `FilesSchema`, optional or not).
 */
export const fileFields = (schema: Schema.Top): Array<string> => {
  const ast = schema.ast
  if (ast._tag !== "Objects") return []
  return ast.propertySignatures
    .filter((p) => {
      const encoded = SchemaAST.toEncoded(p.type)
      return (
        isPersistedFile(encoded) ||
        (encoded._tag === "Arrays" && encoded.rest.length === 1 && isPersistedFile(encoded.rest[0]!))
      )
    })
    .map((p) => String(p.name))
}

/** How a file part is given to a tool: the bytes in base64 and their declared content type. */
export const fileInputSchema = (name: string): Json => ({
  type: "object",
  description: `The file part \`${name}\`: its bytes in base64 (standard alphabet, no data: prefix) and their content type`,
  properties: {
    base64: { type: "string", contentEncoding: "base64", description: "The file's bytes, base64-encoded" },
    contentType: { type: "string", description: "MIME type of the bytes, e.g. image/png, image/jpeg, image/webp" },
    filename: { type: "string", description: "File name to send (optional; defaults to the part name)" }
  },
  required: ["base64", "contentType"],
  additionalProperties: false
})

/** Every root property gets a description, so a model never has to guess what a field is. */
export const describe = (property: Json, fallback: string): Json =>
  typeof property["description"] === "string" && property["description"] !== ""
    ? property
    : { ...property, description: fallback }
