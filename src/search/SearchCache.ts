import { Context, Effect, Layer } from "effect"
import { makeResponseCache, type ResponseCache } from "../platform/http/ResponseCache.ts"
import { SearchConfig } from "./SearchConfig.ts"
import { SearchSync } from "./SearchSync.ts"

/**
 * Answers of the search and autocomplete routes per request target (src/platform/http/ResponseCache.ts), dropped
 * after every write to the index (SearchSync `onIndexChange`: an indexer commit applied, claims or hides polled, a
 * rebuild): an answer depends on nothing but the target and the index, so entries do not expire. No `ETag`: the answers have the headers they
 * had before the cache, so an answer is the same with the cache on or off (SEARCH_CACHE=false).
 */
export class SearchCache extends Context.Service<SearchCache, ResponseCache>()("app/search/SearchCache") {
  static readonly layer = Layer.effect(
    SearchCache,
    Effect.gen(function* () {
      const { cacheEnabled } = yield* SearchConfig
      const sync = yield* SearchSync
      // No expiry: every write to the index goes through this process's SearchSync, which drops the entries.
      const cache = makeResponseCache({ enabled: cacheEnabled, etags: false, maxAgeMs: Number.POSITIVE_INFINITY })
      sync.onIndexChange(cache.invalidate)
      return SearchCache.of(cache)
    })
  )
}
