import { Effect } from "effect"
import { type Hex, toEventSelector, toHex } from "viem"
import { positionManagerEvents } from "./Abis.ts"
import type { DecodedLog } from "./decode/Decode.ts"
import { ChainReader, type RawLog } from "./fetch/ChainReader.ts"
import type { RpcError } from "./fetch/RpcError.ts"
import { IndexerConfig } from "./IndexerConfig.ts"
import type { ProjectionState } from "./project/State.ts"

const [INCREASE, DECREASE, COLLECT, TRANSFER] = positionManagerEvents.map((e) => toEventSelector(e)) as [
  Hex,
  Hex,
  Hex,
  Hex
]

/** A tokenId as an indexed topic (uint256, 32 bytes). */
const tokenTopic = (tokenId: string): Hex => toHex(BigInt(tokenId), { size: 32 })

const key = (l: RawLog) => `${l.blockNumber}:${l.logIndex}`

/**
 * The position manager's logs of [from, to] that the projection can use (project/Project.ts keeps a manager event only
 * for a position of a tracked pool), asked for so that the calls and answers do not grow with the chain's other
 * positions — on a real chain the manager is one of its busiest contracts, and fetching all its events to keep a few
 * made the statics' eth_getLogs range shrink to its density:
 *
 * - IncreaseLiquidity, DecreaseLiquidity and Collect happen inside the manager's call to a pool (mint, burn, collect),
 *   which emits its own Mint, Burn or Collect with the manager as owner in the same transaction. So only the blocks
 *   where a tracked pool did that are asked about, whichever is fewer calls: each run of such blocks whole (the
 *   manager's three events, kept when their transaction is one of those), or the known positions' events by tokenId
 *   (topic1) over the span of those blocks, then the blocks of the transactions they do not explain (a new position,
 *   or one minted before the start block: its tokenId only its own events tell).
 * - Transfer (ERC-721) accompanies no pool event: asked for by tokenId (topic3) over the range, for the known positions
 *   and the new ones; chunks of INDEXER_ADDRESSES_PER_REQUEST tokenIds. When the range's children were asked for by
 *   topic (Batch.ts), that answer holds every Transfer of the range, the manager's included (an ERC-721 Transfer has
 *   the ERC-20 Transfer's topic0): `transfersIn`, picked from without a call.
 *
 * The calls then grow with the tracked positions and their activity only. `to` is the last block read by range: the
 * blocks after it are read whole by hash (ChainReader's `blockLogs`), the manager's logs included. A position minted
 * before the start block on a tracked pool is known from its first IncreaseLiquidity in the index, as when every
 * manager event was fetched (the projection learns a position's pool from the pool Mint beside it): its decreases,
 * collects and transfers before that are fetched (they are unexplained) but not indexed.
 */
