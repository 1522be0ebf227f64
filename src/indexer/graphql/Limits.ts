import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLField,
  GraphQLError,
  type GraphQLNamedType,
  type GraphQLSchema,
  getArgumentValues,
  getVariableValues,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef
} from "graphql"
import { DEFAULT_PAGE, MAX_PAGE } from "./ListQuery.ts"

/**
 * Lexical tokens a document may hold (punctuators, names, values; comments not counted). Parsing comes before every
 * other limit and costs the process in proportion to the tokens, refused or not: the 1,900-alias probe (120 KiB,
 * ~38,000 tokens) was parsed whole before TOO_MANY_ALIASES refused it, several ms each on the shared event loop.
 * graphql-js stops at the first token past this (GraphqlOperation.ts `parseDocument`): a refusal reads at most this
 * many. GraphiQL's introspection query has about 300; an operation at the alias and root-field limits with filters
 * and nested selections a few hundred to a thousand.
 */
export const MAX_TOKENS = 2_000
/** Deepest nesting of selection sets accepted (the standard introspection query needs 13). */
export const MAX_DEPTH = 15
/**
 * Most work one operation may ask for, in rows: each list field counts its `first` (default 50) times the rows of the
 * lists around it, each to-one relation one lookup per parent row, every other field at least 1 (its `cost`
 * extension when it runs a query of its own), and a scan of a table (a `_contains` filter) its rows / SCAN_ROWS_PER_COST.
 */
export const MAX_COST = 10_000
/** Aliased fields per operation (an alias is how one request repeats a field: 1,900 scans in one POST). */
export const MAX_ALIASES = 30
/** Top-level fields per operation, fragments expanded (each is a query of its own). */
export const MAX_ROOT_FIELDS = 15
/**
 * Fields that repeat a response name already selected in the same selection set (fragments merged), per operation.
 * Execution merges them, so they cost nothing there, but graphql-js's OverlappingFieldsCanBeMerged compares every
 * pair of them and of their sub-selections: 333 repeats of `items { txHash }` (7 KB, cost 667) held the process for
 * 0.2–0.3 s of validation. A few repeats come from overlapping fragments.
 */
export const MAX_REPEATED_FIELDS = 50
/**
 * `ILIKE '%…%'` can use no index: it reads the whole table. Reading a row and testing it costs far less than
 * returning it, so a scan is priced at one unit per this many rows of the table: on a table of a million rows one
 * `_contains` costs 10,000, the whole budget. Refusing it instead would take away the only text match of the API.
 */
export const SCAN_ROWS_PER_COST = 100

export interface CostInputs {
  /** The request's variables as sent; costing uses them coerced by graphql-js, defaults included. */
  readonly variables: Record<string, unknown>
  /** Paged list fields of the Query type, by field name: the table each one reads. */
  readonly listTables: ReadonlyMap<string, string>
  /** Estimated rows of a table (0 when unknown). */
  readonly tableRows: (table: string) => number
}

const fragmentsOf = (doc: DocumentNode) =>
  new Map(
    doc.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d])
  )

/**
 * Depth of a selection set, fragments followed. A fragment's depth does not depend on where it is spread, so each is
 * measured once (`memo`): walked anew at each spread, a chain of fragments that spreads the next one twice took
 * 2^n walks (22 fragments, under 1 KB, held the process for 10 s).
 */
const depthOf = (
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  memo: Map<string, number>,
  seen: Set<string>
): number => {
  let max = 0
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD)
      max = Math.max(max, s.selectionSet ? 1 + depthOf(s.selectionSet, fragments, memo, seen) : 1)
    else if (s.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, depthOf(s.selectionSet, fragments, memo, seen))
    else {
      const name = s.name.value
      const f = fragments.get(name)
      // A cycle is refused by graphql-js's NoFragmentCycles; here it only must not recurse forever.
      if (f === undefined || seen.has(name)) continue
      let depth = memo.get(name)
      if (depth === undefined) {
        seen.add(name)
        depth = depthOf(f.selectionSet, fragments, memo, seen)
        seen.delete(name)
        memo.set(name, depth)
      }
      max = Math.max(max, depth)
    }
  }
  return max
}

