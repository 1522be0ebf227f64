import { Config, Context, Effect, Layer, Option, type Redacted } from "effect"

export interface TypesenseSettings {
  readonly url: string
  readonly apiKey: Redacted.Redacted
  /** Collections are `<prefix>tokens` and `<prefix>pools`. */
  readonly collectionPrefix: string
  /** Per-request timeout of the client. */
  readonly timeoutMs: number
}

export interface SearchSettings {
  /** Typesense when `TYPESENSE_URL` is set, else the embedded in-process index. */
  readonly typesense: Option.Option<TypesenseSettings>
  /** How often the search service checks the indexer checkpoint for changes committed by another process. */
  readonly pollMs: number
  /** Full rebuild interval (24 h volumes age even without events); 0 disables. */
  readonly refreshMs: number
  /** Documents per Postgres page and per Typesense import request. */
  readonly batchSize: number
  /** Answers of the search routes cached per request target, dropped when the index changes (src/search/SearchCache.ts). */
  readonly cacheEnabled: boolean
  /** Fresh cache hits answered at the Node listener (src/search/SearchFastLane.ts); off: through the Effect app. */
  readonly fastLane: boolean
}

export const defaultSearchSettings: SearchSettings = {
  typesense: Option.none(),
  pollMs: 1_000,
  refreshMs: 900_000,
  batchSize: 1_000,
  cacheEnabled: true,
  fastLane: true
}

/** `TYPESENSE_URL`, `TYPESENSE_API_KEY`, `TYPESENSE_COLLECTION_PREFIX`, `TYPESENSE_TIMEOUT_MS`, `SEARCH_POLL_MS`, `SEARCH_REFRESH_MS`, `SEARCH_BATCH_SIZE`, `SEARCH_CACHE`, `SEARCH_FAST_LANE`. */
export const searchSettingsConfig: Config.Config<SearchSettings> = Config.all({
  typesense: Config.all({
    url: Config.String("TYPESENSE_URL"),
    apiKey: Config.Redacted("TYPESENSE_API_KEY"),
    collectionPrefix: Config.String("TYPESENSE_COLLECTION_PREFIX").pipe(Config.withDefault("fire_")),
    timeoutMs: Config.Int("TYPESENSE_TIMEOUT_MS").pipe(Config.withDefault(5_000))
  }).pipe(Config.option),
  pollMs: Config.Int("SEARCH_POLL_MS").pipe(Config.withDefault(defaultSearchSettings.pollMs)),
  refreshMs: Config.Int("SEARCH_REFRESH_MS").pipe(Config.withDefault(defaultSearchSettings.refreshMs)),
  batchSize: Config.Int("SEARCH_BATCH_SIZE").pipe(Config.withDefault(defaultSearchSettings.batchSize)),
  cacheEnabled: Config.Boolean("SEARCH_CACHE").pipe(Config.withDefault(true)),
  fastLane: Config.Boolean("SEARCH_FAST_LANE").pipe(Config.withDefault(true))
})

export class SearchConfig extends Context.Service<SearchConfig, SearchSettings>()("app/search/SearchConfig") {
  static readonly layer = Layer.effect(SearchConfig, Effect.map(searchSettingsConfig, SearchConfig.of))
  static readonly layerWith = (settings: Partial<SearchSettings> = {}) =>
    Layer.succeed(SearchConfig, { ...defaultSearchSettings, ...settings })
}
