import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Option } from "effect"
import { TestClock } from "effect/testing"
import type { AuthenticatedSession } from "../../src/client-api/accounts/sessions/Session.ts"
import { SessionCache } from "../../src/client-api/accounts/sessions/SessionCache.ts"
import { SessionConfig } from "../../src/client-api/accounts/sessions/SessionConfig.ts"
import { sessionSettings } from "./tokens.ts"

/**
 * The session cache's lookups (pure logic over a counted, gated lookup; no database). Under 50 concurrent requests
 * of one session, every request that missed while the first read ran read the row again (bench:auth: the cache-on
 * figures approached the cache-off ones under load); now they wait for the one read.
 */
const session = (userId: string) => ({ sessionId: "s1", user: { id: userId } }) as unknown as AuthenticatedSession

/** A process's cache (built afresh for each test). */
const cache = Effect.provide(
  SessionCache.useSync((c) => c),
  SessionCache.layer
)

/** A lookup that counts its runs and answers when `gate` opens. */
const gatedLookup = Effect.gen(function* () {
  const gate = yield* Deferred.make<void>()
  let runs = 0
  const lookup = Effect.suspend(() => {
    runs++
    return Effect.as(Deferred.await(gate), Option.some(session("u1")))
  })
  return { gate, lookup, runs: () => runs }
})

/**
 * `effect`'s answer if it comes within 1 s of the test's clock, else `None`: a request stuck on a lookup nobody will
 * complete shows as `None` instead of hanging the test.
 */
const withinOneSecond = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(Effect.timeoutOption(effect, "1 second"))
    yield* TestClock.adjust("1 second")
    return yield* Fiber.join(fiber)
  })

describe("SessionCache", () => {
  it.effect("requests that miss while a lookup runs wait for it: one read for 50 concurrent requests", () =>
    Effect.gen(function* () {
      const sessions = yield* cache
      const { gate, lookup, runs } = yield* gatedLookup
      const fibers = yield* Effect.forEach(Array.from({ length: 50 }), () =>
        Effect.forkChild(sessions.get("s1", lookup))
      )
      yield* Effect.yieldNow
      yield* Deferred.succeed(gate, undefined)
      const answers = yield* Fiber.joinAll(fibers)
      assert.strictEqual(runs(), 1)
      assert.isTrue(answers.every((a) => Option.isSome(a) && a.value.user.id === "u1"))
      // Cached for SESSION_CACHE_MS: the next request reads nothing.
      yield* sessions.get("s1", lookup)
      assert.strictEqual(runs(), 1)
      yield* TestClock.adjust("1 second")
      yield* sessions.get("s1", lookup)
      assert.strictEqual(runs(), 2)
    }).pipe(Effect.provide(SessionConfig.layerWith(sessionSettings({ sessionCacheMs: 1000 }))))
  )

  it.effect("a lookup overtaken by an invalidation answers its waiters but is not cached", () =>
    Effect.gen(function* () {
      const sessions = yield* cache
      const { gate, lookup, runs } = yield* gatedLookup
      const first = yield* Effect.forkChild(sessions.get("s1", lookup))
      yield* Effect.yieldNow
      yield* sessions.invalidate("s1") // e.g. this process's logout committed while the row was being read
      yield* Deferred.succeed(gate, undefined)
      assert.isTrue(Option.isSome(yield* Fiber.join(first)))
      yield* sessions.get("s1", lookup)
      assert.strictEqual(runs(), 2, "the request after the invalidation read the row again")
    }).pipe(Effect.provide(SessionConfig.layerWith(sessionSettings({ sessionCacheMs: 1000 }))))
  )

  it.effect("a request that goes away during its lookup still answers its waiters; later requests are not stuck", () =>
    Effect.gen(function* () {
      const sessions = yield* cache
      const { gate, lookup, runs } = yield* gatedLookup
      const first = yield* Effect.forkChild(sessions.get("s1", lookup))
      yield* Effect.yieldNow
      const waiter = yield* Effect.forkChild(sessions.get("s1", lookup))
      yield* Effect.yieldNow
      // The first request's client closes its connection while the row is read: the server interrupts its fiber.
      const closing = yield* Effect.forkChild(Fiber.interrupt(first))
      yield* Effect.yieldNow
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(closing)
      assert.isTrue(Exit.hasInterrupts(yield* Fiber.await(first)), "the request that went away ends interrupted")
      // Before the fix the interruption took effect as the read returned, before its waiters were answered.
      const waited = yield* withinOneSecond(Fiber.join(waiter))
      assert.isTrue(Option.isSome(waited) && Option.isSome(waited.value), "the waiter has the session")
      assert.strictEqual(runs(), 1)
      // The entry has expired (the clock moved 1 s): the next request reads the row again, not waiting forever.
      const next = yield* withinOneSecond(sessions.get("s1", lookup))
      assert.isTrue(Option.isSome(next), "the next request is answered")
      assert.strictEqual(runs(), 2)
    }).pipe(Effect.provide(SessionConfig.layerWith(sessionSettings({ sessionCacheMs: 1000 }))))
  )

  it.effect("a failed lookup fails its waiters and is not cached", () =>
    Effect.gen(function* () {
      const sessions = yield* cache
      const gate = yield* Deferred.make<void>()
      let runs = 0
      const failing = Effect.suspend(() => {
        runs++
        return Effect.andThen(Deferred.await(gate), Effect.fail("db down" as const))
      })
      const fibers = yield* Effect.forEach([1, 2, 3], () => Effect.forkChild(Effect.flip(sessions.get("s1", failing))))
      yield* Effect.yieldNow
      yield* Deferred.succeed(gate, undefined)
      assert.deepStrictEqual(yield* Fiber.joinAll(fibers), ["db down", "db down", "db down"])
      assert.strictEqual(runs, 1)
      yield* Effect.flip(sessions.get("s1", failing))
      assert.strictEqual(runs, 2)
    }).pipe(Effect.provide(SessionConfig.layerWith(sessionSettings({ sessionCacheMs: 1000 }))))
  )
})
