import { Clock, Context, Effect, Layer, Option } from "effect"
import type { AuthenticatedSession } from "./Session.ts"
import { SessionConfig } from "./SessionConfig.ts"

const MAX_ENTRIES = 50_000

/**
 * The per-process cache of session lookups that every authenticated request goes through. An entry lives at most
 * `SESSION_CACHE_MS` (≤ 1 s): that bounds how long another process's logout, refresh or ban can go unnoticed here.
 * Changes made by this process (logout, refresh, profile edits, moderation) drop the affected entries at once.
 * An ended session is cached as absent: a stolen, logged-out token costs at most one query per second per process.
 * Time comes from Effect's `Clock`, so tests move it with `TestClock` instead of sleeping.
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
      return SessionCache.of({
        get: (sessionId, lookup) =>
          sessionCacheMs === 0
            ? lookup
            : Effect.gen(function* () {
                const now = yield* Clock.currentTimeMillis
                const hit = entries.get(sessionId)
                if (hit !== undefined && now - hit.at < sessionCacheMs) return hit.value
                const value = yield* lookup
                entries.delete(sessionId) // re-insert at the end: Map order is then oldest first
                entries.set(sessionId, { at: now, value })
                if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!)
                return value
              }),
        invalidate: (sessionId) => Effect.sync(() => void entries.delete(sessionId)),
        invalidateUser: (userId) =>
          Effect.sync(() => {
            for (const [id, entry] of entries) {
              if (Option.isSome(entry.value) && entry.value.value.user.id === userId) entries.delete(id)
            }
          })
      })
    })
  )
}
