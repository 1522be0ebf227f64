import { Context, Data, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { errors as JoseErrors, jwtVerify, SignJWT } from "jose"
import { randomBytes } from "node:crypto"
import { SessionConfig } from "./SessionConfig.ts"

export class TokenRejected extends Data.TaggedError("TokenRejected")<{
  readonly reason: "invalid" | "expired"
  readonly message: string
}> {}

export interface TokenClaims {
  readonly userId: string
  readonly sessionId: string
}

const ISSUER = "fire-api"
const AUDIENCE = "fire-api/session"

/**
 * Session JWTs (HS256, `jose`): `sub` = user id, `jti` = session id, `exp` = session expiry.
 * The key is `JWT_SECRET`, or else a random one generated on the first start and stored in `app_settings`, so every
 * API process sharing the database signs and verifies with the same key and sessions survive restarts.
 */
export class SessionTokens extends Context.Service<SessionTokens, {
  readonly sign: (claims: TokenClaims & { readonly issuedAt: Date; readonly expiresAt: Date }) => Effect.Effect<string>
  readonly verify: (token: string, now: Date) => Effect.Effect<TokenClaims, TokenRejected>
}>()("app/sessions/SessionTokens") {
  static readonly layer = Layer.effect(
    SessionTokens,
    Effect.gen(function*() {
      const config = yield* SessionConfig
      const secret = Option.isSome(config.jwtSecret)
        ? Redacted.value(config.jwtSecret.value)
        : yield* storedSecret
      const key = new TextEncoder().encode(secret)
      return SessionTokens.of({
        sign: ({ expiresAt, issuedAt, sessionId, userId }) =>
          Effect.promise(() =>
            new SignJWT({})
              .setProtectedHeader({ alg: "HS256", typ: "JWT" })
              .setIssuer(ISSUER)
              .setAudience(AUDIENCE)
              .setSubject(userId)
              .setJti(sessionId)
              .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
              .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
              .sign(key)
          ),
        verify: (token, now) =>
          Effect.tryPromise({
            try: () =>
              jwtVerify(token, key, {
                algorithms: ["HS256"],
                issuer: ISSUER,
                audience: AUDIENCE,
                currentDate: now,
                requiredClaims: ["sub", "jti", "exp"]
              }),
            catch: (error) =>
              error instanceof JoseErrors.JWTExpired
                ? new TokenRejected({ reason: "expired", message: "The session token has expired" })
                : new TokenRejected({ reason: "invalid", message: "The session token is not valid" })
          }).pipe(Effect.map(({ payload }) => ({ userId: payload.sub!, sessionId: payload.jti! })))
      })
    })
  )
}

/** Reads the generated key, creating it first if no process has yet; concurrent first starts agree on one key. */
const storedSecret = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const candidate = randomBytes(32).toString("base64url")
  yield* sql`
    INSERT INTO app_settings (name, value) VALUES ('jwt_secret', ${JSON.stringify(candidate)}::jsonb)
    ON CONFLICT (name) DO NOTHING`
  const rows = yield* sql<{ value: unknown }>`SELECT value FROM app_settings WHERE name = 'jwt_secret'`
  const value = rows[0]?.value
  if (typeof value !== "string" || value.length < 32) return yield* Effect.die(new Error("app_settings.jwt_secret is not a key"))
  return value
}).pipe(Effect.orDie)
