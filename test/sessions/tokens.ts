import { Duration, Effect, Layer, Option } from "effect"
import { SessionConfig, type SessionSettings } from "../../src/client-api/accounts/sessions/SessionConfig.ts"
import { SessionTokens } from "../../src/client-api/accounts/sessions/SessionTokens.ts"

/**
 * Session plumbing below HTTP, shared by the token, rotation and revocation tests: settings as a process would read
 * them (no JWT_SECRET unless given: the key is then generated and kept in app_settings), and one process's token
 * service over the test database.
 */
export const sessionSettings = (overrides: Partial<SessionSettings> = {}): SessionSettings => ({
  jwtSecret: Option.none(),
  jwtSecretPrevious: Option.none(),
  jwtTtl: Duration.days(7),
  cookieSecure: true,
  siweDomains: [],
  siweChainIds: [],
  idp: Option.none(),
  sessionCacheMs: 1000,
  adminWallets: [],
  ...overrides
})

/** A process's token service with `settings`; each run builds a new one, as a new process would. */
export const tokenProcess = (settings: SessionSettings = sessionSettings()) =>
  SessionTokens.useSync((tokens) => tokens).pipe(
    Effect.provide(SessionTokens.layer.pipe(Layer.provide(SessionConfig.layerWith(settings))))
  )

/** A token for a new user and session, valid for `ttlMs` after `now`. */
export const signNew = (tokens: SessionTokens["Service"], now = new Date(), ttlMs = 60_000) =>
  tokens.sign({
    userId: crypto.randomUUID(),
    sessionId: crypto.randomUUID(),
    issuedAt: now,
    expiresAt: new Date(now.getTime() + ttlMs)
  })
