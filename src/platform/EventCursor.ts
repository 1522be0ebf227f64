import { Option } from "effect"

/**
 * Keyset cursor over rows of an indexed event table, ordered newest first by (block_number, log_index). Opaque to
 * clients (base64url of `block:log`). New events only ever arrive above the newest row, so a page boundary never
 * moves: paging is stable while new items arrive (a reorg removes rows, it never inserts below a cursor).
 */
export interface EventPosition {
  readonly blockNumber: string
  readonly logIndex: number
}

export const encodeEventCursor = (position: EventPosition): string =>
  Buffer.from(`${position.blockNumber}:${position.logIndex}`).toString("base64url")

/** None for a malformed cursor (callers answer 400 INVALID_CURSOR). */
export const decodeEventCursor = (cursor: string): Option.Option<EventPosition> => {
  const match = Buffer.from(cursor, "base64url")
    .toString()
    .match(/^(\d{1,19}):(\d{1,9})$/)
  return match === null ? Option.none() : Option.some({ blockNumber: match[1]!, logIndex: Number(match[2]) })
}
