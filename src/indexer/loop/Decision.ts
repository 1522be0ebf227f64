import { Option } from "effect"
import type { BlockHeader } from "../fetch/ChainReader.ts"
import type { Checkpoint } from "../store/Store.ts"

/**
 * The indexer loop's decisions as pure functions (the effects that apply them are in Loop.ts). Each step: `plan`
 * says what to read from the chain given the checkpoint and the head; `decideAtTip` or `decideRange` turns what the
 * chain said into a `Step`, modelled like Ponder's realtime events (block | finalize | reorg).
 */

/** The loop's next action. */
export type Step =
  /** Nothing new: the indexed tip is still the chain's. Wait for the next head. */
  | { readonly _tag: "AtHead"; readonly checkpoint: Checkpoint; readonly head: bigint }
  /**
   * The node answered a head below the checkpoint, and its block at that height is still the one indexed: a node
   * behind the others (a load balancer over nodes of different heights), not a reorg. Wait for the next head.
   */
  | { readonly _tag: "Lagging"; readonly checkpoint: Checkpoint; readonly head: bigint }
  /** Index [from, to]: the chain extends the checkpoint and the headers read form one chain. */
  | Batch
  /** The chain no longer contains the indexed tip: walk back from `from` to the common ancestor, undoing up to `tip`. */
  | { readonly _tag: "Reorg"; readonly from: bigint; readonly tip: bigint }
  /** The chain moved while its headers were read (they do not link up): read again, at once. */
  | { readonly _tag: "Reread" }

export interface Batch {
  readonly _tag: "Batch"
  readonly head: bigint
  readonly from: bigint
  readonly to: BlockHeader
  /** Every header read for the range (its first and last, and each unfinalized one). */
  readonly headers: ReadonlyMap<bigint, BlockHeader>
  /**
   * The range's blocks after `rangeBoundary`: not final yet, or not yet held by every node behind the RPC. Their logs
   * are read by hash (checked against their bloom) and their hashes kept to find a common ancestor later.
   */
  readonly unfinalized: ReadonlyArray<BlockHeader>
  /** Blocks below this one are final. */
  readonly finalBoundary: bigint
  /** The last block whose logs may be read by range (at most `finalBoundary`, see `PlanInput.laggingBlocks`). */
  readonly rangeBoundary: bigint
  /** The range's logs are already being fetched (a fetch ahead): use them. */
  readonly fetchedAhead: boolean
}

/** What to read from the chain before deciding. */
export type Plan =
  /** At or above the head: is the indexed tip (or the head, if the chain got shorter) still ours? */
  | { readonly _tag: "CheckTip"; readonly checkpoint: Checkpoint; readonly head: bigint; readonly block: bigint }
  | ReadRange

export interface ReadRange {
  readonly _tag: "ReadRange"
  readonly checkpoint: Option.Option<Checkpoint>
  readonly head: bigint
  readonly from: bigint
  readonly to: bigint
  readonly finalBoundary: bigint
  readonly rangeBoundary: bigint
  /** The headers to read: the range's first and last, and every unfinalized one. */
  readonly headerNumbers: ReadonlyArray<bigint>
  readonly fetchedAhead: boolean
}

/** A range whose logs are fetched ahead, while the range before it is projected and committed. */
export interface AheadRange {
  readonly from: bigint
  readonly to: bigint
}

export interface PlanInput {
  /** The last committed block (or the one a commit in flight ends on); none before the first batch. */
  readonly checkpoint: Option.Option<Checkpoint>
  readonly head: bigint
  readonly startBlock: bigint
  readonly finalityDepth: number
  /** The reader's current eth_getLogs range in blocks (it follows the chain's log density). */
  readonly rangeBlocks: number
  readonly ahead: AheadRange | null
  /**
   * How far behind the head a node behind the RPC's load balancer may be (Loop.ts `readDepth`): blocks that close to
   * the head are read by hash even when final, since a node without them can answer a range over them with no logs.
   */
  readonly laggingBlocks?: number
}

/** A checkpoint below the start block counts as none: no batch was indexed (see `Loop.ts`). */
export const effectiveCheckpoint = (checkpoint: Option.Option<Checkpoint>, startBlock: bigint) =>
  Option.filter(checkpoint, (c) => c.blockNumber >= startBlock)

/** The last block of the range after `last`: `blocks` more, not past the head. */
export const rangeEnd = (last: bigint, head: bigint, blocks: number): bigint =>
  last + BigInt(blocks) < head ? last + BigInt(blocks) : head

