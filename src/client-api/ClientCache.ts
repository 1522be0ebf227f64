import { PgClient } from "@effect/sql-pg"
import { Config, Context, Effect, Layer, Queue, Schedule, type Schema } from "effect"
import { IndexerChangeFeed } from "../indexer/IndexerChangeFeed.ts"
import { HttpServerRequest } from "effect/http"
import { cachedAnswer, isAnonymous, makeResponseCache, type ResponseCache } from "../platform/http/ResponseCache.ts"

/** Postgres channel: a client API process wrote something a public read shows (any client process may listen). */
export const CLIENT_CHANGES_CHANNEL = "fire_client_changes"

/** `CLIENT_CACHE` (default on) and `CLIENT_FAST_LANE` (default on). */
export const clientCacheSettings = Config.all({
  enabled: Config.Boolean("CLIENT_CACHE").pipe(Config.withDefault(true)),
  fastLane: Config.Boolean("CLIENT_FAST_LANE").pipe(Config.withDefault(true))
})

/**
 * Anonymous answers of the client API's public reads (token detail, a token's comments, the feed, a public profile by
 * wallet) per request target
 * (src/platform/http/ResponseCache.ts), without tags: an answer has the headers and bytes it has with CLIENT_CACHE=false.
 * Dropped, all at once:
 *   - by every state-changing request this process answered with success (ClientCacheLive.ts), before its answer
 *     leaves, so the author's next read sees the write; the process then sends NOTIFY `fire_client_changes`;
 *   - by that NOTIFY from any client process (and on every LISTEN (re)connect, when messages may have been lost);
 *   - by every indexer commit (IndexerChangeFeed: supply, holders, prices, new launches).
 * Writes that come from none of these (the admin CLI, background jobs) are seen within MAX_AGE_MS, the entries' life.
 */
export class ClientCache extends Context.Service<
  ClientCache,
  ResponseCache & {
    readonly enabled: boolean
    /** Drops every entry here and tells the other client processes (after a write). */
    readonly written: Effect.Effect<void>
  }
>()("app/client/ClientCache") {
  static readonly layer = Layer.effect(
    ClientCache,
    Effect.gen(function* () {
      const settings = yield* clientCacheSettings
      const feed = yield* IndexerChangeFeed
      const pg = yield* PgClient.PgClient
      const cache = makeResponseCache({ enabled: settings.enabled, etags: false, maxAgeMs: MAX_AGE_MS })
      feed.onChange(cache.invalidate)
      feed.onConnect(cache.invalidate)
      if (settings.enabled) {
        const listen = Effect.scoped(
          Effect.gen(function* () {
            const queue = yield* pg.listen(CLIENT_CHANGES_CHANNEL)
            cache.invalidate()
            for (;;) {
              yield* Queue.take(queue)
              cache.invalidate()
            }
          })
        )
        yield* Effect.forkScoped(
          listen.pipe(
            Effect.tapCause((cause) => Effect.logWarning("client: LISTEN on client changes lost; reconnecting", cause)),
            Effect.retry(Schedule.spaced("1 second"))
          )
        )
      }
      const written = settings.enabled
        ? Effect.sync(cache.invalidate).pipe(
            Effect.andThen(pg.notify(CLIENT_CHANGES_CHANNEL, "")),
            Effect.catchCause((cause) => Effect.logWarning("client changes notify failed", cause))
          )
        : Effect.void
      return ClientCache.of({ ...cache, enabled: settings.enabled, written })
    })
  )
}

/** An entry's life: the bound on staleness for writes no message announces. */
export const MAX_AGE_MS = 5_000

/**
 * A public read's answer through the ClientCache when the request is anonymous (no `Authorization`, no cookie) and
 * the cache is on; otherwise the value itself, as without the cache (a signed-in viewer's answer may differ).
 */
export const cachedIfAnonymous = <A, I>(
  cache: ResponseCache & { readonly enabled: boolean },
  schema: Schema.Codec<A, I>
) => {
  const answer = cachedAnswer(cache, schema)
  return <E, R>(value: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      return cache.enabled && isAnonymous(request.headers) ? yield* answer(value) : yield* value
    })
}
