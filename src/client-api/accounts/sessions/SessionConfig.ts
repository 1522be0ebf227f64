import { Config, ConfigProvider, Context, Duration, Effect, Layer, Option, Redacted } from "effect"
import { getAddress, isAddress } from "viem"
import { fireEnvConfig } from "../../../platform/system/FireEnv.ts"

/** Identity-provider login: the ID token's issuer, where its signing keys are published, and our client id. */
export interface IdpSettings {
  readonly issuer: string
  readonly jwksUrl: string
  readonly audience: string
}

/** Settings of sessions, sign-in and authentication. Every key is documented in README.md. */
export interface SessionSettings {
  /** HS256 key of the session JWTs; when absent, one is generated on first start and kept in `app_settings`. */
  readonly jwtSecret: Option.Option<Redacted.Redacted<string>>
  /**
   * Key rotation: the previous JWT_SECRET, still accepted when verifying (never used to sign), so sessions issued
   * before a rotation stay valid until they expire or are refreshed. Optional so that hand-built settings omit it.
   */
  readonly jwtSecretPrevious?: Option.Option<Redacted.Redacted<string>>
  readonly jwtTtl: Duration.Duration
  /** `Secure` on the session cookie; only a plain-http development setup turns it off. */
  readonly cookieSecure: boolean
  /** Accepted SIWE domains (`host[:port]`, lower-case); empty accepts any. */
  readonly siweDomains: ReadonlyArray<string>
  /** Accepted SIWE `Chain ID`s; empty accepts any. */
  readonly siweChainIds: ReadonlyArray<number>
  /**
   * SIWE_REQUIRE_COMPLETE (default: on in production): a message must carry the domain line, a URI on one of
   * SIWE_DOMAINS and a Chain ID (src/client-api/accounts/sessions/SiwePolicy.ts). Optional so that hand-built settings omit it.
   */
  readonly siweRequireComplete?: boolean
  /**
   * SESSION_MAX_LIFETIME (default 30 days): a session and the sessions refreshed from it end this long after the
   * sign-in, however often they are refreshed. Optional so that hand-built settings omit it.
   */
  readonly sessionMaxLifetime?: Duration.Duration
  readonly idp: Option.Option<IdpSettings>
  /** How long an authenticated request may reuse a session lookup (revocation, ban, admin flag), 0–1000 ms. */
  readonly sessionCacheMs: number
  /** Wallets made admins when they sign in (checksummed). */
  readonly adminWallets: ReadonlyArray<string>
}

/**
 * Name of the httpOnly cookie that carries the session JWT. With COOKIE_SECURE (the default; production refuses
 * anything else) it has the `__Host-` prefix: browsers then accept it only with `Secure`, `Path=/` and no `Domain`,
 * so a sibling subdomain cannot plant or overwrite it (a planted session signs the victim in as the attacker).
 * Browsers refuse a `__Host-` cookie without `Secure`, so COOKIE_SECURE=false (plain-http development) uses the
 * bare name. The spec leaves the name open. docs/SECURITY.md, "Cross-site requests".
 */
export const SESSION_COOKIE = "__Host-fire_session"
/** The cookie's name under COOKIE_SECURE=false. */
export const SESSION_COOKIE_INSECURE = "fire_session"

/** The session cookie's name under a COOKIE_SECURE setting: the only name the session middleware reads. */
export const sessionCookieName = (cookieSecure: boolean) => (cookieSecure ? SESSION_COOKIE : SESSION_COOKIE_INSECURE)

export const DEFAULT_SESSION_MAX_LIFETIME = Duration.days(30)

