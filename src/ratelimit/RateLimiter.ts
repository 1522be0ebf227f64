import { type Config, Context, Effect, Layer, Option } from "effect"
import { recordRateLimitRejection } from "../metrics/Metrics.ts"
import { PostgresRateLimitStore } from "./PostgresRateLimitStore.ts"
import { type RateLimitRule, type RateLimitSettings, rateLimitSettingsConfig, resolvedStore } from "./RateLimitConfig.ts"
import { RedisRateLimitStore } from "./RedisRateLimitStore.ts"
import { RateLimitStore, type WindowCount } from "./RateLimitStore.ts"

export interface RateLimitDecision {
  readonly allowed: boolean
  readonly limit: number
  /** Requests left in the current window after this one (0 when refused). */
  readonly remaining: number
  /** Whole seconds until the window ends (at least 1 while it is open). */
  readonly resetSeconds: number
}

interface Waiter {
  readonly resolve: (position: { readonly count: WindowCount; readonly nth: number } | undefined) => void
}

/**
 * Fixed-window limits over a shared `RateLimitStore`. `bucket` names the limit (`exchange-public`, `partner-key`),
 * `key` the caller (an IP, a key id).
 *
 * Hot keys cost one store round trip per batch, not per request: while an increment for a counter is in flight,
 * further requests for it queue, and the next increment adds them all at once; each learns its own position in the
 * window (total − batch + its index), so the decision is the one it would get alone. When the store fails, requests
 * are allowed (logged): a limiter outage must not take the API down.
 */
export class RateLimiter extends Context.Service<RateLimiter, {
  readonly consume: (bucket: string, key: string, rule: RateLimitRule) => Effect.Effect<RateLimitDecision>
}>()("app/ratelimit/RateLimiter") {
  static readonly layerNoDeps = Layer.effect(
    RateLimiter,
    Effect.gen(function*() {
      const store = yield* RateLimitStore
      const context = yield* Effect.context<never>()
      const queues = new Map<string, Array<Waiter>>()

      const drain = (counter: string, windowMs: number, queue: Array<Waiter>): Effect.Effect<void> =>
        Effect.suspend(() => {
          const batch = queue.splice(0)
          if (batch.length === 0) {
            queues.delete(counter)
            return Effect.void
          }
          return store.increment(counter, batch.length, windowMs).pipe(
            Effect.map(Option.some),
            Effect.catchCause((cause) =>
              Effect.as(Effect.logWarning(`rate limits: the ${store.name} store failed; allowing`, cause), Option.none())
            ),
            Effect.tap((result) =>
              Effect.sync(() =>
                batch.forEach((w, i) =>
                  w.resolve(Option.isSome(result) ? { count: result.value, nth: result.value.count - batch.length + i + 1 } : undefined)
                )
              )
            ),
            Effect.andThen(drain(counter, windowMs, queue))
          )
        })

      const consume = (bucket: string, key: string, rule: RateLimitRule) =>
        Effect.callback<RateLimitDecision>((resume) => {
          const counter = `${bucket}:${key}`
          const waiter: Waiter = {
            resolve: (position) => {
              if (position === undefined) {
                resume(Effect.succeed({ allowed: true, limit: rule.limit, remaining: rule.limit, resetSeconds: rule.windowSeconds }))
                return
              }
              const allowed = position.nth <= rule.limit
              resume(Effect.succeed({
                allowed,
                limit: rule.limit,
                remaining: allowed ? rule.limit - position.nth : 0,
                resetSeconds: Math.max(1, Math.ceil(position.count.resetMs / 1000))
              }))
            }
          }
          const queue = queues.get(counter)
          if (queue !== undefined) {
            queue.push(waiter)
            return
          }
          const fresh = [waiter]
          queues.set(counter, fresh)
          // Detached from the request: other requests of the batch wait on this round trip too.
          Effect.runForkWith(context)(drain(counter, rule.windowSeconds * 1000, fresh))
        })

      return RateLimiter.of({
        // Every refusal counts in rate_limit_rejections_total{bucket}, whichever route asked.
        consume: (bucket, key, rule) =>
          Effect.tap(consume(bucket, key, rule), (d) => d.allowed ? Effect.void : recordRateLimitRejection(bucket))
      })
    })
  )

  /** The limiter over the store the settings choose (the Postgres one needs the process's SqlClient). */
  static readonly layerFrom = (settings: RateLimitSettings) => {
    const store = resolvedStore(settings)
    if (store === "redis") {
      if (Option.isNone(settings.redisUrl)) return Layer.effect(RateLimiter, Effect.die(new Error("RATE_LIMIT_STORE=redis needs REDIS_URL")))
      return RateLimiter.layerNoDeps.pipe(Layer.provide(RedisRateLimitStore(settings.redisUrl.value)))
    }
    return RateLimiter.layerNoDeps.pipe(Layer.provide(store === "memory" ? RateLimitStore.layerMemory : PostgresRateLimitStore))
  }
}

/**
 * The settings as a service. Optional in the context: when absent (the app), they are read from the environment
 * (RATE_LIMIT_*, REDIS_URL); tests provide their own.
 */
export class RateLimitConfig extends Context.Service<RateLimitConfig, RateLimitSettings>()("app/ratelimit/RateLimitConfig") {
  static readonly layerWith = (settings: RateLimitSettings) => Layer.succeed(RateLimitConfig, settings)
}

export const rateLimitSettings: Effect.Effect<RateLimitSettings, Config.ConfigError> = Effect.gen(function*() {
  const given = yield* Effect.serviceOption(RateLimitConfig)
  return Option.isSome(given) ? given.value : yield* rateLimitSettingsConfig
})

/** RateLimiter over the store the settings choose. */
export const RateLimiterLive = Layer.unwrap(Effect.map(rateLimitSettings, RateLimiter.layerFrom))
