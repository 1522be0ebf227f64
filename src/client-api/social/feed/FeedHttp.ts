import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { OptionalSession } from "../../accounts/auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import { Discovery } from "./Discovery.ts"
import { cachedIfAnonymous, ClientCache } from "../../ClientCache.ts"
import { Feed } from "./Feed.ts"
import { FeedPage } from "./FeedItem.ts"

export const FeedHttp = HttpApiBuilder.group(
  ClientApi,
  "feed",
  Effect.fn(function* (handlers) {
    const feed = yield* Feed
    const discovery = yield* Discovery
    // Only anonymous requests are cached: a signed-in viewer's feed is personalised.
    const cachedPage = cachedIfAnonymous(yield* ClientCache, FeedPage)
    return handlers
      .handle("getFeed", ({ query }) =>
        Effect.flatMap(OptionalSession, (session) =>
          cachedPage(
            feed.feed({
              type: query.type ?? "ALL",
              viewer: Option.map(session, (s) => s.user),
              cursor: query.cursor,
              limit: query.limit
            })
          )
        )
      )
      .handle("getFeedContent", ({ query }) => feed.stream(["YAP", "SHILL"], query.cursor, query.limit))
      .handle("getViralDares", ({ query }) => discovery.viralDares(query.limit ?? 10))
      .handle("getFeedSidebar", () => discovery.sidebar)
  })
)

export const ContentHttp = HttpApiBuilder.group(
  ClientApi,
  "content",
  Effect.fn(function* (handlers) {
    const feed = yield* Feed
    return handlers
      .handle("listContentYaps", ({ query }) => feed.stream(["YAP"], query.cursor, query.limit))
      .handle("listContentShills", ({ query }) => feed.stream(["SHILL"], query.cursor, query.limit))
      .handle("listContentTips", ({ query }) => feed.stream(["FUEL"], query.cursor, query.limit))
      .handle("getLandingTicker", ({ query }) =>
        feed.stream(["LAUNCH", "FUEL", "YAP", "SHILL"], query.cursor, query.limit)
      )
  })
)