export const plan = (input: PlanInput): Plan => {
  const { checkpoint, head } = input
  const cursor = Option.match(checkpoint, { onNone: () => input.startBlock - 1n, onSome: (c) => c.blockNumber })
  if (Option.isSome(checkpoint) && cursor >= head) {
    return { _tag: "CheckTip", checkpoint: checkpoint.value, head, block: head < cursor ? head : cursor }
  }
  const from = cursor + 1n
  const finalBoundary = head - BigInt(input.finalityDepth)
  const rangeBoundary = head - BigInt(Math.max(input.finalityDepth, input.laggingBlocks ?? 0))
  // A range fetched ahead decides the batch's end (the reader's range may have changed since), if it may still be read
  // by range against this head (an RPC behind a load balancer can answer with an older head).
  const fetchedAhead = input.ahead !== null && input.ahead.from === from && input.ahead.to <= rangeBoundary
  const to = fetchedAhead ? input.ahead!.to : rangeEnd(cursor, head, input.rangeBlocks)
  const unfinalizedFrom = rangeBoundary + 1n > from ? rangeBoundary + 1n : from
  const numbers = new Set<bigint>([from, to])
  for (let n = unfinalizedFrom; n <= to; n++) numbers.add(n)
  return {
    _tag: "ReadRange",
    checkpoint,
    head,
    from,
    to,
    finalBoundary,
    rangeBoundary,
    headerNumbers: [...numbers],
    fetchedAhead
  }
}

/**
 * At the head: `tip` is the chain's header at the planned block, `stored` the hash indexed for that number. Only a
 * block we indexed that the chain replaced is a reorg. A head below the checkpoint is not one by itself: a node behind
 * a load balancer answers an older head (with the same blocks below it), and rolling back to it would delete good
 * blocks, or stop the indexer when it lags more than FINALITY_DEPTH (no hash kept there to compare). A chain that
 * really got shorter is seen as a reorg once it grows back past the checkpoint (its parent hash differs then).
 */
export const decideAtTip = (
  p: Extract<Plan, { _tag: "CheckTip" }>,
  tip: BlockHeader,
  stored: Option.Option<string>
): Step => {
  if (Option.isSome(stored) && stored.value !== tip.hash)
    return { _tag: "Reorg", from: tip.number, tip: p.checkpoint.blockNumber }
  return p.head < p.checkpoint.blockNumber
    ? { _tag: "Lagging", checkpoint: p.checkpoint, head: p.head }
    : { _tag: "AtHead", checkpoint: p.checkpoint, head: p.head }
}

/** Behind the head: `headers` holds the planned headers. */
export const decideRange = (p: ReadRange, headers: ReadonlyMap<bigint, BlockHeader>): Step => {
  const first = headers.get(p.from)!
  if (Option.isSome(p.checkpoint) && first.parentHash !== p.checkpoint.value.hash) {
    return { _tag: "Reorg", from: p.checkpoint.value.blockNumber, tip: p.checkpoint.value.blockNumber }
  }
  const unfinalized: Array<BlockHeader> = []
  for (let n = p.rangeBoundary + 1n > p.from ? p.rangeBoundary + 1n : p.from; n <= p.to; n++) {
    const h = headers.get(n)!
    const parent = headers.get(n - 1n)
    if (parent !== undefined && h.parentHash !== parent.hash) return { _tag: "Reread" }
    unfinalized.push(h)
  }
  return {
    _tag: "Batch",
    head: p.head,
    from: p.from,
    to: headers.get(p.to)!,
    headers,
    unfinalized,
    finalBoundary: p.finalBoundary,
    rangeBoundary: p.rangeBoundary,
    fetchedAhead: p.fetchedAhead
  }
}

/** Logs of unfinalized blocks must come from the blocks whose headers were read (else the chain moved meanwhile). */
export const logsMatchHeaders = (
  logBlockHashes: ReadonlyMap<bigint, string>,
  headers: ReadonlyMap<bigint, BlockHeader>
) => [...logBlockHashes].every(([n, hash]) => headers.get(n)?.hash === undefined || headers.get(n)!.hash === hash)

/**
 * The range to fetch ahead after batch `b`, while it commits: only blocks read by range (final: logs fetched before
 * their headers could miss a block a reorg replaced), and not with one RPC request at a time (INDEXER_RPC_CONCURRENCY 1).
 */
export const nextAhead = (b: Batch, rangeBlocks: number, rpcConcurrency: number): AheadRange | null => {
  const to = rangeEnd(b.to.number, b.head, rangeBlocks)
  return b.to.number < b.head && to <= b.rangeBoundary && rpcConcurrency > 1 ? { from: b.to.number + 1n, to } : null
}

/** How long a backfill goes on with the head an earlier step read (see `headStillAhead`). */
export const HEAD_REREAD_MS = 5_000

/**
 * In a backfill the head an earlier step read (`knownHead`, `ageMs` ago) is not read again while the next range (the
 * one fetched ahead, or `rangeBlocks` after the cursor) still ends below its finality boundary: the step would decide
 * the same, and each read is a call and a round trip before the batch (at a hosted plan's requests-per-second limit,
 * one in eight of the backfill's calls). Read again every HEAD_REREAD_MS (the status's head and lag stay that fresh),
 * and at every step near the head.
 */
export const headStillAhead = (input: {
  readonly cursor: bigint
  readonly knownHead: bigint
  readonly ageMs: number
  readonly rangeBlocks: number
  readonly ahead: AheadRange | null
  readonly finalityDepth: number
}): boolean => {
  if (input.knownHead < 0n || input.ageMs >= HEAD_REREAD_MS) return false
  const next = input.cursor + BigInt(input.rangeBlocks)
  const end = input.ahead !== null && input.ahead.to > next ? input.ahead.to : next
  return end <= input.knownHead - BigInt(input.finalityDepth)
}
