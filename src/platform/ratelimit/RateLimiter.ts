import { Clock, type Config, Context, Effect, Fiber, Layer, Option } from "effect"
import { recordRateLimitRejection } from "../metrics/Metrics.ts"
import { makeBurstBuckets } from "./BurstBuckets.ts"
import {
  batchFor,
  type Counter,
  decideLocally,
  decisionAt,
  isIdle,
  newCounter,
  type RateLimitDecision
} from "./LocalCounts.ts"
import { PostgresRateLimitStoreLive } from "./PostgresRateLimitStore.ts"
import {
  defaultLocalCounting,
  type LocalCounting,
  type RateLimitRule,
  type RateLimitSettings,
  rateLimitSettingsConfig,
  resolvedStore
} from "./RateLimitConfig.ts"
import { RedisRateLimitStoreLive } from "./RedisRateLimitStore.ts"
import { RateLimitStore, type WindowCount } from "./RateLimitStore.ts"

export type { RateLimitDecision } from "./LocalCounts.ts"

/**
 * Fixed-window limits over a shared `RateLimitStore`. `bucket` names the limit (`exchange-public`, `partner-key`),
 * `key` the caller (an IP, a key id).
 *
 * Far from the limit, hits are counted here and sent to the store in batches (`LocalCounting`: every `flushMs` or
 * half a `batch`), so a request costs no round trip; `consumeLocal` offers that decision synchronously (the HTTP fast
 * lane). The first hit of a window, the last `batch` hits before the limit and any hit while requests wait for the
 * store are decided by the store: while an increment for a counter is in flight, further requests queue and the next
 * increment adds them all at once (with the unsent local hits before them); each learns its own position in the
 * window (total − batch + its index), so the decision is the one it would get alone.
 *
 * Bound: with one process the answers are exact (LocalCounts.decideLocally). With P processes sharing the store, a
 * window allows at most limit + (P − 1) × batch requests: a decision can miss only hits that other processes have
 * not yet had acknowledged, at most `batch` each (test/ratelimit/LocalCounting.test.ts checks it under random
 * interleavings). With the defaults (600 per 60 s, batch 100) and two processes: at most 700 per minute per IP.
 * A rule whose limit exceeds 100 × the configured batch uses 1 % of its limit as its batch (`batchFor`), so a busy
 * counter under a high limit stays on the local path; its overshoot is then at most (P − 1) % of the limit.
 *
 * Once the store has reported a window full, the rest of it is refused here without a round trip (exact: counts only
 * grow within a window; LocalCounts.decideLocally), asking the store again at most every `flushMs`: a caller
 * flooding past its limit costs a store write per flush interval, not one per 429.
 *
 * A rule with a `burst` is also held to it, per process, before its window is counted (BurstBuckets.ts).
 *
 * When the store fails, requests are allowed (logged) and the unsent local hits are forgotten: a limiter outage must
 * not take the API down.
 */
export class RateLimiter extends Context.Service<
  RateLimiter,
  {
    readonly consume: (bucket: string, key: string, rule: RateLimitRule) => Effect.Effect<RateLimitDecision>
    /** The decision when it can be made without the store (counted); `undefined` (nothing counted): use `consume`. */
    readonly consumeLocal: (bucket: string, key: string, rule: RateLimitRule) => RateLimitDecision | undefined
  }
