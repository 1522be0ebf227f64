import { Effect, Layer, Option } from "effect"
import { IndexerEvents } from "../indexer/IndexerEvents.ts"
import { EmbeddedSearchIndexLive } from "./embedded/EmbeddedSearchIndex.ts"
import { SearchCache } from "./SearchCache.ts"
import { SearchConfig } from "./SearchConfig.ts"
import { SearchDocumentsRepo } from "./SearchDocumentsRepo.ts"
import { SearchFastLaneLive } from "./SearchFastLane.ts"
import { SearchHttp } from "./SearchHttp.ts"
import { SearchSync } from "./SearchSync.ts"
import { TypesenseSearchIndex } from "./typesense/TypesenseSearchIndex.ts"

/** The search backend from config: Typesense when `TYPESENSE_URL` is set, else the embedded in-process index. */
export const SearchIndexLive = Layer.unwrap(
  Effect.map(SearchConfig, (settings) =>
    Option.match(settings.typesense, {
      onNone: () => EmbeddedSearchIndexLive,
      onSome: (typesense) => TypesenseSearchIndex.layer(typesense, settings.batchSize)
    })
  )
)

/**
 * Everything the search routes need. `IndexerEvents.layer` is the layer value the indexer uses and App.ts builds it
 * once for the process, so with both services in one process (npm start) search hears every commit; a search-only
 * process gets a feed nobody publishes to and follows the indexer checkpoint instead (SEARCH_POLL_MS).
 */
export const SearchServicesLive = SearchSync.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(SearchIndexLive, SearchDocumentsRepo.layer, IndexerEvents.layer)),
  Layer.provideMerge(SearchConfig.layer)
)

/** The search routes and their fast lane over one SearchCache (the routes fill it, the lane answers its hits). */
export const SearchHttpLive = Layer.mergeAll(SearchHttp, SearchFastLaneLive).pipe(Layer.provide(SearchCache.layer))
