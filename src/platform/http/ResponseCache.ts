import { Effect, Exit, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"

/** One cached 200 answer: its JSON body as sent, and its tag when the cache gives tags. */
export interface CachedResponse {
  readonly body: Uint8Array
  readonly etag: string | undefined
  readonly storedAt: number
}

export interface ResponseCacheOptions {
  /** Off: every request computes its answer (same bytes and headers, nothing stored). */
  readonly enabled: boolean
  /** Answers carry a strong `ETag` (hash of the body) and `Cache-Control: no-cache`; `If-None-Match` → 304. */
  readonly etags: boolean
  /** Entries older than this are recomputed even without an invalidation (a lost message costs at most this). */
  readonly maxAgeMs?: number
  readonly maxEntries?: number
  /** Bodies kept in all, in bytes; the oldest entries go first. */
  readonly maxBytes?: number
}

export interface ResponseCache {
  /** `value` is the route's JSON-ready (already encoded) response body. */
  readonly respond: <E, R>(
    key: string,
    value: Effect.Effect<unknown, E, R>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>
  /** The fresh entry of a key, if any (no fill). */
  readonly lookup: (key: string) => CachedResponse | undefined
  /** Drops every entry; fills started before it are not stored. */
  readonly invalidate: () => void
  readonly size: () => number
}

const encoder = new TextEncoder()

/** Whether an `If-None-Match` value names the entry's tag (a weak `W/` form of it too). */
export const matchesTag = (ifNoneMatch: string | undefined, etag: string | undefined) =>
  etag !== undefined &&
  ifNoneMatch !== undefined &&
  ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)

/** The headers an entry adds to its answer (the fast lane writes the same): none without tags. */
export const entryHeaders = (entry: CachedResponse): Record<string, string> =>
  entry.etag === undefined ? {} : { etag: entry.etag, "cache-control": "no-cache" }

/**
 * A per-request-target cache of JSON answers, owned by one service, which decides when to `invalidate` (the exchange
 * on every indexer commit, search on every change of its index). Keys are the request target exactly as sent (path
 * and raw query, no normalisation), and an entry is stored only after its route decoded the request and answered
 * 200, so `lookup` of a key can only find a valid request's answer; that is what lets the fast lane
 * (src/platform/http/CachedFastLane.ts) answer a hit at the Node listener. Concurrent misses of one key compute once;
 * a fill started before an `invalidate` is not stored (generation check); failures are not cached.
 */
export const makeResponseCache = (options: ResponseCacheOptions): ResponseCache => {
  const maxAgeMs = options.maxAgeMs ?? 30_000
  const maxEntries = options.maxEntries ?? 20_000
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024
  const entries = new Map<string, CachedResponse>()
  const inflight = new Map<string, Promise<Exit.Exit<CachedResponse, unknown>>>()
  let generation = 0
  let bytes = 0
  const invalidate = () => {
    generation++
    entries.clear()
    inflight.clear()
    bytes = 0
  }
  const store = (key: string, entry: CachedResponse) => {
    const previous = entries.get(key)
    if (previous !== undefined) {
      entries.delete(key)
      bytes -= previous.body.byteLength
    }
    entries.set(key, entry)
    bytes += entry.body.byteLength
    // A Map iterates in insertion order: the oldest entries are dropped first.
    for (const [oldKey, old] of entries) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break
      entries.delete(oldKey)
      bytes -= old.body.byteLength
    }
  }

  const toEntry = (value: unknown): CachedResponse => {
    const body = encoder.encode(JSON.stringify(value))
    return {
      body,
      etag: options.etags ? `"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}"` : undefined,
      storedAt: Date.now()
    }
  }
  const answer = (request: HttpServerRequest.HttpServerRequest, entry: CachedResponse) => {
    const headers = entryHeaders(entry)
    if (matchesTag(request.headers["if-none-match"], entry.etag))
      return HttpServerResponse.empty({ status: 304, headers })
    return HttpServerResponse.uint8Array(entry.body, { contentType: "application/json", headers })
  }
  const lookup = (key: string) => {
    const hit = entries.get(key)
    return hit !== undefined && Date.now() - hit.storedAt < maxAgeMs ? hit : undefined
  }

  const respond = <E, R>(key: string, value: Effect.Effect<unknown, E, R>) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (!options.enabled) return answer(request, toEntry(yield* value))
      const hit = lookup(key)
      if (hit !== undefined) return answer(request, hit)
      let pending = inflight.get(key) as Promise<Exit.Exit<CachedResponse, E>> | undefined
      if (pending === undefined) {
        const started = generation
        const context = yield* Effect.context<R>()
        // Failures are not cached: every waiter gets the Exit, the next request tries again.
        const fill: Promise<Exit.Exit<CachedResponse, E>> = Effect.runPromiseExitWith(context)(
          Effect.map(value, toEntry)
        ).then((exit) => {
          if (inflight.get(key) === fill) inflight.delete(key)
          if (Exit.isSuccess(exit) && generation === started) store(key, exit.value)
          return exit
        })
        pending = fill
        inflight.set(key, fill as Promise<Exit.Exit<CachedResponse, unknown>>)
      }
      const exit = yield* Effect.promise(() => pending)
      return answer(request, yield* exit)
    })

  return { respond, lookup, invalidate, size: () => entries.size }
}

/**
 * A route's answer through `cache`, keyed by the request target: the value encoded by the route's success `schema`
 * as HttpApi encodes it (then `JSON.stringify`), so the bytes are those of the route without the cache.
 */
export const cachedAnswer = <A, I>(cache: ResponseCache, schema: Schema.Codec<A, I>) => {
  const encode = Schema.encodeSync(schema)
  return <E, R>(value: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      return yield* cache.respond(request.url, Effect.map(value, encode))
    })
}

/** A request without credentials (no `Authorization`, no cookie): the only ones whose answers a shared cache may give. */
export const isAnonymous = (headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>) =>
  headers["authorization"] === undefined && headers["cookie"] === undefined
