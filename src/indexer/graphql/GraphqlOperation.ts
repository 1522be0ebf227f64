import {
  type DocumentNode,
  execute,
  type ExecutionArgs,
  GraphQLError,
  type GraphQLSchema,
  parse,
  specifiedRules,
  validate
} from "graphql"
import type { TableSizes } from "./GraphqlDatabase.ts"
import { listTables } from "./GraphqlSchema.ts"
import { limitErrors, MAX_TOKENS } from "./Limits.ts"

/** The rate-limit bucket of GraphQL operations, over HTTP and graphql-ws alike. */
export const GRAPHQL_BUCKET = "graphql"

/** graphql-js's syntax error when the lexer passes `maxLexicalTokens` (the one error it gives no code of its own). */
const tooManyTokens = /^Syntax Error: Document contains more than \d+ tokens\b/u

/**
 * Parses a document (HTTP and graphql-ws alike), reading at most MAX_TOKENS tokens: a longer one is refused with
 * `QUERY_TOO_LARGE` as soon as the lexer passes the limit, without reading the rest (Limits.ts MAX_TOKENS). Other
 * syntax errors are graphql-js's own. Returns the document or the errors to answer.
 */
export const parseDocument = (
  query: string,
  maxTokens = MAX_TOKENS
): { readonly document: DocumentNode } | { readonly errors: ReadonlyArray<GraphQLError> } => {
  try {
    return { document: parse(query, { maxLexicalTokens: maxTokens }) }
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error
    if (!tooManyTokens.test(error.message)) return { errors: [error] }
    return {
      errors: [
        new GraphQLError(`the document has more than ${maxTokens} tokens (the limit)`, {
          extensions: { code: "QUERY_TOO_LARGE" }
        })
      ]
    }
  }
}

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
