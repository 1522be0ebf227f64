import {
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
  type ValueNode
} from "graphql"
import { DEFAULT_PAGE, MAX_PAGE } from "./ListQuery.ts"

/** Deepest nesting of selection sets accepted (the standard introspection query needs 13). */
export const MAX_DEPTH = 15
/**
 * Most rows one query may ask for: each list field counts its `first` (default 50, variables resolved) times the
 * rows of the lists around it; each to-one relation counts one lookup per parent row.
 */
export const MAX_COST = 10_000

const fragmentsOf = (doc: DocumentNode) =>
  new Map(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]))

const depthOf = (set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): number => {
  let max = 0
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) max = Math.max(max, s.selectionSet ? 1 + depthOf(s.selectionSet, fragments, seen) : 1)
    else if (s.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, depthOf(s.selectionSet, fragments, seen))
    else {
      const f = fragments.get(s.name.value)
      if (f !== undefined && !seen.has(f.name.value)) max = Math.max(max, depthOf(f.selectionSet, fragments, new Set([...seen, f.name.value])))
    }
  }
  return max
}

/** Rejects operations nested deeper than `max` (fragments followed). */
export const depthLimit = (max = MAX_DEPTH) => (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(node) {
    const depth = depthOf(node.selectionSet, fragmentsOf(context.getDocument()), new Set())
    if (depth > max) {
      context.reportError(new GraphQLError(`query depth ${depth} exceeds the limit of ${max}`, { nodes: [node], extensions: { code: "QUERY_TOO_DEEP" } }))
    }
  }
})

const intValue = (node: ValueNode | undefined, variables: Record<string, unknown>): number | undefined => {
  if (node === undefined) return undefined
  if (node.kind === Kind.INT) return Number(node.value)
  if (node.kind === Kind.VARIABLE) {
    const v = variables[node.name.value]
    return typeof v === "number" ? v : undefined
  }
  return undefined
}

/** Rejects operations that would resolve more than `max` rows (see MAX_COST); `listFields` are the paged fields. */
export const costLimit = (listFields: ReadonlySet<string>, variables: Record<string, unknown>, max = MAX_COST) =>
  (context: ValidationContext): ASTVisitor => {
    const fragments = fragmentsOf(context.getDocument())
    const cost = (set: SelectionSetNode, rows: number, seen: Set<string>): number => {
      let total = 0
      for (const s of set.selections) {
        if (s.kind === Kind.FIELD) {
          if (!s.selectionSet) continue
          if (listFields.has(s.name.value)) {
            const first = intValue(s.arguments?.find((a) => a.name.value === "first")?.value, variables) ?? DEFAULT_PAGE
            const n = rows * Math.min(Math.max(first, 1), MAX_PAGE)
            total += n + cost(s.selectionSet, n, seen)
          } else {
            total += (s.name.value === "items" || s.name.value === "pageInfo" ? 0 : rows) + cost(s.selectionSet, rows, seen)
          }
        } else if (s.kind === Kind.INLINE_FRAGMENT) total += cost(s.selectionSet, rows, seen)
        else {
          const f = fragments.get(s.name.value)
          if (f !== undefined && !seen.has(f.name.value)) total += cost(f.selectionSet, rows, new Set([...seen, f.name.value]))
        }
      }
      return total
    }
    return {
      OperationDefinition(node) {
        const total = cost(node.selectionSet, 1, new Set())
        if (total > max) {
          context.reportError(new GraphQLError(`query cost ${total} exceeds the limit of ${max} rows`, { nodes: [node], extensions: { code: "QUERY_TOO_COSTLY" } }))
        }
      }
    }
  }
