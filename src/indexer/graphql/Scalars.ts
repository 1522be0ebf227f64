import { GraphQLError, GraphQLScalarType, Kind } from "graphql"

/** uint256/int256 and block numbers: decimal strings on the wire (JSON numbers lose precision above 2^53). */
export const BigIntScalar = new GraphQLScalarType({
  name: "BigInt",
  description: "An integer of any size, as a decimal string",
  serialize: (v) => (typeof v === "bigint" || typeof v === "number" || typeof v === "string" ? String(v) : null),
  parseValue: (v) => {
    if ((typeof v === "string" && /^-?\d+$/.test(v)) || (typeof v === "number" && Number.isInteger(v))) return String(v)
    throw new GraphQLError(`BigInt expects a decimal string, got ${JSON.stringify(v)}`)
  },
  parseLiteral: (node) => {
    if ((node.kind === Kind.STRING && /^-?\d+$/.test(node.value)) || node.kind === Kind.INT) return node.value
    throw new GraphQLError("BigInt expects a decimal string")
  }
})

/** Timestamps as ISO 8601 strings (UTC). */
export const TimestampScalar = new GraphQLScalarType({
  name: "Timestamp",
  description: "An ISO 8601 date-time (UTC)",
  serialize: (v) => (v instanceof Date ? v.toISOString() : typeof v === "string" ? new Date(v).toISOString() : null),
  parseValue: (v) => {
    if (typeof v === "string" && !Number.isNaN(Date.parse(v))) return new Date(v).toISOString()
    throw new GraphQLError(`Timestamp expects an ISO 8601 string, got ${JSON.stringify(v)}`)
  },
  parseLiteral: (node) => {
    if (node.kind === Kind.STRING && !Number.isNaN(Date.parse(node.value))) return new Date(node.value).toISOString()
    throw new GraphQLError("Timestamp expects an ISO 8601 string")
  }
})
