import { Clock, Context, Deferred, Effect, Exit, Layer, Option } from "effect"
import type { AuthenticatedSession } from "./Session.ts"
import { SessionConfig } from "./SessionConfig.ts"

const MAX_ENTRIES = 50_000

/** A lookup on its way: the requests that miss meanwhile wait for it; `stale` once an invalidation overtook it. */
interface InFlight {
  readonly done: Deferred.Deferred<Option.Option<AuthenticatedSession>, unknown>
  stale: boolean
}

/**
 * The per-process cache of session lookups that every authenticated request goes through. An entry lives at most
 * `SESSION_CACHE_MS` (≤ 1 s): that bounds how long another process's logout, refresh or ban can go unnoticed here.
 * Changes made by this process (logout, refresh, profile edits, moderation) drop the affected entries at once.
 * An ended session is cached as absent: a stolen, logged-out token costs at most one query per second per process.
 * Time comes from Effect's `Clock`, so tests move it with `TestClock` instead of sleeping.
 *
 * One lookup per session at a time: the requests that miss while it runs wait for its answer instead of each reading
 * the row (when an entry expires under 50 concurrent requests of one session, they all missed until the first read
 * came back: bench:auth). A lookup that an invalidation overtook answers its waiters but is not cached, and the
 * requests after the invalidation start a new one.
 */
export class SessionCache extends Context.Service<
  SessionCache,
  {
    readonly get: <E>(
      sessionId: string,
      lookup: Effect.Effect<Option.Option<AuthenticatedSession>, E>
    ) => Effect.Effect<Option.Option<AuthenticatedSession>, E>
    readonly invalidate: (sessionId: string) => Effect.Effect<void>
    readonly invalidateUser: (userId: string) => Effect.Effect<void>
  }
>()("app/sessions/SessionCache") {
  static readonly layer = Layer.effect(
    SessionCache,
    Effect.gen(function* () {
      const { sessionCacheMs } = yield* SessionConfig
      const entries = new Map<string, { readonly at: number; readonly value: Option.Option<AuthenticatedSession> }>()
      const inFlight = new Map<string, InFlight>()
      const store = (sessionId: string, at: number, value: Option.Option<AuthenticatedSession>) => {
        entries.delete(sessionId) // re-insert at the end: Map order is then oldest first
        entries.set(sessionId, { at, value })
        if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!)
      }
      /**
       * Runs the lookup that the requests missing meanwhile wait for, and answers them, as one uninterruptible step:
       * from registering it to completing its Deferred. The request that started it may go away (a client closing
       * its connection interrupts the request's fiber); it is only interrupted once its waiters have their answer.
       * Before, only the read itself was uninterruptible: an interruption that arrived during the read took effect
       * as the read returned, before the Deferred was completed and the lookup unregistered, so every later request
       * of the session waited for it forever (bench:auth: the cache-on rounds after the first answered nothing;
       * test/sessions/SessionCacheAbort.test.ts).
       */
      const lead = <E>(sessionId: string, now: number, lookup: Effect.Effect<Option.Option<AuthenticatedSession>, E>) =>
        Effect.uninterruptible(
          Effect.suspend(() => {
            const mine: InFlight = { done: Deferred.makeUnsafe(), stale: false }
            inFlight.set(sessionId, mine)
            return Effect.map(Effect.exit(lookup), (exit) => {
              if (inFlight.get(sessionId) === mine) inFlight.delete(sessionId)
              if (Exit.isSuccess(exit) && !mine.stale) store(sessionId, now, exit.value)
              Deferred.doneUnsafe(mine.done, exit)
              return exit
            })
          })
        )
      const get = <E>(sessionId: string, lookup: Effect.Effect<Option.Option<AuthenticatedSession>, E>) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const hit = entries.get(sessionId)
          if (hit !== undefined && now - hit.at < sessionCacheMs) return hit.value
          const running = inFlight.get(sessionId)
          // The lookup's failure is one of the E of the callers of this session's lookups: the same repository read.
          if (running !== undefined) return yield* Deferred.await(running.done) as Effect.Effect<never, E>
          // The interruption of a request that went away during its lookup takes effect here, its waiters answered.
          const exit = yield* lead(sessionId, now, lookup)
          return yield* exit
        })
      return SessionCache.of({
        get: (sessionId, lookup) => (sessionCacheMs === 0 ? lookup : get(sessionId, lookup)),
        invalidate: (sessionId) =>
          Effect.sync(() => {
            entries.delete(sessionId)
            const running = inFlight.get(sessionId)
            if (running !== undefined) running.stale = true
            inFlight.delete(sessionId)
          }),
        invalidateUser: (userId) =>
          Effect.sync(() => {
            for (const [id, entry] of entries) {
              if (Option.isSome(entry.value) && entry.value.value.user.id === userId) entries.delete(id)
            }
            // Whose session a running lookup reads is not known before it answers: none of them is cached.
            for (const running of inFlight.values()) running.stale = true
            inFlight.clear()
          })
      })
    })
  )
}
