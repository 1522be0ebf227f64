import { Clock, Duration, Effect, Option } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentSession, OptionalSession } from "../auth/Authentication.ts"
import { ClientApi } from "../../ClientApi.ts"
import { toOwnProfile, toSessionUser } from "../users/User.ts"
import { CurrentSessionView, type IssuedSession, SessionToken, WalletNonce, WalletStateRecorded } from "./Session.ts"
import { SessionConfig, sessionCookieName } from "./SessionConfig.ts"
import { Sessions } from "./Sessions.ts"
import { SessionsRepo } from "./SessionsRepo.ts"
import { IdpSignIn } from "./IdpSignIn.ts"
import { WalletSignIn } from "./WalletSignIn.ts"

export const SessionsHttp = HttpApiBuilder.group(
  ClientApi,
  "sessions",
  Effect.fn(function* (handlers) {
    const config = yield* SessionConfig
    const sessions = yield* Sessions
    const wallet = yield* WalletSignIn
    const idp = yield* IdpSignIn
    const repo = yield* SessionsRepo
    const cookieOptions = { secure: config.cookieSecure, httpOnly: true, sameSite: "lax", path: "/" } as const
    const cookieName = sessionCookieName(config.cookieSecure)

    /** The response body of a new session, with the cookie set on the way out. */
    const respond = (issued: IssuedSession) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const maxAge = Duration.millis(Math.max(0, issued.expiresAt.getTime() - now))
        yield* HttpEffect.appendPreResponseHandler((_request, response) =>
          Effect.orDie(HttpServerResponse.setCookie(response, cookieName, issued.token, { ...cookieOptions, maxAge }))
        )
        return new SessionToken({
          token: issued.token,
          expiresAt: issued.expiresAt.toISOString(),
          user: toSessionUser(issued.user)
        })
      })

    return handlers
      .handle("getWalletNonce", ({ query }) =>
        Effect.map(
          wallet.nonce(query.address),
          ({ expiresAt, nonce }) => new WalletNonce({ nonce, expiresAt: expiresAt.toISOString() })
        )
      )
      .handle("verifyWalletSignature", ({ payload }) => Effect.flatMap(wallet.verify(payload), respond))
      .handle("createSession", ({ payload }) => Effect.flatMap(idp.signIn(payload.idToken), respond))
      .handle("getCurrentSession", () =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          return new CurrentSessionView({
            sessionId: session.sessionId,
            method: session.method,
            createdAt: session.createdAt.toISOString(),
            expiresAt: session.expiresAt.toISOString(),
            user: toOwnProfile(session.user)
          })
        })
      )
      .handle("refreshSession", () =>
        CurrentSession.use((session) => Effect.flatMap(sessions.refresh(session), respond))
      )
      .handle("logout", () =>
        Effect.gen(function* () {
          yield* sessions.logout(yield* CurrentSession)
          yield* HttpEffect.appendPreResponseHandler((_request, response) =>
            Effect.orDie(HttpServerResponse.expireCookie(response, cookieName, cookieOptions))
          )
        })
      )
      .handle("reportWalletState", ({ payload }) =>
        Effect.gen(function* () {
          const session = yield* OptionalSession
          const userId = Option.match(session, { onNone: () => null, onSome: (s) => s.user.id })
          yield* repo.recordWalletState({
            sessionId: Option.match(session, { onNone: () => null, onSome: (s) => s.sessionId }),
            userId,
            status: payload.status,
            address: payload.address ?? null,
            chainId: payload.chainId ?? null,
            connector: payload.connector ?? null
          })
          return new WalletStateRecorded({ recorded: true, userId })
        })
      )
  })
)
