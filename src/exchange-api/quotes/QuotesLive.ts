import { Layer } from "effect"
import { IndexerChangeFeed } from "../../indexer/IndexerChangeFeed.ts"
import { Allowlist } from "./Allowlist.ts"
import { GasEstimator } from "./GasEstimator.ts"
import { PartnerAuthLive } from "./PartnerAuthLive.ts"
import { PartnerKeys } from "./PartnerKeys.ts"
import { PoolSnapshotLoader } from "./PoolSnapshotLoader.ts"
import { PoolSyncLive } from "./PoolSync.ts"
import { Quotes } from "./Quotes.ts"
import { QuotesHttpLive } from "./QuotesHttp.ts"
import { RouteFinder } from "./RouteFinder.ts"
import { TokenRegistry } from "./TokenRegistry.ts"

/**
 * The quote routes with their services: the RouteFinder (Piscina or inline, from QUOTE_WORKERS) kept current by
 * PoolSync from the indexer's tables and commit feeds, the partner keys and the allowlist. Needs the database, the
 * Chain, IndexerEvents and the RateLimiter from the process.
 */
const engine = Layer.mergeAll(Quotes.layer, PoolSyncLive).pipe(
  Layer.provide(TokenRegistry.layer),
  Layer.provide(PoolSnapshotLoader.layer),
  Layer.provideMerge(RouteFinder.layerFromConfig),
  Layer.provideMerge(Allowlist.layer),
  Layer.provide(IndexerChangeFeed.layer)
)

export const QuotesHttpLiveWithDeps = QuotesHttpLive.pipe(Layer.provide(Layer.mergeAll(engine, GasEstimator.layer)))

export const PartnerAuthLiveWithDeps = PartnerAuthLive.pipe(Layer.provide(PartnerKeys.layer))
