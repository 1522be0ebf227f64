import { Effect } from "effect"
import { buildSchema, getIntrospectionQuery, parse } from "graphql"
import { describe, expect, it } from "vitest"
import { validateWithLimits } from "../../src/indexer/graphql/GraphqlOperation.ts"
import { MAX_REPEATED_FIELDS } from "../../src/indexer/graphql/Limits.ts"

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
const validateTimed = (query: string) => {
  const document = parse(query)
  const t0 = performance.now()
  const errors = validateWithLimits(schema, document, {}, sizes)
  return { ms: performance.now() - t0, codes: errors.map((e) => e.extensions?.code ?? e.message) }
}

describe("GraphQL validation cost", () => {
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
