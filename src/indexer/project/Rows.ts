import type { DecodedLog } from "../decode/Decode.ts"

/** A row for one of the indexer's tables: snake_case column → value (bigint for numeric, number, string, null). */
export type Row = Record<string, unknown>

/** The event tables, in the order they are written. */
export const eventTables = [
  "launches",
  "skipped_launches",
  "graduation_events",
  "fuel_events",
  "fee_claims",
  "registry_events",
  "token_transfers",
  "pool_initializations",
  "swaps",
  "mints",
  "burns",
  "collects",
  "position_events"
] as const
export type EventTable = (typeof eventTables)[number]

/** New token rows (metadata filled by the fetch stage before the store). */
export interface NewToken {
  readonly address: string
  readonly isLaunch: boolean
  readonly firstBlock: bigint
}

/** Everything one batch writes, plus what it touched (for derived tables and the change event). */
export interface BatchRows {
  readonly events: Record<EventTable, Array<Row>>
  readonly pools: Array<Row>
  readonly newTokens: Array<NewToken>
  readonly touchedPools: Set<string>
  readonly touchedTokens: Set<string>
  readonly newLaunches: Array<string>
  /** Derived rows folded in memory at the end of the projection (see `Folded`). */
  folded: Folded
}

/**
 * The batch's part of the derived tables that its many events feed, folded in memory (Candles.ts, Deltas.ts) so that
 * the transaction upserts one row per key instead of aggregating the batch's events in SQL. Each merges into the
 * stored row with the rules of Derive.ts, whose SQL recomputes the same rows from the events after a reorg.
 */
export interface Folded {
  readonly poolCandles: ReadonlyArray<Row>
  readonly tokenCandles: ReadonlyArray<Row>
  readonly poolStates: ReadonlyArray<Row>
  readonly balances: ReadonlyArray<Row>
  /** { token, n }: transfers per launched token. */
  readonly transferCounts: ReadonlyArray<Row>
}

export const emptyBatch = (): BatchRows => ({
  events: Object.fromEntries(eventTables.map((t) => [t, []])) as unknown as Record<EventTable, Array<Row>>,
  pools: [],
  newTokens: [],
  touchedPools: new Set(),
  touchedTokens: new Set(),
  newLaunches: [],
  folded: { poolCandles: [], tokenCandles: [], poolStates: [], balances: [], transferCounts: [] }
})

/** Block timestamps (seconds) by block number. */
export type Timestamps = ReadonlyMap<bigint, bigint>

export const metaOf = (chainId: number, d: DecodedLog, timestamps: Timestamps): Row => {
  const ts = d.log.blockTimestamp ?? timestamps.get(d.log.blockNumber)
  if (ts === undefined) throw new Error(`no timestamp for block ${d.log.blockNumber}`)
  return {
    chain_id: chainId,
    block_number: d.log.blockNumber,
    log_index: d.log.logIndex,
    tx_hash: d.log.transactionHash,
    block_timestamp: Number(ts)
  }
}

/** JSON of decoded event arguments (big integers as decimal strings). */
export const argsJson = (args: Readonly<Record<string, unknown>>): string =>
  JSON.stringify(args, (_, v) => (typeof v === "bigint" ? v.toString() : v))
