import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { Forbidden, Unauthorized } from "../../../platform/ApiError.ts"
import type { User } from "../users/User.ts"
import type { AuthenticatedSession, IssuedSession, SignInMethod } from "./Session.ts"
import { SessionCache } from "./SessionCache.ts"
import { DEFAULT_SESSION_MAX_LIFETIME, SessionConfig } from "./SessionConfig.ts"
import { SessionsRepo } from "./SessionsRepo.ts"
import { SessionTokens } from "./SessionTokens.ts"

/** A session not yet stored: the sessions row less its user. */
export interface SessionDraft {
  readonly id: string
  readonly method: SignInMethod
  readonly createdAt: Date
  readonly expiresAt: Date
  readonly signedInAt: Date
}

export const unauthorized = (reason: "missing" | "invalid" | "expired" | "revoked", message: string) =>
  new Unauthorized({ code: "UNAUTHORIZED", message, details: { reason } })

export const userBanned = () => new Forbidden({ code: "USER_BANNED", message: "This account is banned" })

/**
 * Session life cycle: issue (after a sign-in), authenticate (every request with a JWT), refresh (rotation) and
 * logout (revocation). A session is a JWT plus its row; the row is what makes revocation possible, and it is checked
 * on every request through `SessionCache` (≤ SESSION_CACHE_MS old).
 */
export class Sessions extends Context.Service<
  Sessions,
  {
    /** Creates the session row and signs its JWT. Runs inside the caller's transaction when there is one. */
    readonly issue: (user: User, method: SignInMethod) => Effect.Effect<IssuedSession>
    /**
     * `issue` in two halves, for a sign-in that writes the row in a statement of its own (WalletSignInRepo): the new
     * session's id and times, then the JWT of the stored row.
     */
    readonly draft: (method: SignInMethod) => Effect.Effect<SessionDraft>
    readonly sign: (user: User, draft: SessionDraft) => Effect.Effect<IssuedSession>
    /** The session of a JWT: 401 UNAUTHORIZED unless valid, live and unrevoked; 403 USER_BANNED for a banned user. */
    readonly authenticate: (token: string) => Effect.Effect<AuthenticatedSession, Unauthorized | Forbidden>
    /** Revokes `session` and issues its successor, atomically: of two concurrent refreshes one wins, one gets 401. */
    readonly refresh: (session: AuthenticatedSession) => Effect.Effect<IssuedSession, Unauthorized>
    readonly logout: (session: AuthenticatedSession) => Effect.Effect<void>
  }
>()("app/sessions/Sessions") {
  static readonly layerNoDeps = Layer.effect(
    Sessions,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const repo = yield* SessionsRepo
      const tokens = yield* SessionTokens
      const cache = yield* SessionCache
      const { jwtTtl, sessionMaxLifetime = DEFAULT_SESSION_MAX_LIFETIME } = yield* SessionConfig

      /** `signedInAt`: the sign-in a refreshed session descends from; a new sign-in is now. */
      const draftFrom = Effect.fn("Sessions.draft")(function* (method: SignInMethod, signedInAt?: Date) {
        const now = yield* Clock.currentTimeMillis
        const createdAt = new Date(now)
        const signedIn = signedInAt ?? createdAt
        // No refresh takes a session past the absolute lifetime of its sign-in.
        const end = Math.min(
          now + Duration.toMillis(jwtTtl),
          signedIn.getTime() + Duration.toMillis(sessionMaxLifetime)
        )
        // Whole seconds: the JWT's `exp` has no fraction, and the row must agree with it.
        const expiresAt = new Date(Math.floor(end / 1000) * 1000)
        if (expiresAt.getTime() <= now) {
          return yield* unauthorized(
            "expired",
            "The session has reached its maximum lifetime (SESSION_MAX_LIFETIME); sign in again"
          )
        }
        return { id: randomUUID(), method, createdAt, expiresAt, signedInAt: signedIn } satisfies SessionDraft
      })
      const sign = (user: User, draft: SessionDraft) =>
        Effect.map(
          tokens.sign({ userId: user.id, sessionId: draft.id, issuedAt: draft.createdAt, expiresAt: draft.expiresAt }),
          (token): IssuedSession => ({ sessionId: draft.id, token, expiresAt: draft.expiresAt, user })
        )
      const issueFrom = Effect.fn("Sessions.issue")(function* (user: User, method: SignInMethod, signedInAt?: Date) {
        const draft = yield* draftFrom(method, signedInAt)
        yield* repo.insert({ ...draft, userId: user.id })
        return yield* sign(user, draft)
      })
      // A new sign-in starts its own lifetime, so it cannot have outlived it.
      const issue = (user: User, method: SignInMethod) => Effect.orDie(issueFrom(user, method))
      const draft = (method: SignInMethod) => Effect.orDie(draftFrom(method))

      const authenticate = Effect.fn("Sessions.authenticate")(function* (token: string) {
        const now = yield* Clock.currentTimeMillis
        const claims = yield* tokens
          .verify(token, new Date(now))
          .pipe(Effect.mapError((rejected) => unauthorized(rejected.reason, rejected.message)))
        // A revoked session is cached as absent: it never comes back.
        const lookup = Effect.map(
          repo.find(claims.sessionId),
          Option.filter((row) => row.revokedAt === null)
        )
        const found = yield* cache.get(claims.sessionId, lookup)
        if (Option.isNone(found) || found.value.user.id !== claims.userId) {
          return yield* unauthorized("revoked", "The session has ended (logged out, refreshed or revoked)")
        }
        if (found.value.expiresAt.getTime() <= now) return yield* unauthorized("expired", "The session has expired")
        if (found.value.user.bannedAt !== null) return yield* userBanned()
        return found.value
      })

      const refresh = Effect.fn("Sessions.refresh")(function* (session: AuthenticatedSession) {
        const next = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const issued = yield* issueFrom(session.user, session.method, session.signedInAt)
              const revoked = yield* repo.revoke(session.sessionId, issued.sessionId)
              if (!revoked) return yield* unauthorized("revoked", "The session was already refreshed or logged out")
              return issued
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
        yield* cache.invalidate(session.sessionId)
        return next
      })

      const logout = Effect.fn("Sessions.logout")(function* (session: AuthenticatedSession) {
        yield* repo.revoke(session.sessionId)
        yield* cache.invalidate(session.sessionId)
      })

      return Sessions.of({ issue, draft, sign, authenticate, refresh, logout })
    })
  )

  static readonly layer = Sessions.layerNoDeps.pipe(
    Layer.provideMerge(Layer.mergeAll(SessionsRepo.layer, SessionTokens.layer, SessionCache.layer))
  )
}