>()("app/ratelimit/RateLimiter") {
  static readonly layerNoDepsWith = (local: LocalCounting) =>
    Layer.effect(
      RateLimiter,
      Effect.gen(function* () {
        const store = yield* RateLimitStore
        const clock = yield* Clock.Clock
        const context = yield* Effect.context<never>()
        const scope = yield* Effect.scope
        const counters = new Map<string, Counter>()
        const bursts = makeBurstBuckets()
        const half = (c: Counter) => Math.max(1, Math.ceil(c.batch / 2))
        let sweptAt = 0
        // Detached from any request (the requests of a batch all wait on it), ended with the layer.
        const fork = (effect: Effect.Effect<void>) => void Fiber.runIn(Effect.runForkWith(context)(effect), scope)

        const roundTrip = (c: Counter): Effect.Effect<void> =>
          Effect.suspend(() => {
            const batch = c.waiters.splice(0)
            const unsent = c.unsent
            if (batch.length + unsent === 0) {
              c.busy = false
              return Effect.void
            }
            c.unsent = 0
            c.sendingLocal = unsent
            c.sendingWaiters = batch.length
            return store.increment(c.name, unsent + batch.length, c.windowMs).pipe(
              Effect.map(Option.some),
              Effect.catchCause((cause) =>
                Effect.as(
                  Effect.logWarning(`rate limits: the ${store.name} store failed; allowing`, cause),
                  Option.none<WindowCount>()
                )
              ),
              Effect.map((result) => {
                c.sendingLocal = 0
                c.sendingWaiters = 0
                if (Option.isSome(result)) {
                  c.known = result.value.count
                  c.answeredAt = clock.currentTimeMillisUnsafe()
                  c.endsAt = c.answeredAt + result.value.resetMs
                } else {
                  c.endsAt = 0
                }
                batch.forEach((w, i) =>
                  w.resolve(
                    Option.isSome(result)
                      ? { count: result.value, nth: result.value.count - batch.length + i + 1 }
                      : undefined
                  )
                )
                if (c.waiters.length > 0 || c.unsent >= half(c)) return true
                c.busy = false
                if (c.unsent > 0) schedule(c)
                return false
              }),
              Effect.flatMap((again) => (again ? roundTrip(c) : Effect.void))
            )
          })
        const start = (c: Counter) => {
          c.busy = true
          fork(roundTrip(c))
        }
        /**
         * Counters with local hits waiting for the flush. One timer serves them all, so their round trips start
         * together and the store can send them as one (PostgresRateLimitStore.ts): a timer per counter spread the
         * flushes of many quiet counters (100 wallets signing in, bench:auth) over time, one transaction each.
         */
        const flushing = new Set<Counter>()
        let flushTimer = false
        const flushAll = Effect.sync(() => {
          flushTimer = false
          const due = [...flushing]
          flushing.clear()
          for (const c of due) {
            c.timer = false
            if (!c.busy && c.unsent > 0) start(c)
          }
        })
        /** After a local hit: send now when half a batch waits, else within `flushMs`. */
        const schedule = (c: Counter) => {
          if (c.busy) return
          if (c.unsent >= half(c)) return start(c)
          if (c.timer) return
          c.timer = true
          flushing.add(c)
          if (flushTimer) return
          flushTimer = true
          fork(Effect.andThen(Effect.sleep(local.flushMs), flushAll))
        }
        const counterOf = (bucket: string, key: string, rule: RateLimitRule, now: number) => {
          if (now - sweptAt > 60_000) {
            for (const [name, c] of counters) if (isIdle(c, now)) counters.delete(name)
            sweptAt = now
          }
          const name = `${bucket}:${key}`
          let c = counters.get(name)
          if (c === undefined) {
            c = newCounter(name, rule.windowSeconds * 1000)
            counters.set(name, c)
          }
          c.windowMs = rule.windowSeconds * 1000
          c.batch = batchFor(local.batch, rule)
          return c
        }

        /**
         * `refuseForMs`: a hit past a window the store reported full at most that long ago is refused here too (not
         * counted: decideLocally).
         */
        const decide = (bucket: string, key: string, rule: RateLimitRule, refuseForMs: number) => {
          const now = clock.currentTimeMillisUnsafe()
          const c = counterOf(bucket, key, rule, now)
          const decision = decideLocally(c, rule, c.batch, now, refuseForMs)
          if (decision?.allowed === true) schedule(c)
          return decision
        }
        // The fast lane answers only what it allows (its callers write no 429): refusals go the Effect path, which
        // takes the burst's request itself (so this one only looks until it allows).
        const consumeLocal = (bucket: string, key: string, rule: RateLimitRule) => {
          const name = `${bucket}:${key}`
          if (rule.burst !== undefined && bursts.wait(name, rule, clock.currentTimeMillisUnsafe(), false) > 0)
            return undefined
          const decision = decide(bucket, key, rule, 0)
          if (decision !== undefined && rule.burst !== undefined)
            bursts.wait(name, rule, clock.currentTimeMillisUnsafe(), true)
          return decision
        }

        const consume = (bucket: string, key: string, rule: RateLimitRule) =>
          Effect.suspend(() => {
            // The burst first: in process, and a caller past it is not counted in the shared window.
            if (rule.burst !== undefined) {
              const waitMs = bursts.wait(`${bucket}:${key}`, rule, clock.currentTimeMillisUnsafe(), true)
              if (waitMs > 0)
                return Effect.succeed<RateLimitDecision>({
                  allowed: false,
                  limit: rule.limit,
                  remaining: 0,
                  resetSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
                  burst: true
                })
            }
            // Refusals on the store's word for up to a flush interval, then it is asked again.
            const decision = decide(bucket, key, rule, local.flushMs)
            if (decision !== undefined) return Effect.succeed(decision)
            return Effect.callback<RateLimitDecision>((resume) => {
              const c = counterOf(bucket, key, rule, clock.currentTimeMillisUnsafe())
              c.waiters.push({
                resolve: (position) =>
                  resume(
                    Effect.succeed(
                      position === undefined
                        ? { allowed: true, limit: rule.limit, remaining: rule.limit, resetSeconds: rule.windowSeconds }
                        : decisionAt(rule, position.count, position.nth)
                    )
                  )
              })
              if (!c.busy) start(c)
            })
          })

        return RateLimiter.of({
          // Every refusal counts in rate_limit_rejections_total{bucket}, whichever route asked (a local decision
          // always allows, so consumeLocal has none to count).
          consume: (bucket, key, rule) =>
            Effect.tap(consume(bucket, key, rule), (d) => (d.allowed ? Effect.void : recordRateLimitRejection(bucket))),
          consumeLocal
        })
      })
    )

  /** Over the store the settings choose (RATE_LIMIT_*, REDIS_URL, or a RateLimitConfig in the context). */
  static readonly layer = Layer.unwrap(Effect.suspend(() => Effect.map(rateLimitSettings, RateLimiter.layerWith)))

  /** Default local counting (`defaultLocalCounting`). */
  static readonly layerNoDeps = RateLimiter.layerNoDepsWith(defaultLocalCounting)

  /** The limiter over the store the settings choose (the Postgres one needs the process's SqlClient). */
  static readonly layerWith = (settings: RateLimitSettings) => {
    const store = resolvedStore(settings)
    if (store === "redis") {
      if (Option.isNone(settings.redisUrl))
        return Layer.effect(RateLimiter, Effect.die(new Error("RATE_LIMIT_STORE=redis needs REDIS_URL")))
      return RateLimiter.layerNoDepsWith(settings.local).pipe(
        Layer.provide(RedisRateLimitStoreLive(settings.redisUrl.value))
      )
    }
    return RateLimiter.layerNoDepsWith(settings.local).pipe(
      Layer.provide(store === "memory" ? RateLimitStore.layerMemory : PostgresRateLimitStoreLive)
    )
  }
}

/**
 * The settings as a service. Optional in the context: when absent (the app), they are read from the environment
 * (RATE_LIMIT_*, REDIS_URL); tests provide their own.
 */
export class RateLimitConfig extends Context.Service<RateLimitConfig, RateLimitSettings>()(
  "app/ratelimit/RateLimitConfig"
) {
  static readonly layerWith = (settings: RateLimitSettings) => Layer.succeed(RateLimitConfig, settings)
}

export const rateLimitSettings: Effect.Effect<RateLimitSettings, Config.ConfigError> = Effect.gen(function* () {
  const given = yield* Effect.serviceOption(RateLimitConfig)
  return Option.isSome(given) ? given.value : yield* rateLimitSettingsConfig
})