/** True when a `where` value (AND/OR followed) has a non-null `<field>_contains`. */
const scans = (where: unknown): boolean => {
  if (Array.isArray(where)) return where.some(scans)
  if (typeof where !== "object" || where === null) return false
  return Object.entries(where).some(
    ([key, v]) =>
      (key.endsWith("_contains") && v !== null && v !== undefined) || ((key === "AND" || key === "OR") && scans(v))
  )
}

const rootTypeOf = (schema: GraphQLSchema, node: OperationDefinitionNode) =>
  node.operation === "query"
    ? schema.getQueryType()
    : node.operation === "mutation"
      ? schema.getMutationType()
      : schema.getSubscriptionType()

const fieldOf = (
  parent: GraphQLNamedType | undefined,
  name: string,
  isRoot: boolean
): GraphQLField<unknown, unknown> | undefined => {
  if (name === "__typename") return TypeNameMetaFieldDef
  if (isRoot && name === "__schema") return SchemaMetaFieldDef
  if (isRoot && name === "__type") return TypeMetaFieldDef
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined
}

/**
 * What one operation asks for. The walk stops once `cost` is past `stopAt`, or aliases or repeats past their limits
 * (fragments could multiply it, and a refused document must cost little): those counts are then lower bounds.
 */
export const measure = (
  schema: GraphQLSchema,
  document: DocumentNode,
  node: OperationDefinitionNode,
  inputs: CostInputs,
  stopAt = MAX_COST
) => {
  // graphql-js's own coercion, as execution will do it: variable defaults, input coercion and all.
  const coerced = getVariableValues(schema, node.variableDefinitions ?? [], inputs.variables, { maxErrors: 1 })
  // Variables that do not coerce: execution refuses the operation before any resolver runs.
  if (coerced.errors !== undefined) return undefined
  const variableValues = coerced.variableValues
  const fragments = fragmentsOf(document)
  let cost = 0
  let aliases = 0
  let rootFields = 0
  let repeats = 0
  const walk = (
    set: SelectionSetNode,
    parent: GraphQLNamedType | undefined,
    rows: number,
    seen: ReadonlySet<string>,
    isRoot: boolean,
    // Response names of the selection set being walked, fragments merged into it (they merge at execution too).
    names: Set<string>
  ) => {
    for (const s of set.selections) {
      if (cost > stopAt || aliases > MAX_ALIASES || repeats > MAX_REPEATED_FIELDS) return
      if (s.kind === Kind.INLINE_FRAGMENT) {
        const narrowed =
          s.typeCondition === undefined ? parent : (schema.getType(s.typeCondition.name.value) ?? undefined)
        walk(s.selectionSet, narrowed, rows, seen, isRoot, names)
        continue
      }
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments.get(s.name.value)
        if (f !== undefined && !seen.has(f.name.value)) {
          walk(
            f.selectionSet,
            schema.getType(f.typeCondition.name.value) ?? undefined,
            rows,
            new Set([...seen, f.name.value]),
            isRoot,
            names
          )
        }
        continue
      }
      if (isRoot) rootFields++
      const responseName = s.alias?.value ?? s.name.value
      if (names.has(responseName)) repeats++
      names.add(responseName)
      if (s.alias !== undefined && s.alias.value !== s.name.value) aliases++
      const field = fieldOf(parent, s.name.value, isRoot)
      // An unknown field is reported by graphql-js's own rules; it costs 1 meanwhile.
      if (field === undefined) {
        cost += 1
        continue
      }
      const own = typeof field.extensions?.cost === "number" ? field.extensions.cost : 1
      const type = getNamedType(field.type)
      let args: Record<string, unknown> = {}
      try {
        args = getArgumentValues(field, s, variableValues)
      } catch {
        // An argument that does not coerce is refused by validation or execution; cost it as absent.
      }
      const table = isRoot ? inputs.listTables.get(s.name.value) : undefined
      if (table !== undefined) {
        const first = typeof args.first === "number" ? args.first : DEFAULT_PAGE
        const n = rows * Math.min(Math.max(first, 1), MAX_PAGE)
        const scan = scans(args.where) ? rows * Math.ceil(inputs.tableRows(table) / SCAN_ROWS_PER_COST) : 0
        cost += Math.max(n, 1) + scan
        if (s.selectionSet) walk(s.selectionSet, type, n, seen, false, new Set())
      } else if (s.selectionSet && isRoot) {
        cost += own
        walk(s.selectionSet, type, rows, seen, false, new Set())
      } else if (s.selectionSet) {
        // A to-one relation: one lookup per parent row. `items`/`pageInfo` wrappers hold the rows already counted.
        const wrapper = s.name.value === "items" || s.name.value === "pageInfo"
        cost += wrapper ? own : Math.max(rows, 1) * own
        walk(s.selectionSet, type, rows, seen, false, new Set())
      } else {
        // A column of rows already read costs 1 once; a leaf with a resolver of its own says so in `cost`.
        cost += own
      }
    }
  }
  walk(node.selectionSet, rootTypeOf(schema, node) ?? undefined, 1, new Set(), true, new Set())
  return { cost, aliases, rootFields, repeats }
}

