import { GraphQLError } from "graphql"
import { columnOf, type EntityDef, type FieldDef, type FieldKind } from "./Entities.ts"

export const DEFAULT_PAGE = 50
export const MAX_PAGE = 1000

export interface ListArgs {
  readonly where?: Record<string, unknown> | null
  readonly orderBy?: string | null
  readonly orderDirection?: "asc" | "desc" | null
  readonly first?: number | null
  readonly after?: string | null
}

const pgType: Record<FieldKind, string> = {
  String: "text",
  Address: "text",
  Int: "int8",
  Float: "float8",
  Boolean: "bool",
  BigInt: "numeric",
  Timestamp: "timestamptz"
}

/** Filter operators per field: `<field>` (eq), `<field>_not`, `_in`, `_gt`, `_gte`, `_lt`, `_lte`, `_contains` (text). */
export const operators = ["", "_not", "_in", "_gt", "_gte", "_lt", "_lte", "_contains"] as const

export const badInput = (message: string, code = "BAD_USER_INPUT") =>
  new GraphQLError(message, { extensions: { code } })

/** Builds `SELECT ... WHERE ... ORDER BY ... LIMIT` for one list field; values travel as parameters. */
export const buildList = (entity: EntityDef, chainId: number, args: ListArgs) => {
  const first = args.first ?? DEFAULT_PAGE
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE) {
    throw badInput(
      `first must be between 1 and ${MAX_PAGE} (got ${first}); page with \`after\``,
      "PAGE_SIZE_OUT_OF_RANGE"
    )
  }
  const params: Array<unknown> = [chainId]
  const param = (value: unknown, type: string) => {
    params.push(value)
    return `$${params.length}::${type}`
  }
  const value = (field: FieldDef, v: unknown) =>
    v === null
      ? null
      : field.kind === "Address" && typeof v === "string"
        ? v.toLowerCase()
        : typeof v === "bigint"
          ? v.toString()
          : v

  const condition = (where: Record<string, unknown>): string => {
    const parts: Array<string> = []
    for (const [key, v] of Object.entries(where)) {
      if (v === undefined) continue
      if (key === "AND" || key === "OR") {
        const subs = (v as Array<Record<string, unknown>>).map(condition).filter((s) => s !== "TRUE")
        if (subs.length > 0) parts.push(`(${subs.join(key === "AND" ? " AND " : " OR ")})`)
        continue
      }
      const op = operators.slice(1).find((o) => key.endsWith(o)) ?? ""
      const name = key.slice(0, key.length - op.length)
      const field = entity.fields[name]
      if (field === undefined) throw badInput(`unknown filter ${key}`)
      const col = `t.${columnOf(name, field)}`
      const t = pgType[field.kind]
      if (op === "_in") {
        parts.push(
          `${col} = ANY(${param(
            (v as Array<unknown>).map((x) => value(field, x)),
            `${t}[]`
          )})`
        )
      } else if (op === "_contains") {
        parts.push(`${col} ILIKE ${param(`%${String(v).replace(/[\\%_]/g, (c) => `\\${c}`)}%`, "text")}`)
      } else if (v === null) {
        parts.push(op === "_not" ? `${col} IS NOT NULL` : `${col} IS NULL`)
      } else {
        const sqlOp = { "": "=", _not: "<>", _gt: ">", _gte: ">=", _lt: "<", _lte: "<=" }[op]
        parts.push(`${col} ${sqlOp} ${param(value(field, v), t)}`)
      }
    }
    return parts.length === 0 ? "TRUE" : parts.join(" AND ")
  }

  const orderName = args.orderBy ?? entity.defaultOrder
  const orderField = entity.fields[orderName]
  if (orderField === undefined) throw badInput(`cannot order by ${orderName}`)
  const direction = args.orderDirection === "desc" ? "DESC" : "ASC"
  const orderCol = `t.${columnOf(orderName, orderField)}`
  const typeOfColumn = (column: string) => {
    const entry = Object.entries(entity.fields).find(([name, f]) => columnOf(name, f) === column)
    return entry === undefined ? "text" : pgType[entry[1].kind]
  }
  const orderIsKey = entity.key.some((k) => `t.${k}` === orderCol)
  const sortCols = [orderCol, ...entity.key.map((k) => `t.${k}`).filter((k) => k !== orderCol)]
  const sortTypes = sortCols.map((c) => typeOfColumn(c.slice(2)))

  const filters = [`t.chain_id = $1`, args.where ? condition(args.where) : "TRUE"]
  if (args.after) {
    let values: Array<unknown>
    try {
      values = JSON.parse(Buffer.from(args.after, "base64url").toString("utf8"))
    } catch {
      throw badInput("after is not a cursor returned by this endpoint", "INVALID_CURSOR")
    }
    if (!Array.isArray(values) || values.length !== sortCols.length)
      throw badInput("cursor does not match this ordering", "INVALID_CURSOR")
    // A NULL order value is not sent (the predicate tests IS NULL; an unreferenced parameter has no type to infer).
    const cursorIsNull = values[0] === null && !orderIsKey
    const typed = sortCols.map((_, i) => (i === 0 && cursorIsNull ? "NULL" : param(values[i], sortTypes[i]!)))
    filters.push(after(sortCols, typed, cursorIsNull, direction, orderIsKey))
  }
  const select = Object.entries(entity.fields).map(([name, f]) => `t.${columnOf(name, f)} AS "${name}"`)
  const cursorCols = sortCols.map((c, i) => `${c}::text AS "cursor${i}"`)
  const text = `SELECT ${[...select, ...cursorCols].join(", ")} FROM ${entity.source}
    WHERE ${filters.join(" AND ")}
    ORDER BY ${sortCols.map((c) => `${c} ${direction} ${direction === "ASC" ? "NULLS LAST" : "NULLS FIRST"}`).join(", ")}
    LIMIT ${first + 1}`
  return { text, params, first, sortCount: sortCols.length }
}