export const positionManagerLogs = (
  positionManager: string,
  state: ProjectionState,
  poolLogs: ReadonlyArray<DecodedLog>,
  from: bigint,
  to: bigint,
  transfersIn?: ReadonlyArray<RawLog>
): Effect.Effect<ReadonlyArray<RawLog>, RpcError, ChainReader | IndexerConfig> =>
  Effect.gen(function* () {
    if (from > to) return []
    const reader = yield* ChainReader
    const { addressesPerRequest, rpcConcurrency } = yield* IndexerConfig
    const chunks = (ids: ReadonlyArray<string>) => {
      const out: Array<ReadonlyArray<Hex>> = []
      for (let i = 0; i < ids.length; i += addressesPerRequest)
        out.push(ids.slice(i, i + addressesPerRequest).map(tokenTopic))
      return out
    }
    const concurrency = Math.min(4, rpcConcurrency)
    const wholeBlocks = (blocks: ReadonlyArray<bigint>, txs: ReadonlySet<string>) =>
      Effect.map(
        Effect.forEach(
          blockRuns(blocks),
          ([a, b]) => reader.logsMatching(positionManager, [[INCREASE, DECREASE, COLLECT]], "blocks", a, b),
          { concurrency }
        ),
        (parts) => parts.flat().filter((l) => txs.has(l.transactionHash))
      )

    // The tracked pools' events of the manager's calls in the range, and how many manager events each transaction
    // must hold: a Mint's IncreaseLiquidity, a Burn's DecreaseLiquidity (not a Burn of 0, the manager's poke before a
    // collect), a Collect's Collect.
    const owned = poolLogs.filter(
      (d) =>
        d.kind === "pool" &&
        (d.name === "Mint" || d.name === "Burn" || d.name === "Collect") &&
        d.args["owner"] === positionManager &&
        d.log.blockNumber >= from &&
        d.log.blockNumber <= to
    )
    const expected = new Map<string, { readonly block: bigint; count: number }>()
    for (const d of owned) {
      if (d.name === "Burn" && d.args["amount"] === 0n) continue
      const e = expected.get(d.log.transactionHash)
      if (e === undefined) expected.set(d.log.transactionHash, { block: d.log.blockNumber, count: 1 })
      else e.count++
    }
    const blocks = [...expected.values()].map((e) => e.block)
    const known = [...state.positions.keys()]
    const knownChunks = chunks(known)

    let changes: ReadonlyArray<RawLog> = []
    if (blocks.length > 0 && blockRuns(blocks).length <= knownChunks.length + 1) {
      changes = yield* wholeBlocks(blocks, new Set(expected.keys()))
    } else if (blocks.length > 0) {
      const first = blocks.reduce((m, b) => (b < m ? b : m))
      const last = blocks.reduce((m, b) => (b > m ? b : m))
      const byId = (yield* Effect.forEach(
        knownChunks,
        (ids, i) => reader.logsMatching(positionManager, [[INCREASE, DECREASE, COLLECT], ids], `ids|${i}`, first, last),
        { concurrency }
      )).flat()
      const found = new Map<string, number>()
      for (const l of byId) found.set(l.transactionHash, (found.get(l.transactionHash) ?? 0) + 1)
      const unexplained = [...expected].filter(([tx, e]) => e.count > (found.get(tx) ?? 0))
      const seen = new Set(byId.map(key))
      const rest = yield* wholeBlocks(
        unexplained.map(([, e]) => e.block),
        new Set(unexplained.map(([tx]) => tx))
      )
      changes = [...byId, ...rest.filter((l) => !seen.has(key(l)))]
    }

    const knownIds = new Set(known)
    const newIds = [
      ...new Set(changes.filter((l) => l.topics[0] === INCREASE).map((l) => BigInt(l.topics[1]!).toString()))
    ].filter((id) => !knownIds.has(id))
    const ids = new Set([...known, ...newIds])
    const transfers =
      transfersIn !== undefined
        ? transfersIn.filter(
            (l) =>
              l.address === positionManager &&
              l.topics[0] === TRANSFER &&
              l.topics.length === 4 &&
              l.blockNumber >= from &&
              l.blockNumber <= to &&
              ids.has(BigInt(l.topics[3]!).toString())
          )
        : (yield* Effect.forEach(
            [
              ...knownChunks.map((chunk, i) => [chunk, `transfers|${i}`] as const),
              ...chunks(newIds).map((chunk) => [chunk, "transfers|new"] as const)
            ],
            ([chunk, filter]) =>
              reader.logsMatching(positionManager, [[TRANSFER], null, null, chunk], filter, from, to),
            { concurrency }
          )).flat()
    return [...changes, ...transfers]
  })

/** Sorted block numbers as runs of consecutive blocks [first, last]: one eth_getLogs per run. */
export const blockRuns = (blocks: ReadonlyArray<bigint>): ReadonlyArray<readonly [bigint, bigint]> => {
  const sorted = [...new Set(blocks)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const runs: Array<[bigint, bigint]> = []
  for (const n of sorted) {
    const last = runs[runs.length - 1]
    if (last !== undefined && last[1] + 1n === n) last[1] = n
    else runs.push([n, n])
  }
  return runs
}
