import { Config, Option, Redacted } from "effect"

/** A limit: at most `limit` requests per `windowSeconds` (fixed window starting with the first request). */
export interface RateLimitRule {
  readonly limit: number
  readonly windowSeconds: number
}

export interface RateLimitSettings {
  /** Where counters live. `auto`: Redis when REDIS_URL is set, else Postgres. */
  readonly store: "auto" | "postgres" | "redis" | "memory"
  readonly redisUrl: Option.Option<Redacted.Redacted>
  /** Off: every request is allowed and no headers are written (local load tests). */
  readonly enabled: boolean
  /** Per client IP on the exchange API's public routes (pools, tokens, stats, positions, status). */
  readonly exchangePublic: RateLimitRule
}

export const rateLimitSettingsConfig: Config.Config<RateLimitSettings> = Config.all({
  store: Config.Literals(["auto", "postgres", "redis", "memory"], "RATE_LIMIT_STORE").pipe(Config.withDefault("auto" as const)),
  redisUrl: Config.option(Config.Redacted("REDIS_URL")),
  enabled: Config.Boolean("RATE_LIMIT_ENABLED").pipe(Config.withDefault(true)),
  exchangePublic: Config.all({
    limit: Config.Int("RATE_LIMIT_EXCHANGE_PUBLIC_LIMIT").pipe(Config.withDefault(600)),
    windowSeconds: Config.Int("RATE_LIMIT_EXCHANGE_PUBLIC_WINDOW_SECONDS").pipe(Config.withDefault(60))
  })
})

export const defaultRateLimitSettings: RateLimitSettings = {
  store: "memory",
  redisUrl: Option.none(),
  enabled: true,
  exchangePublic: { limit: 600, windowSeconds: 60 }
}

/** The store `auto` resolves to. */
export const resolvedStore = (s: RateLimitSettings): "postgres" | "redis" | "memory" =>
  s.store === "auto" ? (Option.isSome(s.redisUrl) ? "redis" : "postgres") : s.store