const list = (name: string) =>
  Config.String(name).pipe(
    Config.withDefault(""),
    Config.map((s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter((x) => x !== "")
    )
  )

const invalid = (name: string, why: string) =>
  Config.fail(new ConfigProvider.SourceError({ message: `${name}: ${why}` }))

export const sessionSettingsConfig: Config.Config<SessionSettings> = Config.all({
  jwtSecret: Config.option(Config.Redacted("JWT_SECRET")).pipe(
    Config.flatMap((secret) =>
      Option.isSome(secret) && Redacted.value(secret.value).length < 32
        ? invalid("JWT_SECRET", "use at least 32 characters")
        : Config.succeed(secret)
    )
  ),
  jwtSecretPrevious: Config.option(Config.Redacted("JWT_SECRET_PREVIOUS")).pipe(
    Config.flatMap((secret) =>
      Option.isSome(secret) && Redacted.value(secret.value).length < 32
        ? invalid("JWT_SECRET_PREVIOUS", "use at least 32 characters")
        : Config.succeed(secret)
    )
  ),
  jwtTtl: Config.Duration("JWT_TTL").pipe(Config.withDefault(Duration.days(7))),
  cookieSecure: Config.Boolean("COOKIE_SECURE").pipe(Config.withDefault(true)),
  siweDomains: list("SIWE_DOMAINS").pipe(Config.map((domains) => domains.map((d) => d.toLowerCase()))),
  siweRequireComplete: Config.all({
    given: Config.option(Config.Boolean("SIWE_REQUIRE_COMPLETE")),
    env: fireEnvConfig
  }).pipe(Config.map(({ env, given }) => Option.getOrElse(given, () => env === "production"))),
  sessionMaxLifetime: Config.Duration("SESSION_MAX_LIFETIME").pipe(Config.withDefault(DEFAULT_SESSION_MAX_LIFETIME)),
  siweChainIds: list("SIWE_CHAIN_IDS").pipe(
    Config.flatMap((ids) =>
      ids.every((id) => /^[1-9][0-9]{0,15}$/.test(id))
        ? Config.succeed(ids.map(Number))
        : invalid("SIWE_CHAIN_IDS", "a comma-separated list of positive integers")
    )
  ),
  idp: Config.all({
    issuer: Config.option(Config.String("IDP_ISSUER")),
    jwksUrl: Config.option(Config.String("IDP_JWKS_URL")),
    audience: Config.option(Config.String("IDP_AUDIENCE"))
  }).pipe(
    Config.flatMap(({ audience, issuer, jwksUrl }) => {
      const set = [issuer, jwksUrl, audience].filter(Option.isSome).length
      if (set === 0) return Config.succeed(Option.none<IdpSettings>())
      if (set < 3) return invalid("IDP_ISSUER/IDP_JWKS_URL/IDP_AUDIENCE", "set all three or none")
      if (URL.parse(Option.getOrThrow(jwksUrl)) === null) return invalid("IDP_JWKS_URL", "not a URL")
      return Config.succeed(
        Option.some({
          issuer: Option.getOrThrow(issuer),
          jwksUrl: Option.getOrThrow(jwksUrl),
          audience: Option.getOrThrow(audience)
        })
      )
    })
  ),
  sessionCacheMs: Config.Int("SESSION_CACHE_MS").pipe(
    Config.withDefault(1000),
    Config.flatMap((ms) => (ms >= 0 && ms <= 1000 ? Config.succeed(ms) : invalid("SESSION_CACHE_MS", "0 to 1000")))
  ),
  adminWallets: list("ADMIN_WALLETS").pipe(
    Config.flatMap((wallets) =>
      wallets.every((w) => isAddress(w, { strict: false }))
        ? Config.succeed(wallets.map((w) => getAddress(w)))
        : invalid("ADMIN_WALLETS", "a comma-separated list of addresses")
    )
  )
})

export class SessionConfig extends Context.Service<SessionConfig, SessionSettings>()("app/sessions/SessionConfig") {
  static readonly layer = Layer.effect(SessionConfig, Effect.map(sessionSettingsConfig, SessionConfig.of))
  static readonly layerWith = (settings: SessionSettings) => Layer.succeed(SessionConfig, settings)
}
