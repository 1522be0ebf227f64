import { Schema } from "effect"

/**
 * `poolId` / `tokenId`: `<address>-<chainId>` (spec). The address may be in any case; it is compared lowercase.
 * A malformed id fails decoding (400 INVALID_PATH / INVALID_QUERY); a well-formed id the index does not know → 404.
 */
const compositeId = (what: string) =>
  Schema.String.check(
    Schema.isPattern(/^0x[0-9a-fA-F]{40}-[1-9][0-9]{0,9}$/u, {
      message: `expected a ${what} id: <0x + 40 hex address>-<chainId>`
    })
  ).annotate({
    description: `${what} id: \`<address>-<chainId>\`, e.g. \`0x1f98…f984-31337\``,
    examples: [`0x0000000000000000000000000000000000000001-31337`]
  })

export const PoolId = compositeId("pool")
export const TokenId = compositeId("token")

export interface ParsedId {
  readonly address: string
  readonly chainId: number
}

export const parseId = (id: string): ParsedId => {
  const dash = id.lastIndexOf("-")
  return { address: id.slice(0, dash).toLowerCase(), chainId: Number(id.slice(dash + 1)) }
}

export const idOf = (address: string, chainId: number) => `${address}-${chainId}`

export const AddressParam = Schema.String.check(
  Schema.isPattern(/^0x[0-9a-fA-F]{40}$/u, { message: "expected an address: 0x + 40 hex digits" })
).annotate({ description: "EVM address (any case)" })

export const TxHashParam = Schema.String.check(
  Schema.isPattern(/^0x[0-9a-fA-F]{64}$/u, { message: "expected a transaction hash: 0x + 64 hex digits" })
).annotate({ description: "Transaction hash" })

export const ChainIdParam = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 4_294_967_295 })).annotate({
  description: "EVM chain id; this deployment serves one chain (others → 404 / empty results)"
})

/** Offset pages of directory-like lists. */
export const PAGE_DEFAULT = 50
export const PAGE_MAX = 200
export const OFFSET_MAX = 10_000
export const Limit = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: PAGE_MAX })).annotate({
  description: `Page size: default ${PAGE_DEFAULT}, at most ${PAGE_MAX}`
})
export const Offset = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: OFFSET_MAX })).annotate({
  description: `Rows to skip (default 0, at most ${OFFSET_MAX}; use the filters to narrow deeper lists)`
})
/** Keyset cursor of event lists (newest first): `<blockNumber>:<logIndex>` of the last item of the previous page. */
export const Cursor = Schema.String.check(
  Schema.isPattern(/^\d{1,18}:\d{1,9}$/u, {
    message: "expected a cursor <blockNumber>:<logIndex> from a previous page"
  })
).annotate({ description: "`nextCursor` of the previous page: items strictly older than it" })

export const parseCursor = (cursor: string) => {
  const [block, log] = cursor.split(":")
  return { block: BigInt(block!), logIndex: Number(log) }
}

export const OffsetPage = Schema.Struct({
  limit: Schema.Int,
  offset: Schema.Int,
  total: Schema.Int.annotate({ description: "Rows matching the filters" }),
  nextOffset: Schema.NullOr(Schema.Int).annotate({ description: "Offset of the next page; null on the last" })
}).annotate({ identifier: "OffsetPage" })

export const CursorPage = Schema.Struct({
  limit: Schema.Int,
  nextCursor: Schema.NullOr(Schema.String).annotate({
    description: "Pass as `cursor` for the next page; null on the last"
  })
}).annotate({ identifier: "CursorPage" })

/** Raw on-chain integers (uint256/int256) travel as decimal strings. */
export const RawAmount = Schema.String.annotate({ description: "Raw integer in base units, as a decimal string" })
export const Usd = Schema.NullOr(Schema.Number).annotate({
  description:
    "US dollars from the market (stablecoins at their peg, WETH through its deepest stable pool, other tokens through their deepest pool with a base token); null when the token has no price path"
})