/**
 * Keyset pagination: the rows strictly after the cursor (order column, then key columns) in the page's order.
 *
 * NULLs of the order column sort as PostgreSQL's default places them (ASC NULLS LAST, DESC NULLS FIRST: what a btree
 * index yields read forwards or backwards, so ordered pages keep their index scans), and the predicate follows that
 * same order: a plain row comparison is NULL for a NULL column, which would silently skip those rows. Key columns are
 * never NULL (primary keys); an order column that is a key needs no NULL branch (and keeps an indexable predicate).
 */
const after = (
  cols: ReadonlyArray<string>,
  values: ReadonlyArray<string>,
  cursorIsNull: boolean,
  direction: "ASC" | "DESC",
  orderIsKey: boolean
) => {
  const op = direction === "ASC" ? ">" : "<"
  const row = `(${cols.join(", ")}) ${op} (${values.join(", ")})`
  if (orderIsKey) return row
  const [order, ...keys] = cols
  const keysAfter = keys.length === 0 ? "FALSE" : `(${keys.join(", ")}) ${op} (${values.slice(1).join(", ")})`
  if (direction === "ASC") {
    // … non-NULL values, then the NULLs: after a value come greater values and every NULL; after a NULL, NULLs only.
    return cursorIsNull ? `(${order} IS NULL AND ${keysAfter})` : `(${row} OR ${order} IS NULL)`
  }
  // NULLs first, then values descending: after a NULL come later NULLs and every value; after a value, smaller values.
  return cursorIsNull
    ? `((${order} IS NULL AND ${keysAfter}) OR ${order} IS NOT NULL)`
    : `(${row} AND ${order} IS NOT NULL)`
}

/** The opaque cursor of a row: the values of the sort columns, as text. */
export const cursorOf = (row: Record<string, unknown>, sortCount: number) =>
  Buffer.from(JSON.stringify(Array.from({ length: sortCount }, (_, i) => row[`cursor${i}`] ?? null)), "utf8").toString(
    "base64url"
  )
