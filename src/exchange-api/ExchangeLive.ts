import { Layer } from "effect"
import { ExchangeCache } from "./cache/ExchangeCache.ts"
import { ExchangeFastLaneLive } from "./cache/ExchangeFastLane.ts"
import { IndexerChangeFeed } from "../indexer/IndexerChangeFeed.ts"
import { IndexerProgress } from "./IndexerProgress.ts"
import { PoolEventsRepo } from "./pools/PoolEventsRepo.ts"
import { PoolsHttp } from "./pools/PoolsHttp.ts"
import { PoolsRepo } from "./pools/PoolsRepo.ts"
import { Positions } from "./pools/Positions.ts"
import { TokensHttp } from "./tokens/TokensHttp.ts"
import { TokensRepo } from "./tokens/TokensRepo.ts"
import { TxStatus } from "./tokens/TxStatus.ts"

/**
 * The handler layers of the exchange data routes (pools, tokens, stats, positions, status) with their services, and
 * the fast lane over the same cache instance (one `ExchangeCache.layer` below serves both).
 */
export const ExchangeHttpLive = Layer.mergeAll(PoolsHttp, TokensHttp, ExchangeFastLaneLive).pipe(
  Layer.provide(Layer.mergeAll(Positions.layer, ExchangeCache.layer, IndexerProgress.layer, TxStatus.layer)),
  Layer.provideMerge(Layer.mergeAll(PoolsRepo.layer, PoolEventsRepo.layer, TokensRepo.layer, IndexerChangeFeed.layer))
)
