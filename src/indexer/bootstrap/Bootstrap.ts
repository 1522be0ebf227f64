import { Effect, Option } from "effect"
import type { Address } from "viem"
import { ChainReader, type TokenMetadata } from "../fetch/ChainReader.ts"
import { IndexerEvents } from "../IndexerEvents.ts"
import { poolTvlUsd, poolUsdPrices } from "../project/Prices.ts"
import { addPool } from "../project/State.ts"
import type { SnapshotValue } from "../store/Snapshots.ts"
import { IndexerConfig } from "../IndexerConfig.ts"
import { baseTokensOf, IndexerSource, stablecoinsOf } from "../IndexerSource.ts"
import { Store } from "../store/Store.ts"
import {
  emptyStats,
  type PoolSnapshot,
  poolsAmong,
  type ReadContext,
  type ReadStats,
  readPools,
  readTokenMetadata
} from "./PoolReads.ts"

/** Multicall3's address on nearly every EVM chain (deployed with a presigned transaction). */
export const CANONICAL_MULTICALL3: Address = "0xcA11bde05977b3631167028862bE2a173976CA11"

export interface BootstrapResult {
  /** The block the pools were read at (their logs are followed from the next one). */
  readonly blockNumber: bigint
  readonly pools: number
  readonly ticks: number
  readonly skipped: ReadonlyArray<string>
  readonly stats: ReadStats
  readonly ms: number
  /** Where the time went: the chain reads (pools, ticks, token metadata), the values, the database writes. */
  readonly stageMs: { readonly reads: number; readonly values: number; readonly store: number }
}

/**
 * What each snapshot is worth at its block: its tokens' USD prices from the market the snapshots make (with what the
 * index already holds), and its TVL, as the projection computes them for a swap (project/Prices.ts).
 */
const valuesAt = (snapshots: ReadonlyArray<PoolSnapshot>, metadata: ReadonlyMap<string, TokenMetadata>) =>
  Effect.gen(function* () {
    const source = yield* IndexerSource
    const store = yield* Store
    const state = yield* store.loadState(
      source.contracts.weth.toLowerCase(),
      stablecoinsOf(source),
      baseTokensOf(source)
    )
    for (const [token, m] of metadata) state.tokens.set(token, { decimals: m.decimals, isLaunch: false })
    for (const p of snapshots) addPool(state, { ...p, sqrtPriceX96: p.sqrtPriceX96 })
    return new Map<string, SnapshotValue>(
      snapshots.map((p) => {
        const pool = state.pools.get(p.address)!
        const usd = poolUsdPrices(state, pool)
        return [p.address, { usd0: usd[0], usd1: usd[1], tvlUsd: poolTvlUsd(state, pool, usd) }]
      })
    )
  })

/**
 * Pools tracked from the start (IndexerScope.ts: by address, or every pool among the base tokens) that the index does
 * not hold yet are read from the chain — slot0, liquidity, every initialized tick, the token balances — and written
 * as if indexed up to that block; the loop then follows their logs like any indexed pool's.
 *
 * The block is the one before the start block on a fresh index (the loop indexes from the start block), else the
 * checkpoint (a pool added to the scope later). Reading state that old needs an archive node when the start block is
 * older than the node's state window (README, "Tracked pools"). Runs under the writer lock, before the loop loads its
 * state.
 */
export const bootstrapPools = Effect.gen(function* () {
  const source = yield* IndexerSource
  const settings = yield* IndexerConfig
  const store = yield* Store
  const reader = yield* ChainReader
  const tracked = source.trackedPools
  if (tracked === undefined || (tracked.addresses.length === 0 && !tracked.amongBaseTokens))
    return Option.none<BootstrapResult>()
  const blockNumber = Option.match(yield* store.checkpoint, {
    onNone: () => source.startBlock - 1n,
    onSome: (c) => c.blockNumber
  })
  if (blockNumber < 0n) return Option.none<BootstrapResult>()
  const started = performance.now()
  const ctx: ReadContext = {
    multicall3: source.multicall3 ?? CANONICAL_MULTICALL3,
    blockNumber,
    concurrency: settings.rpcConcurrency,
    stats: emptyStats()
  }
  const among = tracked.amongBaseTokens
    ? yield* poolsAmong(ctx, source.contracts.factory, baseTokensOf(source), tracked.feeTiers)
    : []
  const candidates = [...new Set([...tracked.addresses.map((a) => a.toLowerCase()), ...among])]
  const known = yield* store.known("pools", candidates)
  const todo = candidates.filter((a) => !known.has(a))
  if (todo.length === 0) return Option.none<BootstrapResult>()

  const { snapshots, skipped } = yield* readPools(ctx, todo)
  for (const pool of skipped)
    yield* Effect.logWarning(
      `indexer: tracked pool ${pool} is not an initialized pool at block ${blockNumber}; skipped`
    )
  const tokens = [...new Set(snapshots.flatMap((p) => [p.token0, p.token1]))]
  const knownTokens = yield* store.known("tokens", tokens)
  const metadata = yield* readTokenMetadata(
    ctx,
    tokens.filter((t) => !knownTokens.has(t))
  )
  const header = yield* reader.header(blockNumber)
  const readsDone = performance.now()
  const values = yield* valuesAt(snapshots, metadata)
  const valuesDone = performance.now()
  yield* store.bootstrap(header, snapshots, metadata, values)
  const storeDone = performance.now()
  // Search, the quote engine and the caches learn the pools as from a committed batch.
  yield* (yield* IndexerEvents).publish({
    kind: "batch",
    chainId: source.chainId,
    fromBlock: blockNumber,
    toBlock: blockNumber,
    pools: snapshots.map((p) => p.address),
    tokens,
    launches: []
  })
  const result: BootstrapResult = {
    blockNumber,
    pools: snapshots.length,
    ticks: snapshots.reduce((n, p) => n + p.ticks.length, 0),
    skipped,
    stats: ctx.stats,
    ms: storeDone - started,
    stageMs: { reads: readsDone - started, values: valuesDone - readsDone, store: storeDone - valuesDone }
  }
  yield* Effect.logInfo(
    `indexer: ${result.pools} tracked pools read at block ${blockNumber} (${result.ticks} initialized ticks) in ` +
      `${(result.ms / 1000).toFixed(1)} s: ${ctx.stats.calls} calls in ${ctx.stats.requests} eth_calls`
  )
  return Option.some(result)
})
