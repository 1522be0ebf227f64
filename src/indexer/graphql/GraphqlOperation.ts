import { type DocumentNode, execute, type ExecutionArgs, type GraphQLSchema, specifiedRules, validate } from "graphql"
import type { TableSizes } from "./GraphqlDatabase.ts"
import { listTables } from "./GraphqlSchema.ts"
import { costLimit, depthLimit } from "./Limits.ts"

/** The rate-limit bucket of GraphQL operations, over HTTP and graphql-ws alike. */
export const GRAPHQL_BUCKET = "graphql"

/**
 * Standard validation plus the depth, cost, alias and root-field limits (queries over HTTP and every graphql-ws
 * operation), costed on the variables as execution will coerce them.
 */
export const validateWithLimits = (
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  sizes: TableSizes["Service"]
) =>
  validate(schema, document, [
    ...specifiedRules,
    depthLimit(),
    costLimit(schema, { variables, listTables, tableRows: sizes.rows })
  ])

/** Runs one operation with GRAPHQL_STATEMENT_TIMEOUT_MS as its deadline (its statements get the same from PostgreSQL). */
export const executeWithDeadline = (args: ExecutionArgs, timeoutMs: number) =>
  execute({ ...args, abortSignal: AbortSignal.timeout(timeoutMs) })
