import { Config, Context, Effect, Layer } from "effect"

export interface IndexerSettings {
  /**
   * Blocks this deep below the head are final: no reorg is expected there, their hashes are dropped, side effects may
   * fire. A reorg deeper than this stops the indexer (it cannot find the common ancestor).
   */
  readonly finalityDepth: number
  /** First and largest eth_getLogs block range; shrunk on range/size errors, grown back after successes. */
  readonly maxBlockRange: number
  /** Poll interval at the head. */
  readonly pollIntervalMs: number
  /** Addresses per eth_getLogs filter (providers limit the list). */
  readonly addressesPerRequest: number
  /** Concurrent RPC requests for headers and reads. */
  readonly rpcConcurrency: number
  /** Key of the Postgres advisory lock that makes one indexer the writer (per database). */
  readonly lockKey: number
}

export const defaultIndexerSettings = (chainId: number): IndexerSettings => ({
  finalityDepth: chainId === 31337 ? 2 : 12,
  // Measured by `BENCH_RANGES=100,250,500,1000,2000 npm run bench:indexer` (docs/BENCHMARKS.md): 1,000 was the fastest
  // backfill of the dense history; 2,000 hit viem's response-size cap and timeouts, then halved. Many providers also
  // cap eth_getLogs near 1,000 blocks.
  maxBlockRange: 1_000,
  pollIntervalMs: chainId === 31337 ? 200 : 2_000,
  addressesPerRequest: 500,
  rpcConcurrency: 16,
  lockKey: 0x6669_7265 // "fire"
})

/** `FINALITY_DEPTH`, `INDEXER_MAX_BLOCK_RANGE`, `INDEXER_POLL_MS`, `INDEXER_ADDRESSES_PER_REQUEST`, `INDEXER_RPC_CONCURRENCY`. */
export const indexerSettingsConfig = (chainId: number): Config.Config<IndexerSettings> => {
  const d = defaultIndexerSettings(chainId)
  const int = (name: string, fallback: number) => Config.Int(name).pipe(Config.withDefault(fallback))
  return Config.all({
    finalityDepth: int("FINALITY_DEPTH", d.finalityDepth),
    maxBlockRange: int("INDEXER_MAX_BLOCK_RANGE", d.maxBlockRange),
    pollIntervalMs: int("INDEXER_POLL_MS", d.pollIntervalMs),
    addressesPerRequest: int("INDEXER_ADDRESSES_PER_REQUEST", d.addressesPerRequest),
    rpcConcurrency: int("INDEXER_RPC_CONCURRENCY", d.rpcConcurrency),
    lockKey: int("INDEXER_LOCK_KEY", d.lockKey)
  })
}

export class IndexerConfig extends Context.Service<IndexerConfig, IndexerSettings>()("app/indexer/IndexerConfig") {
  static readonly layerConfig = (chainId: number) =>
    Layer.effect(IndexerConfig, Effect.map(indexerSettingsConfig(chainId), IndexerConfig.of))
  static readonly layerWith = (settings: IndexerSettings) => Layer.succeed(IndexerConfig, settings)
}
