import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { Effect, Layer, Redacted } from "effect"
import { Redis } from "effect/persistence"
import { RateLimitStore, RateLimitStoreError } from "./RateLimitStore.ts"

/**
 * INCRBY and, on the window's first hit, PEXPIRE in one Lua script (atomic on the server), then PTTL for the reset.
 * A counter that somehow lost its TTL gets one again, so no key can block a caller forever.
 */
const incrementScript = Redis.script(
  (key: string, hits: number, windowMs: number) => [key, String(hits), String(windowMs)],
  {
    numberOfKeys: 1,
    lua: `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
return {count, ttl}`
  }
).withReturnType<[number, number]>()

/** Counters as Redis keys `fire:rl:<bucket>:<key>` that expire with their window. */
export const RedisRateLimitStoreLiveNoDeps = Layer.effect(
  RateLimitStore,
  Effect.gen(function* () {
    const redis = yield* Redis.Redis
    const increment = redis.eval(incrementScript)
    return RateLimitStore.of({
      name: "redis",
      increment: (counter, hits, windowMs) =>
        increment(`fire:rl:${counter}`, hits, windowMs).pipe(
          Effect.map(([count, resetMs]) => ({ count: Number(count), resetMs: Number(resetMs) })),
          Effect.mapError((cause) => new RateLimitStoreError({ store: "redis", cause }))
        )
    })
  })
)

/** The store over its own node-redis client (connected while the layer builds, closed with it). */
export const RedisRateLimitStoreLive = (url: Redacted.Redacted) =>
  RedisRateLimitStoreLiveNoDeps.pipe(Layer.provide(NodeRedis.layer({ url: Redacted.value(url) })))
