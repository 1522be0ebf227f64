import fc from "fast-check"
import type { JsonSchema } from "./OpenApiRoutes.ts"

/**
 * A fast-check arbitrary of values that a JSON Schema accepts (as far as the fuzzer cares): the starting point that
 * the request builder then breaks one piece at a time, so that malformed inputs also reach past the first check.
 * Patterns use `fc.stringMatching` (every pattern of these APIs is a `u`-flag regex), numbers stay in their bounds,
 * and the schema's own examples are mixed in because they often name rows that exist.
 */
export const valueOf = (schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> => {
  const examples =
    schema.examples !== undefined && schema.examples.length > 0 ? [fc.constantFrom(...schema.examples)] : []
  const withExamples = (arb: fc.Arbitrary<unknown>) =>
    examples.length === 0 ? arb : fc.oneof({ weight: 1, arbitrary: examples[0]! }, { weight: 2, arbitrary: arb })

  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives !== undefined && alternatives.length > 0) {
    return withExamples(fc.oneof(...alternatives.map((s) => valueOf(s, depth + 1))))
  }
  if (schema.allOf !== undefined && schema.allOf.length > 0) return valueOf(schema.allOf[0]!, depth + 1)

  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case "string":
      return withExamples(stringOf(schema))
    case "integer":
      return withExamples(
        fc.integer({
          min: Math.max(Math.ceil(schema.minimum ?? schema.exclusiveMinimum ?? -1_000_000), -2_147_483_648),
          max: Math.min(Math.floor(schema.maximum ?? schema.exclusiveMaximum ?? 1_000_000), 2_147_483_647)
        })
      )
    case "number":
      return withExamples(
        fc.double({
          min: schema.minimum ?? -1e9,
          max: schema.maximum ?? 1e9,
          noNaN: true,
          noDefaultInfinity: true
        })
      )
    case "boolean":
      return fc.boolean()
    case "null":
      return fc.constant(null)
    case "array":
      return depth > 6
        ? fc.constant([])
        : withExamples(
            fc.array(valueOf(schema.items ?? {}, depth + 1), {
              minLength: schema.minItems ?? 0,
              maxLength: Math.min(schema.maxItems ?? 4, 4)
            })
          )
    case "object":
      return depth > 6 ? fc.constant({}) : withExamples(objectOf(schema, depth))
    default:
      return withExamples(fc.jsonValue({ maxDepth: 2 }))
  }
}

const stringOf = (schema: JsonSchema): fc.Arbitrary<string> => {
  if (schema.format === "binary") return fc.string({ maxLength: 16 })
  if (schema.pattern !== undefined) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern, "u"))
        .filter((s) => s.length <= (schema.maxLength ?? Infinity) && s.length >= (schema.minLength ?? 0))
    } catch {
      // a pattern fast-check cannot generate from: fall through to plain strings
    }
  }
  return fc.string({
    unit: "grapheme",
    minLength: schema.minLength ?? 0,
    maxLength: Math.min(schema.maxLength ?? 24, 64)
  })
}

const objectOf = (schema: JsonSchema, depth: number) => {
  const properties = schema.properties ?? {}
  const required = new Set(schema.required ?? [])
  const keys = Object.keys(properties)
  const record = fc.record(Object.fromEntries(keys.map((k) => [k, valueOf(properties[k]!, depth + 1)])), {
    requiredKeys: keys.filter((k) => required.has(k))
  })
  if (typeof schema.additionalProperties !== "object" || keys.length > 0) return record
  // A record type (`Record<string, X>`): a few entries.
  return fc.dictionary(fc.string({ maxLength: 12 }), valueOf(schema.additionalProperties, depth + 1), { maxKeys: 3 })
}
