import { Context, Effect, Exit, Layer } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"
import { exchangeSettings } from "../ExchangeConfig.ts"
import { IndexerChangeFeed } from "../../indexer/IndexerChangeFeed.ts"

export interface Entry {
  readonly body: Uint8Array
  readonly etag: string
  readonly storedAt: number
}

/** Entries older than this are recomputed even without a change message (a lost NOTIFY costs at most this staleness). */
const MAX_AGE_MS = 30_000
const MAX_ENTRIES = 20_000
const encoder = new TextEncoder()

/** Whether an `If-None-Match` value names the entry's tag (a weak `W/` form of it too). */
export const matchesTag = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined && ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)

/** The headers of every answer from an entry (the fast lane writes the same). */
export const entryHeaders = (entry: Entry) => ({ etag: entry.etag, "cache-control": "no-cache" })

/**
 * Response cache of the exchange routes that read only indexed data. Everything is dropped when the indexer commits a
 * batch or a rollback (NOTIFY `fire_indexer_changes`, see IndexerChangeFeed) and when the LISTEN connection is
 * (re)established; a fill started before a change is not stored (generation check). Concurrent misses of one key
 * compute once. Each answer carries a strong `ETag` (hash of the body, so every process gives the same tag for the
 * same data) and `Cache-Control: no-cache`; `If-None-Match` with a current tag → 304 without a body.
 * Keys are the request target exactly as sent (path and raw query, no normalisation: `?a=1&b=2` and `?b=2&a=1` are
 * two entries), and an entry is stored only after its route decoded the request and answered 200, so `lookup` of a
 * key can only find a valid request's answer.
 */
export class ExchangeCache extends Context.Service<
  ExchangeCache,
  {
    /** `value` is the route's JSON-ready (already encoded) response body. */
    readonly respond: <E, R>(
      key: string,
      value: Effect.Effect<unknown, E, R>
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>
    /** The fresh entry of a key, if any (no fill). */
    readonly lookup: (key: string) => Entry | undefined
    readonly invalidate: () => void
    readonly size: () => number
  }
>()("app/exchange/ExchangeCache") {
  static readonly layer = Layer.effect(
    ExchangeCache,
    Effect.gen(function* () {
      const { cacheEnabled } = yield* exchangeSettings
      const feed = yield* IndexerChangeFeed
      const entries = new Map<string, Entry>()
      const inflight = new Map<string, Promise<Exit.Exit<Entry, unknown>>>()
      let generation = 0
      const invalidate = () => {
        generation++
        entries.clear()
        inflight.clear()
      }
      feed.onChange(invalidate)
      feed.onConnect(invalidate)

      const toEntry = (value: unknown): Entry => {
        const body = encoder.encode(JSON.stringify(value))
        return {
          body,
          etag: `"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}"`,
          storedAt: Date.now()
        }
      }
      const answer = (request: HttpServerRequest.HttpServerRequest, entry: Entry) => {
        const headers = entryHeaders(entry)
        if (matchesTag(request.headers["if-none-match"], entry.etag))
          return HttpServerResponse.empty({ status: 304, headers })
        return HttpServerResponse.uint8Array(entry.body, { contentType: "application/json", headers })
      }
      const lookup = (key: string) => {
        const hit = entries.get(key)
        return hit !== undefined && Date.now() - hit.storedAt < MAX_AGE_MS ? hit : undefined
      }

      const respond = <E, R>(key: string, value: Effect.Effect<unknown, E, R>) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          if (!cacheEnabled) return answer(request, toEntry(yield* value))
          const hit = lookup(key)
          if (hit !== undefined) return answer(request, hit)
          let pending = inflight.get(key) as Promise<Exit.Exit<Entry, E>> | undefined
          if (pending === undefined) {
            const started = generation
            const context = yield* Effect.context<R>()
            // Failures are not cached: every waiter gets the Exit, the next request tries again.
            const fill: Promise<Exit.Exit<Entry, E>> = Effect.runPromiseExitWith(context)(
              Effect.map(value, toEntry)
            ).then((exit) => {
              if (inflight.get(key) === fill) inflight.delete(key)
              if (Exit.isSuccess(exit) && generation === started) {
                if (entries.size >= MAX_ENTRIES) entries.clear()
                entries.set(key, exit.value)
              }
              return exit
            })
            pending = fill
            inflight.set(key, fill as Promise<Exit.Exit<Entry, unknown>>)
          }
          const exit = yield* Effect.promise(() => pending)
          return answer(request, yield* exit)
        })

      return ExchangeCache.of({ respond, lookup, invalidate, size: () => entries.size })
    })
  )
}
