import { Layer } from "effect"
import { IndexerChangeFeed } from "../../indexer/IndexerChangeFeed.ts"
import { Allowlist } from "./Allowlist.ts"
import { GasEstimator } from "./GasEstimator.ts"
import { L1DataFee } from "./L1DataFee.ts"
import { PoolSnapshotLoader } from "./PoolSnapshotLoader.ts"
import { PoolSyncLive } from "./PoolSync.ts"
import { Quotes } from "./Quotes.ts"
import { QuotesHttp } from "./QuotesHttp.ts"
import { RouteFinder } from "./RouteFinder.ts"
import { TokenRegistry } from "./TokenRegistry.ts"
import { TransferCheck } from "./TransferCheck.ts"

/**
 * The quote routes with their services: the RouteFinder (Piscina or inline, from QUOTE_WORKERS) kept current by
 * PoolSync from the indexer's tables and commit feeds, the partner keys and the allowlist. Needs the database, the
 * Chain, IndexerEvents and the RateLimiter from the process.
 */
const engine = Layer.mergeAll(Quotes.layer, PoolSyncLive).pipe(
  Layer.provide(Layer.mergeAll(TokenRegistry.layer, TransferCheck.layer, L1DataFee.layer)),
  Layer.provide(PoolSnapshotLoader.layer),
  Layer.provideMerge(RouteFinder.layer),
  Layer.provideMerge(Allowlist.layer),
  Layer.provide(IndexerChangeFeed.layer)
)

export const QuotesHttpLive = QuotesHttp.pipe(Layer.provide(Layer.mergeAll(engine, GasEstimator.layer)))
