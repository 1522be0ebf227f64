import { Effect, Layer, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { Forbidden } from "../../../platform/ApiError.ts"
import type { AuthenticatedSession } from "../sessions/Session.ts"
import { SessionConfig, sessionCookieName } from "../sessions/SessionConfig.ts"
import { Sessions, unauthorized } from "../sessions/Sessions.ts"
import {
  AdminAuthentication,
  Authentication,
  CurrentSession,
  CurrentUser,
  OptionalAuthentication,
  OptionalSession
} from "./Authentication.ts"

/** The bearer token of the `Authorization` header (scheme case-insensitive), if any. */
const bearerOf = (request: HttpServerRequest.HttpServerRequest) => {
  const match = /^Bearer +(\S+)\s*$/i.exec(request.headers["authorization"] ?? "")
  return match?.[1]
}

/**
 * The token a request presents: the Authorization header wins over the cookie, so one request means one session.
 * Only the cookie of the configured name counts (under COOKIE_SECURE, the `__Host-` one: SessionConfig.ts).
 */
const tokenReader = (cookieName: string) => (request: HttpServerRequest.HttpServerRequest) =>
  bearerOf(request) ?? (request.cookies[cookieName] || undefined)

const cookieNameOfConfig = Effect.map(SessionConfig, (config) => sessionCookieName(config.cookieSecure))

const withSession = <A, E, R>(effect: Effect.Effect<A, E, R>, session: AuthenticatedSession) =>
  effect.pipe(Effect.provideService(CurrentSession, session), Effect.provideService(CurrentUser, session.user))

/**
 * The framework tries the security schemes in order (bearer, then cookie) and reports the last one's error. Both
 * handlers therefore authenticate the same token — the request's, header first — so the answer never depends on
 * which scheme happened to fail last. A missing token fails fast without touching the session store.
 */
const makeSecurityHandlers = (
  sessions: Sessions["Service"],
  cookieName: string,
  check: (session: AuthenticatedSession) => Effect.Effect<void, Forbidden>
) => {
  const tokenOf = tokenReader(cookieName)
  const handle = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const token = tokenOf(yield* HttpServerRequest.HttpServerRequest)
      if (token === undefined) {
        return yield* unauthorized(
          "missing",
          `Sign in: send the session JWT as a Bearer token or the ${cookieName} cookie`
        )
      }
      const session = yield* sessions.authenticate(token)
      yield* check(session)
      return yield* withSession(effect, session)
    })
  return { bearer: handle, cookie: handle }
}

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const handlers = makeSecurityHandlers(yield* Sessions, yield* cookieNameOfConfig, () => Effect.void)
    return Authentication.of(handlers)
  })
)

const adminOnly = (session: AuthenticatedSession) =>
  session.user.isAdmin
    ? Effect.void
    : Effect.fail(new Forbidden({ code: "FORBIDDEN", message: "This route is for administrators" }))

export const AdminAuthenticationLive = Layer.effect(
  AdminAuthentication,
  Effect.gen(function* () {
    return AdminAuthentication.of(makeSecurityHandlers(yield* Sessions, yield* cookieNameOfConfig, adminOnly))
  })
)

export const OptionalAuthenticationLive = Layer.effect(
  OptionalAuthentication,
  Effect.gen(function* () {
    const sessions = yield* Sessions
    const tokenOf = tokenReader(yield* cookieNameOfConfig)
    return OptionalAuthentication.of((effect) =>
      Effect.gen(function* () {
        const token = tokenOf(yield* HttpServerRequest.HttpServerRequest)
        const session =
          token === undefined
            ? Option.none<AuthenticatedSession>()
            : yield* sessions.authenticate(token).pipe(
                Effect.map(Option.some),
                // "Optional JWT: works without, personalised with" (spec): a token that does not authenticate, a banned
                // user's included, is served as anonymous. Public reads (threads, feeds) must not depend on credentials;
                // the ban is enforced on every route that needs the user (403 USER_BANNED there).
                Effect.orElseSucceed(() => Option.none<AuthenticatedSession>())
              )
        return yield* Effect.provideService(effect, OptionalSession, session)
      })
    )
  })
)

export const AuthLive = Layer.mergeAll(AuthenticationLive, AdminAuthenticationLive, OptionalAuthenticationLive)
