import { Effect, Layer, Metric } from "effect"
import { cachedFastLane } from "../platform/http/CachedFastLane.ts"
import { SearchCache } from "./SearchCache.ts"
import { SearchConfig } from "./SearchConfig.ts"

const answered = (status: "200" | "304") =>
  Metric.counter("search_fast_lane_responses", {
    description: "Search requests answered from the cache at the Node listener (the rest went through the Effect app)",
    attributes: { status },
    incremental: true
  })
/** Requests the search fast lane answered, by status (no tags, so no 304 in practice; the counter keeps the shape). */
export const searchFastLaneResponses = { ok: answered("200"), notModified: answered("304") } as const

/**
 * Hits of the SearchCache answered at the Node listener (src/platform/http/CachedFastLane.ts). The search routes have
 * no rate limit and take no input but the target; entries are dropped on every index write. Off with
 * SEARCH_CACHE=false or SEARCH_FAST_LANE=false; answers counted in `search_fast_lane_responses{status}`.
 */
export const SearchFastLaneLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const settings = yield* SearchConfig
    if (!settings.cacheEnabled || !settings.fastLane) return
    const cache = yield* SearchCache
    yield* cachedFastLane({ lookup: cache.lookup, responses: searchFastLaneResponses })
  })
)
