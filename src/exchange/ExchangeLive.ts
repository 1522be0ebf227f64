import { Layer } from "effect"
import { ExchangeCache } from "./ExchangeCache.ts"
import { ExchangeFastLaneLive } from "./ExchangeFastLane.ts"
import { IndexerChangeFeed } from "./IndexerChangeFeed.ts"
import { IndexerProgress } from "./IndexerProgress.ts"
import { PoolEventsRepo } from "./PoolEventsRepo.ts"
import { PoolsHttpLive } from "./PoolsHttp.ts"
import { PoolsRepo } from "./PoolsRepo.ts"
import { Positions } from "./Positions.ts"
import { TokensHttpLive } from "./TokensHttp.ts"
import { TokensRepo } from "./TokensRepo.ts"
import { TxStatus } from "./TxStatus.ts"

/**
 * The handler layers of the exchange data routes (pools, tokens, stats, positions, status) with their services, and
 * the fast lane over the same cache instance (one `ExchangeCache.layer` below serves both).
 */
export const ExchangeHttpLive = Layer.mergeAll(PoolsHttpLive, TokensHttpLive, ExchangeFastLaneLive).pipe(
  Layer.provide(Layer.mergeAll(Positions.layer, ExchangeCache.layer, IndexerProgress.layer, TxStatus.layer)),
  Layer.provideMerge(Layer.mergeAll(PoolsRepo.layer, PoolEventsRepo.layer, TokensRepo.layer, IndexerChangeFeed.layer))
)
