import { Clock, Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { createRemoteJWKSet, errors as JoseErrors, jwtVerify } from "jose"
import { type Forbidden, ServiceUnavailable, Unauthorized } from "../../../platform/ApiError.ts"
import { UsersRepo } from "../users/UsersRepo.ts"
import type { IssuedSession } from "./Session.ts"
import { SessionConfig } from "./SessionConfig.ts"
import { Sessions, userBanned } from "./Sessions.ts"

// Only asymmetric algorithms: the keys come from a public JWKS, and an HMAC "key" from there would be public.
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"]

const classify = (error: unknown): Unauthorized | ServiceUnavailable => {
  if (error instanceof JoseErrors.JWTExpired) {
    return new Unauthorized({ code: "ID_TOKEN_EXPIRED", message: "The ID token has expired; sign in again" })
  }
  // The key set could not be fetched or read (timeout, network, non-200, not a JWKS): not the token's fault.
  const unreachable =
    !(error instanceof JoseErrors.JOSEError) ||
    error instanceof JoseErrors.JWKSTimeout ||
    error instanceof JoseErrors.JWKSInvalid ||
    error.code === "ERR_JOSE_GENERIC"
  if (unreachable) {
    return new ServiceUnavailable({
      code: "IDP_UNAVAILABLE",
      message: "The identity provider's keys cannot be fetched"
    })
  }
  return new Unauthorized({
    code: "INVALID_ID_TOKEN",
    message: `The ID token is not valid: ${error.message}`,
    details: { reason: error.code }
  })
}

/**
 * Identity-provider login: verifies the ID token with `jose` against the configured issuer's JWKS (fetched on
 * demand, cached by jose, refetched on an unknown `kid`), checks issuer, audience and expiry, then finds or creates
 * the user by the token's `sub` (its DID) and issues a session.
 */
export class IdpSignIn extends Context.Service<
  IdpSignIn,
  {
    readonly signIn: (idToken: string) => Effect.Effect<IssuedSession, Unauthorized | Forbidden | ServiceUnavailable>
  }
>()("app/sessions/IdpSignIn") {
  static readonly layer = Layer.effect(
    IdpSignIn,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { idp } = yield* SessionConfig
      const users = yield* UsersRepo
      const sessions = yield* Sessions
      const jwks = Option.map(idp, (settings) => ({
        settings,
        keys: createRemoteJWKSet(new URL(settings.jwksUrl), { timeoutDuration: 5_000, cooldownDuration: 30_000 })
      }))

      const signIn = Effect.fn("IdpSignIn.signIn")(function* (idToken: string) {
        if (Option.isNone(jwks)) {
          return yield* new ServiceUnavailable({
            code: "IDP_NOT_CONFIGURED",
            message: "Identity-provider login is not configured on this server (IDP_ISSUER, IDP_JWKS_URL, IDP_AUDIENCE)"
          })
        }
        const { keys, settings } = jwks.value
        const now = new Date(yield* Clock.currentTimeMillis)
        const { payload } = yield* Effect.tryPromise({
          try: () =>
            jwtVerify(idToken, keys, {
              issuer: settings.issuer,
              audience: settings.audience,
              algorithms: ALGORITHMS,
              currentDate: now,
              requiredClaims: ["sub", "exp"]
            }),
          catch: classify
        })
        const did = payload.sub!
        // `wallet:` DIDs are ours (wallet sign-in): an identity provider must never be able to claim one.
        if (did.length > 256 || did.startsWith("wallet:")) {
          return yield* new Unauthorized({
            code: "INVALID_ID_TOKEN",
            message: "The token's sub is not an acceptable DID"
          })
        }
        return yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const user = yield* users.upsertIdpUser(did)
              if (user.bannedAt !== null) return yield* userBanned()
              return yield* sessions.issue(user, "idp")
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
      })

      return IdpSignIn.of({ signIn })
    })
  )
}
