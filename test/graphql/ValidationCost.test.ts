import { Effect } from "effect"
import { buildSchema, getIntrospectionQuery } from "graphql"
import { describe, expect, it } from "vitest"
import { parseDocument, validateWithLimits } from "../../src/indexer/graphql/GraphqlOperation.ts"
import { MAX_REPEATED_FIELDS, MAX_TOKENS } from "../../src/indexer/graphql/Limits.ts"

/**
 * What validating one document costs the process (docs/SECURITY.md, threat 25): the limits are linear in the
 * document and run before graphql-js's own rules, which are not. A schema of the indexer's shape (a paged `swaps`
 * list, `_meta`) is enough: validation reads only the types.
 */
const schema = buildSchema(`
  type Pool { address: String }
  type Swap { txHash: String blockNumber: Int pool: Pool }
  type SwapPage { items: [Swap!]! }
  input SwapFilter { txHash_contains: String }
  type Meta { ready: Boolean skippedLaunches: Int }
  type Query { swaps(first: Int, where: SwapFilter): SwapPage! _meta: Meta! }
`)
const sizes = { refresh: Effect.void, rows: () => 0 }
const codesOf = (
  errors: ReadonlyArray<{ readonly extensions?: { readonly code?: unknown }; readonly message: string }>
) => errors.map((e) => e.extensions?.code ?? e.message)
const validateTimed = (query: string) => {
  const parsed = parseDocument(query)
  if ("errors" in parsed) return { ms: 0, codes: codesOf(parsed.errors) }
  const { document } = parsed
  const t0 = performance.now()
  const errors = validateWithLimits(schema, document, {}, sizes)
  return { ms: performance.now() - t0, codes: codesOf(errors) }
}
/** `{ _meta { ready ready … } }` of exactly `n` tokens (`{ _meta {` and `} }` are 5). */
const ofTokens = (n: number) => `{ _meta { ${"ready ".repeat(n - 5)}} }`

describe("GraphQL validation cost", () => {
  it(`a document of more than ${MAX_TOKENS} tokens → QUERY_TOO_LARGE, the rest of it not read`, () => {
    expect(validateTimed(ofTokens(MAX_TOKENS + 1)).codes).toEqual(["QUERY_TOO_LARGE"])
    // At the limit it parses; its repeats are the next limit's to refuse.
    expect(validateTimed(ofTokens(MAX_TOKENS)).codes).toEqual(["TOO_MANY_REPEATED_FIELDS"])
    // The probe (120 KiB, ~38,000 tokens) followed by a syntax error at its end: the error is never reached,
    // the parser stopped at the limit. Parsed whole, the answer would be that syntax error.
    const probe = Array.from(
      { length: 1_900 },
      (_, i) => `s${i}:swaps(first:1,where:{txHash_contains:"zz"}){items{txHash}}`
    )
    expect(validateTimed(`{${probe.join(" ")}} }`).codes).toEqual(["QUERY_TOO_LARGE"])
    expect(validateTimed(`{${probe.slice(0, 10).join(" ")}} }`).codes[0]).toMatch(/^Syntax Error/)
  })

  it("a document over a limit is refused by the limits alone: graphql-js's rules do not run on it", () => {
    const aliases = Array.from({ length: 31 }, (_, i) => `r${i}: ready`).join(" ")
    // `nope` is an unknown field: graphql-js's FieldsOnCorrectType would report it, had it run.
    expect(validateTimed(`{ _meta { ${aliases} } nope }`).codes).toEqual(["TOO_MANY_ALIASES"])
  })

  it("a chain of fragments that spreads the next one twice is walked once per fragment (24 fragments: 2^23 spreads)", () => {
    const fragments = Array.from({ length: 24 }, (_, i) =>
      i === 23 ? `fragment F${i} on Query { _meta { ready } }` : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`
    )
    const { ms, codes } = validateTimed(`query { ...F0 }\n${fragments.join("\n")}`)
    // Before, the depth limit walked every spread: 22 fragments took 10 s, 24 about 40 s.
    expect(ms).toBeLessThan(2_000)
    // Its 2^23 `_meta` selections merge into the root's selection set: repeats.
    expect(codes).toContain("TOO_MANY_REPEATED_FIELDS")
  })

  it(`a response name selected again more than ${MAX_REPEATED_FIELDS} times in one selection set → TOO_MANY_REPEATED_FIELDS`, () => {
    // `items` selected `1 + repeats` times.
    const repeated = (repeats: number) => `{ swaps(first: 1) { ${"items { txHash } ".repeat(1 + repeats)} } }`
    expect(validateTimed(repeated(MAX_REPEATED_FIELDS + 1)).codes).toEqual(["TOO_MANY_REPEATED_FIELDS"])
    expect(validateTimed(repeated(332)).codes).toEqual(["TOO_MANY_REPEATED_FIELDS"])
    expect(validateTimed(repeated(MAX_REPEATED_FIELDS)).codes).toEqual([])
    // Fragments spread into one selection set merge there: their overlap counts, and a little of it is fine.
    const overlapping =
      "{ swaps(first: 1) { ...A ...B } } fragment A on SwapPage { items { txHash } } " +
      "fragment B on SwapPage { items { txHash blockNumber pool { address } } }"
    expect(validateTimed(overlapping).codes).toEqual([])
  })

  it("GraphiQL's introspection query stays within every limit", () => {
    expect(validateTimed(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true })).codes).toEqual([])
  })
})
