import { Config, Option, type Redacted } from "effect"
import { fireEnvConfig } from "../system/FireEnv.ts"

/** A limit: at most `limit` requests per `windowSeconds` (fixed window starting with the first request). */
export interface RateLimitRule {
  readonly limit: number
  readonly windowSeconds: number
  /**
   * At most this many at once, refilled at `limit / windowSeconds` per second (a token bucket per caller and
   * process: BurstBuckets.ts); none when absent.
   */
  readonly burst?: number | undefined
}

/** How far a process may count on its own before the shared store hears of it. */
export interface LocalCounting {
  /**
   * At most this many hits per counter are decided here and not yet acknowledged by the store; 0: every decision
   * is a round trip. Local decisions also stop `batch` hits before the limit (the store decides the end of a window).
   */
  readonly batch: number
  /** Local hits are sent after at most this long (or at once when half a batch is waiting). */
  readonly flushMs: number
}

export interface RateLimitSettings {
  /** Where counters live. `auto`: Redis when REDIS_URL is set, else Postgres. */
  readonly store: "auto" | "postgres" | "redis" | "memory"
  readonly redisUrl: Option.Option<Redacted.Redacted>
  /** Off: every request is allowed and no headers are written (local load tests). */
  readonly enabled: boolean
  /** Per client IP on the exchange API's public routes (pools, tokens, stats, positions, status). */
  readonly exchangePublic: RateLimitRule
  /**
   * Per client IP on every client API route but the probes, health and `/v1/ip` (RATE_LIMIT_CLIENT_IP_LIMIT per
   * RATE_LIMIT_CLIENT_IP_WINDOW_SECONDS, 1,200 per 60 s: a browsing user makes a few dozen a minute; a NAT of many),
   * with RATE_LIMIT_CLIENT_IP_BURST (`burstConfig`: 200 in production).
   */
  readonly clientIp: RateLimitRule
  /** RATE_LIMIT_LOCAL_BATCH (default 100; 0: a round trip per request) and RATE_LIMIT_FLUSH_MS (default 100). */
  readonly local: LocalCounting
}

/**
 * The default burst of a per-IP rule: ten seconds of its average rate, at least 10 (120 per 60 s: 20; 1,200: 200;
 * 300: 50). On by default in production only (FIRE_ENV, src/platform/system/FireEnv.ts): development and the test
 * suites call from one address far faster than any user.
 */
export const defaultBurst = (rule: RateLimitRule) =>
  Math.min(rule.limit, Math.max(10, Math.ceil((rule.limit * 10) / rule.windowSeconds)))

/**
 * A rule's burst from `<name>` (an integer ≥ 1; `0` turns it off), else `defaultBurst` in production and none in
 * development.
 */
export const burstConfig = (name: string) => (rule: RateLimitRule) =>
  Config.all({
    given: Config.option(Config.Int(name)),
    env: fireEnvConfig
  }).pipe(
    Config.map(({ env, given }): RateLimitRule => {
      const burst = Option.getOrElse(given, () => (env === "production" ? defaultBurst(rule) : 0))
      return burst > 0 ? { ...rule, burst } : rule
    })
  )

export const rateLimitSettingsConfig: Config.Config<RateLimitSettings> = Config.all({
  store: Config.Literals(["auto", "postgres", "redis", "memory"], "RATE_LIMIT_STORE").pipe(
    Config.withDefault("auto" as const)
  ),
  redisUrl: Config.option(Config.Redacted("REDIS_URL")),
  enabled: Config.Boolean("RATE_LIMIT_ENABLED").pipe(Config.withDefault(true)),
  exchangePublic: Config.all({
    limit: Config.Int("RATE_LIMIT_EXCHANGE_PUBLIC_LIMIT").pipe(Config.withDefault(600)),
    windowSeconds: Config.Int("RATE_LIMIT_EXCHANGE_PUBLIC_WINDOW_SECONDS").pipe(Config.withDefault(60))
  }),
  clientIp: Config.all({
    limit: Config.Int("RATE_LIMIT_CLIENT_IP_LIMIT").pipe(Config.withDefault(1200)),
    windowSeconds: Config.Int("RATE_LIMIT_CLIENT_IP_WINDOW_SECONDS").pipe(Config.withDefault(60))
  }).pipe(Config.flatMap(burstConfig("RATE_LIMIT_CLIENT_IP_BURST"))),
  local: Config.all({
    batch: Config.Int("RATE_LIMIT_LOCAL_BATCH").pipe(Config.withDefault(100)),
    flushMs: Config.Int("RATE_LIMIT_FLUSH_MS").pipe(Config.withDefault(100))
  })
})

export const defaultLocalCounting: LocalCounting = { batch: 100, flushMs: 100 }

export const defaultRateLimitSettings: RateLimitSettings = {
  store: "memory",
  redisUrl: Option.none(),
  enabled: true,
  exchangePublic: { limit: 600, windowSeconds: 60 },
  clientIp: { limit: 1200, windowSeconds: 60 },
  local: defaultLocalCounting
}

/** The store `auto` resolves to. */
export const resolvedStore = (s: RateLimitSettings): "postgres" | "redis" | "memory" =>
  s.store === "auto" ? (Option.isSome(s.redisUrl) ? "redis" : "postgres") : s.store
