import { Config, Context, Effect, Layer, type Option, type Redacted } from "effect"

export interface PushSettings {
  /** VAPID key pair (base64url, as `web-push generate-vapid-keys` prints); generated once and kept in app_settings when absent. */
  readonly vapidPublicKey: Option.Option<string>
  readonly vapidPrivateKey: Option.Option<Redacted.Redacted>
  /** VAPID `sub` claim: a mailto: or https: URL push services can reach the operator at. */
  readonly vapidSubject: string
  /** How long a push service keeps an undelivered message (TTL header), in seconds. */
  readonly ttlSeconds: number
  /** Attempts per (notification, subscription) before a job that keeps failing with 5xx/network errors is dropped. */
  readonly maxAttempts: number
  /** Backoff after the n-th failed attempt: retryBaseMs × 2^(n-1), at most retryMaxMs. */
  readonly retryBaseMs: number
  readonly retryMaxMs: number
  /** The worker looks for due jobs this often (and at once when a notification commits, through LISTEN/NOTIFY). */
  readonly pollMs: number
  /** Deliveries in flight per worker. */
  readonly concurrency: number
  /** Timeout of one request to a push service. */
  readonly requestTimeoutMs: number
  /** A PEM file of extra CA certificates trusted for push services (besides Node's roots): a private push service, tests. */
  readonly caFile: Option.Option<string>
  /**
   * Turns off both SSRF checks of push endpoints (docs/SECURITY.md threat 6): the subscribe-time refusal of
   * localhost and private IP literals, and the delivery-time refusal of hosts that resolve to blocked addresses.
   * For development and tests against a push service on this machine; never in production.
   */
  readonly allowPrivateHosts: boolean
}

const int = (name: string, fallback: number) => Config.Int(name).pipe(Config.withDefault(fallback))

export const pushSettingsConfig: Config.Config<PushSettings> = Config.all({
  vapidPublicKey: Config.option(Config.String("VAPID_PUBLIC_KEY")),
  vapidPrivateKey: Config.option(Config.Redacted("VAPID_PRIVATE_KEY")),
  vapidSubject: Config.String("VAPID_SUBJECT").pipe(Config.withDefault("mailto:admin@localhost")),
  ttlSeconds: int("PUSH_TTL_SECONDS", 86_400),
  maxAttempts: int("PUSH_MAX_ATTEMPTS", 8),
  retryBaseMs: int("PUSH_RETRY_BASE_MS", 2_000),
  retryMaxMs: int("PUSH_RETRY_MAX_MS", 3_600_000),
  pollMs: int("PUSH_POLL_MS", 1_000),
  concurrency: int("PUSH_CONCURRENCY", 8),
  requestTimeoutMs: int("PUSH_TIMEOUT_MS", 10_000),
  caFile: Config.option(Config.String("PUSH_CA_FILE")),
  allowPrivateHosts: Config.Boolean("PUSH_ALLOW_PRIVATE_HOSTS").pipe(Config.withDefault(false))
})

export class PushConfig extends Context.Service<PushConfig, PushSettings>()("app/push/PushConfig") {
  static readonly layer = Layer.effect(PushConfig, Effect.map(pushSettingsConfig, PushConfig.of))
}

export const backoffMs = (settings: Pick<PushSettings, "retryBaseMs" | "retryMaxMs">, attempts: number) =>
  Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.max(0, attempts - 1))
