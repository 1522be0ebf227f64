import { Effect } from "effect"
import { decodeLogs, type DecodedLog, type SourceKind, topicsOf } from "./decode/Decode.ts"
import { type BlockHeader, ChainReader, type RawLog, type TokenMetadata } from "./fetch/ChainReader.ts"
import type { RpcError } from "./fetch/RpcError.ts"
import { IndexerConfig } from "./IndexerConfig.ts"
import type { IndexedContracts } from "./IndexerSource.ts"
import { positionManagerLogs } from "./PositionManagerLogs.ts"
import { discover, ignitionsWithoutConfig } from "./project/Discover.ts"
import { project } from "./project/Project.ts"
import { type BatchRows, emptyBatch } from "./project/Rows.ts"
import type { ProjectionState } from "./project/State.ts"

const staticKinds: ReadonlyArray<SourceKind> = [
  "launch",
  "graduator",
  "fuelVault",
  "stream",
  "registry",
  "factory",
  "positionManager"
]
const childKinds: ReadonlyArray<SourceKind> = ["token", "pool"]
// The position manager's logs are not asked for with the other statics' (PositionManagerLogs.ts), and its events do not
// make a block near the head worth reading: a tracked position's change comes with its pool's event, its Transfer has
// the ERC-20 Transfer's topic0 (followed for launched tokens).
const rangeStaticKinds = staticKinds.filter((k) => k !== "positionManager")
const rangeStaticTopics = topicsOf(rangeStaticKinds)
const childTopics = topicsOf(childKinds)
const allTopics = [...new Set([...rangeStaticTopics, ...childTopics])]

/**
 * The raw logs of a block range, fetched before the range is projected (possibly while the previous range is, see
 * Indexer.ts): the launchpad's contracts', and those of the children (launched tokens, pools) known when asked.
 * Final blocks are read by ranges of blocks, the blocks near the head each by its hash (ChainReader's `blockLogs`).
 */
export interface RangeLogs {
  readonly from: bigint
  readonly to: bigint
  readonly statics: ReadonlyArray<RawLog>
  /** The child addresses whose logs `children` holds: a child discovered in the range itself is added later. */
  readonly childAddresses: ReadonlySet<string>
  readonly children: ReadonlyArray<RawLog>
  /**
   * Logs read without an address list: every log of the blocks read by hash, and the children's topics over the
   * ranges when they were asked for by topic. The logs of children discovered in the range are picked from these.
   */
  readonly unfiltered: ReadonlyArray<RawLog>
  /** The last block whose logs of children discovered in the range must still be asked for by address. */
  readonly lateTo: bigint
  /** The last block read by range (those after it were read whole, by hash). */
  readonly rangeTo: bigint
  /** The children's topics were asked for from any address over [from, rangeTo]: `unfiltered` holds those answers. */
  readonly childrenByTopic: boolean
}

export interface BuiltBatch {
  readonly rows: BatchRows
  readonly tokenMetadata: ReadonlyMap<string, TokenMetadata>
  readonly logCount: number
  /** Block hashes the logs came from (to check them against the headers of unfinalized blocks). */
  readonly logBlockHashes: ReadonlyMap<bigint, string>
}

const byPosition = (a: DecodedLog, b: DecodedLog) =>
  a.log.blockNumber === b.log.blockNumber
    ? a.log.logIndex - b.log.logIndex
    : a.log.blockNumber < b.log.blockNumber
      ? -1
      : 1

const staticSources = (contracts: IndexedContracts) =>
  new Map<string, SourceKind>(
    (
      [
        [contracts.fireLaunch, "launch"],
        [contracts.fireGraduator, "graduator"],
        [contracts.fuelVault, "fuelVault"],
        [contracts.fireStream, "stream"],
        [contracts.fireRegistry, "registry"],
        [contracts.factory, "factory"],
        [contracts.positionManager, "positionManager"]
      ] as const
    ).flatMap(([address, kind]) => (address === undefined ? [] : [[address.toLowerCase(), kind] as const]))
  )

/** The children the indexer follows: launched tokens (Transfer) and indexed pools. */
const childSources = (state: ProjectionState) => {
  const children = new Map<string, SourceKind>()
  for (const [address, t] of state.tokens) if (t.isLaunch) children.set(address, "token")
  for (const address of state.pools.keys()) children.set(address, "pool")
  return children
}

/**
 * Fetches [from, to]: the static contracts' logs and the known children's, both requests at once. `recentHeaders`
 * are the range's last blocks, those within FINALITY_DEPTH of the head (the batch's unfinalized headers): their logs
 * are read block by block, by hash, so that a node that does not have them yet cannot answer them empty. Past
 * INDEXER_CHILD_TOPIC_THRESHOLD children, the children's events are asked for by topic from any address and kept when
 * a known child emitted them (as Ponder does for factory children): one request per range instead of one per chunk of
 * INDEXER_ADDRESSES_PER_REQUEST addresses, so the calls do not grow with the launches (the answers hold other
 * contracts' Transfers and pool events, which the range's density adapts to).
 */
