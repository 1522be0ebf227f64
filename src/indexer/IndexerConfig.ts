import { Config, ConfigProvider, Context, Effect, Layer } from "effect"

export interface IndexerSettings {
  /**
   * Blocks this deep below the head are final: no reorg is expected there, their hashes are dropped, side effects may
   * fire. A reorg deeper than this stops the indexer (it cannot find the common ancestor).
   */
  readonly finalityDepth: number
  /**
   * A reorg deeper than FINALITY_DEPTH is only believed after a second read of the block, this long after the first
   * (doubled while unconfirmed ones repeat): a node on a stale fork or a flaky answer must not stop the indexer.
   */
  readonly reorgConfirmMs: number
  /** First and largest eth_getLogs block range (and batch size); shrunk on range/size errors and dense responses. */
  readonly maxBlockRange: number
  /**
   * The logs one eth_getLogs response should hold: after each answer the block range becomes what holds this many at
   * the density seen (at most doubling, up to maxBlockRange); the batch follows the densest filter's range.
   */
  readonly targetLogsPerRequest: number
  /**
   * A batch spans this many eth_getLogs ranges of its densest filter, asked for at once (and the next batch's while it
   * commits): fewer header reads and commits per event, and a hosted plan's round trips overlap. Memory: about
   * 2 × this × targetLogsPerRequest logs (the batch built and the one fetched ahead).
   */
  readonly rangesPerBatch: number
  /**
   * A block range the provider refused stays the filter's ceiling this long, then the range may grow past it again
   * (a cap can be lifted, a refusal can be transient); each refusal of such a probe doubles the wait (up to a day).
   */
  readonly rangeProbeMs: number
  /** Poll interval at the head. */
  readonly pollIntervalMs: number
  /** Addresses per eth_getLogs filter (providers limit the list). */
  readonly addressesPerRequest: number
  /**
   * Past this many children (launched tokens and pools), their events are asked for by topic only, from any address,
   * and kept when they come from a known child: a request per address chunk would grow with the launches.
   */
  readonly childTopicThreshold: number
  /** Concurrent RPC requests for headers and reads. */
  readonly rpcConcurrency: number
  /** Requests per second the indexer's RPC calls keep to (a hosted plan's limit); 0 = no limit. */
  readonly rpcRequestsPerSecond: number
  /** Key of the Postgres advisory lock that makes one indexer the writer (per database). */
  readonly lockKey: number
}

export const defaultIndexerSettings = (chainId: number): IndexerSettings => ({
  finalityDepth: chainId === 31337 ? 2 : 12,
  reorgConfirmMs: chainId === 31337 ? 500 : 10_000,
  // Measured by `BENCH_RANGES=100,250,500,1000,2000 npm run bench:indexer` (docs/BENCHMARKS.md): 1,000 was the fastest
  // backfill of the dense history; 2,000 hit viem's response-size cap and timeouts, then halved. Many providers also
  // cap eth_getLogs near 1,000 blocks.
  maxBlockRange: 1_000,
  // Measured with BENCH_RANGES on the 200k-swap history (docs/BENCHMARKS.md, "Logs per request"): anvil's cost per log
  // grows with the response (a 1,000-block range of ~190k logs costs it 5× the CPU of 20 ranges of ~9.5k), and so do
  // our parse and garbage collection; ~10k logs per response was the fastest, and is what hosted RPCs cap it at.
  targetLogsPerRequest: 10_000,
  rangesPerBatch: 4,
  rangeProbeMs: 600_000,
  pollIntervalMs: chainId === 31337 ? 200 : 2_000,
  addressesPerRequest: 500,
  childTopicThreshold: 500,
  rpcConcurrency: 16,
  rpcRequestsPerSecond: 0,
  lockKey: 0x6669_7265 // "fire"
})

/**
 * `FINALITY_DEPTH`, `INDEXER_REORG_CONFIRM_MS`, `INDEXER_MAX_BLOCK_RANGE`, `INDEXER_TARGET_LOGS`, `INDEXER_POLL_MS`, `INDEXER_ADDRESSES_PER_REQUEST`, `INDEXER_CHILD_TOPIC_THRESHOLD`,
 * `INDEXER_RPC_CONCURRENCY`, `INDEXER_RPC_RPS`, `INDEXER_RANGES_PER_BATCH`, `INDEXER_RANGE_PROBE_MS`.
 */
export const indexerSettingsConfig = (chainId: number): Config.Config<IndexerSettings> => {
  const d = defaultIndexerSettings(chainId)
  const int = (name: string, fallback: number) => Config.Int(name).pipe(Config.withDefault(fallback))
  // A range or target below 1 would stall the fetch loop (an empty range never advances).
  const positive = (name: string, fallback: number) =>
    int(name, fallback).pipe(
      Config.flatMap((n) =>
        n >= 1
          ? Config.succeed(n)
          : Config.fail(new ConfigProvider.SourceError({ message: `${name}: must be at least 1, got ${n}` }))
      )
    )
  return Config.all({
    finalityDepth: int("FINALITY_DEPTH", d.finalityDepth),
    reorgConfirmMs: int("INDEXER_REORG_CONFIRM_MS", d.reorgConfirmMs),
    maxBlockRange: positive("INDEXER_MAX_BLOCK_RANGE", d.maxBlockRange),
    targetLogsPerRequest: positive("INDEXER_TARGET_LOGS", d.targetLogsPerRequest),
    rangesPerBatch: positive("INDEXER_RANGES_PER_BATCH", d.rangesPerBatch),
    rangeProbeMs: int("INDEXER_RANGE_PROBE_MS", d.rangeProbeMs),
    pollIntervalMs: int("INDEXER_POLL_MS", d.pollIntervalMs),
    addressesPerRequest: int("INDEXER_ADDRESSES_PER_REQUEST", d.addressesPerRequest),
    childTopicThreshold: int("INDEXER_CHILD_TOPIC_THRESHOLD", d.childTopicThreshold),
    rpcConcurrency: int("INDEXER_RPC_CONCURRENCY", d.rpcConcurrency),
    rpcRequestsPerSecond: int("INDEXER_RPC_RPS", d.rpcRequestsPerSecond),
    lockKey: int("INDEXER_LOCK_KEY", d.lockKey)
  })
}

export class IndexerConfig extends Context.Service<IndexerConfig, IndexerSettings>()("app/indexer/IndexerConfig") {
  static readonly layer = (chainId: number) =>
    Layer.effect(IndexerConfig, Effect.map(indexerSettingsConfig(chainId), IndexerConfig.of))
  static readonly layerWith = (settings: IndexerSettings) => Layer.succeed(IndexerConfig, settings)
}
