import { Context, Data, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { errors as JoseErrors, jwtVerify, SignJWT } from "jose"
import { randomBytes, webcrypto } from "node:crypto"
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
/** Tokens whose signature this process has verified (see `verify`). */
const VERIFIED_MAX = 20_000

/**
 * Session JWTs (HS256, `jose`): `sub` = user id, `jti` = session id, `exp` = session expiry.
 * The key is `JWT_SECRET`, or else a random one generated on the first start and stored in `app_settings`, so every
 * API process sharing the database signs and verifies with the same key and sessions survive restarts.
 *
 * Verification is memoised per token string: a token's signature, issuer and audience never change, so once checked
 * only its expiry is compared again. jose checks HMACs through WebCrypto, whose per-call cost dominated an
 * authenticated request (bench:auth); the memo is bounded and holds only tokens that verified.
 */
export class SessionTokens extends Context.Service<
  SessionTokens,
  {
    readonly sign: (
      claims: TokenClaims & { readonly issuedAt: Date; readonly expiresAt: Date }
    ) => Effect.Effect<string>
    readonly verify: (token: string, now: Date) => Effect.Effect<TokenClaims, TokenRejected>
  }
>()("app/sessions/SessionTokens") {
  static readonly layer = Layer.effect(
    SessionTokens,
    Effect.gen(function* () {
      const config = yield* SessionConfig
      const secret = Option.isSome(config.jwtSecret) ? Redacted.value(config.jwtSecret.value) : yield* storedSecret
      const key = yield* hmacKey(secret)
      // Rotation (docs/SECURITY.md): tokens signed with JWT_SECRET_PREVIOUS still verify; new ones use JWT_SECRET.
      const previousSecret = config.jwtSecretPrevious ?? Option.none()
      const previous = Option.isSome(previousSecret)
        ? Option.some(yield* hmacKey(Redacted.value(previousSecret.value)))
        : Option.none<webcrypto.CryptoKey>()
      const verifyWith = (token: string, now: Date) => (k: webcrypto.CryptoKey) =>
        jwtVerify(token, k, {
          algorithms: ["HS256"],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: now,
          requiredClaims: ["sub", "jti", "exp"]
        })
      const verified = new Map<string, TokenClaims & { readonly expiresAtMs: number }>()
      const expired = () => new TokenRejected({ reason: "expired", message: "The session token has expired" })
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
        verify: (token, now) => {
          const known = verified.get(token)
          if (known !== undefined) {
            return known.expiresAtMs <= now.getTime()
              ? Effect.fail(expired())
              : Effect.succeed({ userId: known.userId, sessionId: known.sessionId })
          }
          return Effect.tryPromise({
            try: () =>
              verifyWith(
                token,
                now
              )(key).catch((error) =>
                Option.isSome(previous) && error instanceof JoseErrors.JWSSignatureVerificationFailed
                  ? verifyWith(token, now)(previous.value)
                  : Promise.reject(error)
              ),
            catch: (error) =>
              error instanceof JoseErrors.JWTExpired
                ? expired()
                : new TokenRejected({ reason: "invalid", message: "The session token is not valid" })
          }).pipe(
            Effect.map(({ payload }) => {
              const claims = { userId: payload.sub!, sessionId: payload.jti! }
              if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!)
              verified.set(token, { ...claims, expiresAtMs: payload.exp! * 1000 })
              return claims
            })
          )
        }
      })
    })
  )
}

/**
 * The HS256 key as a WebCrypto key, imported once: given the raw bytes, jose imports them on every sign and verify,
 * which was a third of its cost per token (bench:auth's sign-in profile, docs/BENCHMARKS.md).
 */
const hmacKey = (secret: string) =>
  Effect.promise(() =>
    webcrypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify"
    ])
  )

/** Reads the generated key, creating it first if no process has yet; concurrent first starts agree on one key. */
const storedSecret = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const candidate = randomBytes(32).toString("base64url")
  yield* sql`
    INSERT INTO app_settings (name, value) VALUES ('jwt_secret', ${JSON.stringify(candidate)}::jsonb)
    ON CONFLICT (name) DO NOTHING`
  const rows = yield* sql<{ value: unknown }>`SELECT value FROM app_settings WHERE name = 'jwt_secret'`
  const value = rows[0]?.value
  if (typeof value !== "string" || value.length < 32)
    return yield* Effect.die(new Error("app_settings.jwt_secret is not a key"))
  return value
}).pipe(Effect.orDie)