export const fetchRange = (
  contracts: IndexedContracts,
  state: ProjectionState,
  from: bigint,
  to: bigint,
  recentHeaders: ReadonlyArray<BlockHeader> = []
): Effect.Effect<RangeLogs, RpcError, ChainReader | IndexerConfig> => {
  // Read here, not when the effect runs: a forked fetch starts later, and the caller may change `state` meanwhile.
  const childAddresses = new Set(childSources(state).keys())
  const recentFrom = recentHeaders[0]?.number ?? to + 1n
  const rangeTo = recentFrom - 1n < to ? recentFrom - 1n : to
  return Effect.gen(function* () {
    const reader = yield* ChainReader
    const { rpcConcurrency, childTopicThreshold } = yield* IndexerConfig
    const byTopic = childAddresses.size > childTopicThreshold
    const statics = staticSources(contracts)
    const [rangeStatics, rangeChildren, recent] = yield* Effect.all(
      [
        reader.logs(
          [...statics].flatMap(([address, kind]) => (kind === "positionManager" ? [] : [address])),
          rangeStaticTopics,
          from,
          rangeTo
        ),
        byTopic
          ? reader.logsByTopic(childTopics, from, rangeTo)
          : reader.logs([...childAddresses], childTopics, from, rangeTo),
        Effect.map(
          Effect.forEach(recentHeaders, (h) => reader.blockLogs(h, allTopics), { concurrency: rpcConcurrency }),
          (perBlock) => perBlock.flat()
        )
      ],
      { concurrency: Math.min(3, rpcConcurrency) }
    )
    const known = (l: RawLog) => childAddresses.has(l.address)
    return {
      from,
      to,
      statics: [...rangeStatics, ...recent.filter((l) => statics.has(l.address))],
      childAddresses,
      children: [...(byTopic ? rangeChildren.filter(known) : rangeChildren), ...recent.filter(known)],
      unfiltered: byTopic ? [...rangeChildren, ...recent] : recent,
      lateTo: byTopic ? from - 1n : rangeTo,
      rangeTo,
      childrenByTopic: byTopic
    }
  })
}

/**
 * Decode → discover → fetch the logs of children new in the range → the position manager's logs of the tracked pools'
 * positions (PositionManagerLogs.ts) → decode → project, for the fetched range. Mutates
 * `state` (the caller reloads it when the batch is not committed).
 */
export const buildBatch = (
  chainId: number,
  contracts: IndexedContracts,
  state: ProjectionState,
  range: RangeLogs,
  toHeader: BlockHeader
): Effect.Effect<BuiltBatch, RpcError, ChainReader | IndexerConfig> =>
  Effect.gen(function* () {
    const reader = yield* ChainReader
    const { from, to } = range
    const statics = staticSources(contracts)
    const staticLogs = decodeLogs(range.statics, (a) => statics.get(a))

    // Without registry events to follow, the canonical check reads FireLaunch.canonicalPoolConfig at the launch's
    // block, or at the head when the node keeps no state that old (pruned nodes, anvil restored from a dump).
    const configs = new Map(
      yield* Effect.forEach(
        ignitionsWithoutConfig(staticLogs, state),
        (i) =>
          reader.canonicalPoolConfig(i.tokenIsToken0, i.blockNumber).pipe(
            Effect.catchIf(
              (e) => e.kind === "fatal",
              () => reader.canonicalPoolConfig(i.tokenIsToken0, undefined)
            ),
            Effect.map((c) => [i.key, c] as const)
          ),
        { concurrency: 8 }
      )
    )

    const timestamps = new Map<bigint, bigint>([[toHeader.number, toHeader.timestamp]])
    const fillTimestamps = (logs: ReadonlyArray<DecodedLog>) => {
      const missing = [
        ...new Set(
          logs
            .filter((d) => d.log.blockTimestamp === undefined && !timestamps.has(d.log.blockNumber))
            .map((d) => d.log.blockNumber)
        )
      ]
      return Effect.map(reader.headers(missing), (hs) => hs.forEach((h) => timestamps.set(h.number, h.timestamp)))
    }
    yield* fillTimestamps(staticLogs)

    const rows = emptyBatch()
    discover(chainId, staticLogs, configs, state, timestamps, rows)

    // Children discovered in this range (a launch's token and pool) were not asked for: their logs now.
    const children = childSources(state)
    const discovered = [...children.keys()].filter((a) => !range.childAddresses.has(a))
    const isDiscovered = new Set(discovered)
    const late =
      discovered.length === 0
        ? []
        : [
            ...(yield* reader.logs(discovered, childTopics, from, range.lateTo)),
            ...range.unfiltered.filter((l) => isDiscovered.has(l.address))
          ]
    const childLogs = decodeLogs([...range.children, ...late], (a) => children.get(a))
    yield* fillTimestamps(childLogs)

    const tokenMetadata = yield* reader.tokensMetadata(
      rows.newTokens.map((t) => t.address),
      to
    )
    for (const [address, m] of tokenMetadata) {
      const known = state.tokens.get(address)
      state.tokens.set(address, { decimals: m.decimals, isLaunch: known?.isLaunch ?? false })
    }

    const positionManager = contracts.positionManager.toLowerCase()
    const managerLogs = decodeLogs(
      yield* positionManagerLogs(
        positionManager,
        state,
        childLogs,
        from,
        range.rangeTo,
        range.childrenByTopic ? range.unfiltered : undefined
      ),
      (a) => statics.get(a)
    )
    yield* fillTimestamps(managerLogs)
    const all = [...staticLogs, ...childLogs, ...managerLogs].sort(byPosition)
    project(chainId, all, state, positionManager, timestamps, rows)
    const logBlockHashes = new Map(all.map((d) => [d.log.blockNumber, d.log.blockHash]))
    return { rows, tokenMetadata, logCount: all.length, logBlockHashes }
  })
