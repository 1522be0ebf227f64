import { Context, Effect, Layer } from "effect"
import { makeResponseCache, type ResponseCache } from "../../platform/http/ResponseCache.ts"
import { exchangeSettings } from "../ExchangeConfig.ts"
import { IndexerChangeFeed } from "../../indexer/IndexerChangeFeed.ts"

/**
 * Response cache of the exchange routes that read only indexed data (src/platform/http/ResponseCache.ts). Everything
 * is dropped when the indexer commits a batch or a rollback (NOTIFY `fire_indexer_changes`, see IndexerChangeFeed)
 * and when the LISTEN connection is (re)established. Each answer carries a strong `ETag` (hash of the body, so every
 * process gives the same tag for the same data) and `Cache-Control: no-cache`; `If-None-Match` with a current tag →
 * 304 without a body. Off with EXCHANGE_CACHE=false (every request reads Postgres, same answers).
 */
export class ExchangeCache extends Context.Service<ExchangeCache, ResponseCache>()("app/exchange/ExchangeCache") {
  static readonly layer = Layer.effect(
    ExchangeCache,
    Effect.gen(function* () {
      const { cacheEnabled } = yield* exchangeSettings
      const feed = yield* IndexerChangeFeed
      const cache = makeResponseCache({ enabled: cacheEnabled, etags: true })
      feed.onChange(cache.invalidate)
      feed.onConnect(cache.invalidate)
      return ExchangeCache.of(cache)
    })
  )
}