/**
 * The limits' errors for each operation of `document`, none when it is within them: depth (MAX_DEPTH), cost
 * (MAX_COST, see there), aliases (MAX_ALIASES), repeated fields (MAX_REPEATED_FIELDS) and top-level fields
 * (MAX_ROOT_FIELDS). Costs are computed on the variables as execution will see them (defaults included). A plain walk
 * of the operations, not a graphql-js validation rule: `validate` runs a TypeInfo over every node even with no rule
 * (70–230 ms for the 1,900-alias probe on a loaded machine), and the limits must be cheap on what they refuse.
 */
export const limitErrors = (
  schema: GraphQLSchema,
  document: DocumentNode,
  inputs: CostInputs,
  max = MAX_COST
): ReadonlyArray<GraphQLError> => {
  const errors: Array<GraphQLError> = []
  const fragments = fragmentsOf(document)
  for (const node of document.definitions) {
    if (node.kind !== Kind.OPERATION_DEFINITION) continue
    const refuse = (message: string, code: string) =>
      errors.push(new GraphQLError(message, { nodes: [node], extensions: { code } }))
    const depth = depthOf(node.selectionSet, fragments, new Map(), new Set())
    if (depth > MAX_DEPTH) refuse(`query depth ${depth} exceeds the limit of ${MAX_DEPTH}`, "QUERY_TOO_DEEP")
    const m = measure(schema, document, node, inputs, max)
    if (m === undefined) continue
    // The walk stops at the first alias, repeat or cost unit over its limit: the counts are then lower bounds.
    if (m.aliases > MAX_ALIASES) refuse(`more than ${MAX_ALIASES} aliased fields (the limit)`, "TOO_MANY_ALIASES")
    if (m.repeats > MAX_REPEATED_FIELDS)
      refuse(
        `more than ${MAX_REPEATED_FIELDS} repeated fields (a response name selected again in one selection set; the limit)`,
        "TOO_MANY_REPEATED_FIELDS"
      )
    if (m.rootFields > MAX_ROOT_FIELDS)
      refuse(`more than ${MAX_ROOT_FIELDS} top-level fields (the limit)`, "TOO_MANY_ROOT_FIELDS")
    if (m.cost > max) refuse(`query cost over ${max}, the limit in rows`, "QUERY_TOO_COSTLY")
  }
  return errors
}
