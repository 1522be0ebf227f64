import { type DocumentNode, execute, type ExecutionArgs, type GraphQLSchema, specifiedRules, validate } from "graphql"
import type { TableSizes } from "./GraphqlDatabase.ts"
import { listTables } from "./GraphqlSchema.ts"
import { limitErrors } from "./Limits.ts"

/** The rate-limit bucket of GraphQL operations, over HTTP and graphql-ws alike. */
export const GRAPHQL_BUCKET = "graphql"

/**
 * The depth, cost, alias, repeat and root-field limits, then standard validation (queries over HTTP and every
 * graphql-ws operation), costed on the variables as execution will coerce them. The limits run first and alone, as a
 * plain walk that stops at the first unit over a limit; graphql-js's own rules are not linear (OverlappingFieldsCanBeMerged
 * compares pairs of fields): run together, a refused document still cost its full validation, and the issue's
 * 1,900-alias probe took 0.2–1.5 s each under load before its TOO_MANY_ALIASES (docs/SECURITY.md, threats 19 and 25).
 */
export const validateWithLimits = (
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  sizes: TableSizes["Service"]
) => {
  const refused = limitErrors(schema, document, { variables, listTables, tableRows: sizes.rows })
  return refused.length > 0 ? refused : validate(schema, document, specifiedRules)
}

/** Runs one operation with GRAPHQL_STATEMENT_TIMEOUT_MS as its deadline (its statements get the same from PostgreSQL). */
export const executeWithDeadline = (args: ExecutionArgs, timeoutMs: number) =>
  execute({ ...args, abortSignal: AbortSignal.timeout(timeoutMs) })
