import { Config, Context, Effect, Layer } from "effect"
import * as NodePath from "node:path"

/** The four services one process can run (`--services`). */
export const ServiceNames = ["client", "exchange", "search", "indexer"] as const
export type ServiceName = (typeof ServiceNames)[number]

/**
 * Settings shared by the whole process. Adapters (database, chain, search) read their own keys in `layers/`;
 * this service holds what the HTTP side and the process life cycle need. Every key is documented in README.md.
 */
export interface AppSettings {
  readonly dataDir: string
  readonly ports: Readonly<Record<ServiceName, number>>
  /** Listen address; `0.0.0.0` by default so containers and VMs can reach the services. */
  readonly host: string
  /** Honour `X-Forwarded-For` for the caller's IP only behind a proxy we trust. */
  readonly trustProxy: boolean
  /** Proxies in front of the app that append to `X-Forwarded-For` (src/platform/system/CallerIp.ts). */
  readonly trustedProxyHops: number
  /** CIDR ranges of those proxies; when set they decide instead of the hop count. */
  readonly trustedProxies: ReadonlyArray<string>
  /** Largest accepted request body, in bytes (larger → 413 PAYLOAD_TOO_LARGE). */
  readonly maxBodyBytes: number
  /** Per-request access log (costs ~40 % throughput on this machine; off by default). */
  readonly accessLog: boolean
  /**
   * How long a health route reuses its last database probe. Probes are single-flight, so a load balancer (or a
   * flood) polling health costs at most one `SELECT 1` per interval. 0 probes on every request.
   */
  readonly healthProbeTtlMs: number
}

// Config.Port rejects 0; 0 (an ephemeral port) is useful for tests and side-by-side runs.
const port = (name: string, fallback: number) => Config.Int(name).pipe(Config.withDefault(fallback))

export const appSettingsConfig: Config.Config<AppSettings> = Config.all({
  dataDir: Config.String("DATA_DIR").pipe(
    Config.withDefault("./data"),
    Config.map((d) => NodePath.resolve(d))
  ),
  ports: Config.all({
    client: port("CLIENT_PORT", 3000),
    exchange: port("EXCHANGE_PORT", 3001),
    search: port("SEARCH_PORT", 3002),
    indexer: port("INDEXER_PORT", 3003)
  }),
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0")),
  trustProxy: Config.Boolean("TRUST_PROXY").pipe(Config.withDefault(false)),
  trustedProxyHops: Config.Int("TRUSTED_PROXY_HOPS").pipe(Config.withDefault(1)),
  trustedProxies: Config.String("TRUSTED_PROXIES").pipe(
    Config.withDefault(""),
    Config.map((s) =>
      s
        .split(",")
        .map((c) => c.trim())
        .filter((c) => c !== "")
    )
  ),
  maxBodyBytes: Config.Int("MAX_BODY_BYTES").pipe(Config.withDefault(1_048_576)),
  accessLog: Config.Boolean("ACCESS_LOG").pipe(Config.withDefault(false)),
  healthProbeTtlMs: Config.Int("HEALTH_PROBE_TTL_MS").pipe(Config.withDefault(1000))
})

export class AppConfig extends Context.Service<AppConfig, AppSettings>()("app/Config") {
  static readonly layer = Layer.effect(AppConfig, Effect.map(appSettingsConfig, AppConfig.of))
  static readonly layerWith = (settings: AppSettings) => Layer.succeed(AppConfig, settings)
}
