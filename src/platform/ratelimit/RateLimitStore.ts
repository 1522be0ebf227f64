import { Clock, Context, Data, Effect, Layer } from "effect"

/** What one window of a counter holds after an increment. */
export interface WindowCount {
  /** Hits counted in the current window, including the ones just added. */
  readonly count: number
  /** Milliseconds until the window ends and the counter starts again from zero. */
  readonly resetMs: number
}

export class RateLimitStoreError extends Data.TaggedError("RateLimitStoreError")<{
  readonly store: string
  readonly cause: unknown
}> {}

/**
 * Shared fixed-window counters. A window starts with the first hit on a counter and lasts `windowMs`; after it the
 * next hit starts a new one. `increment` adds `hits` atomically (several waiting requests can be counted in one
 * round trip) and returns the window's total. Processes that share the store share the counts.
 */
export class RateLimitStore extends Context.Service<
  RateLimitStore,
  {
    readonly name: "memory" | "postgres" | "redis"
    readonly increment: (
      counter: string,
      hits: number,
      windowMs: number
    ) => Effect.Effect<WindowCount, RateLimitStoreError>
  }
>()("app/ratelimit/RateLimitStore") {
  /** One process only (unit tests, a single-node dev setup): counts are not shared. */
  static readonly layerMemory = Layer.sync(RateLimitStore, () => {
    const windows = new Map<string, { count: number; endsAt: number }>()
    let sweptAt = 0
    return RateLimitStore.of({
      name: "memory",
      increment: (counter, hits, windowMs) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          if (now - sweptAt > 60_000) {
            for (const [k, w] of windows) if (w.endsAt <= now) windows.delete(k)
            sweptAt = now
          }
          let w = windows.get(counter)
          if (w === undefined || w.endsAt <= now) {
            w = { count: 0, endsAt: now + windowMs }
            windows.set(counter, w)
          }
          w.count += hits
          return { count: w.count, resetMs: w.endsAt - now }
        })
    })
  })
}
