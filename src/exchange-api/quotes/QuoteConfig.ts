import { Config, Context, Effect, Layer, Option } from "effect"

/** A partner key given in configuration: `partner:key`. */
export interface ConfiguredKey {
  readonly partner: string
  readonly key: string
}

export interface QuoteSettings {
  /** Header carrying the partner key (lowercase). Never `authorization` (reserved for the client API's JWTs). */
  readonly apiKeyHeader: string
  /** QUOTE_API_KEYS: `partner:key,partner:key`. Stored hashed at start; config keys no longer listed are revoked. */
  readonly apiKeys: ReadonlyArray<ConfiguredKey>
  /** QUOTE_ALLOWLIST: `chainId=addr|addr;chainId=addr`. Merged with the admin rows of `quote_allowlist`. */
  readonly allowlist: ReadonlyMap<number, ReadonlyArray<string>>
  /** Piscina threads; 0 = quote on the main thread (RouteFinder.layerInline). */
  readonly workers: number
  /** Per-quote budget in ms (QUOTE_TIMEOUT), queueing included → 500 QUOTE_TIMEOUT; cancellation: see RouteFinder. */
  readonly timeoutMs: number
  /** Smallest accepted `amount` in base units (AMOUNT_TOO_SMALL below it). */
  readonly minAmount: bigint
  /** Default per-key limit (a key row may override it). */
  readonly rateLimit: { readonly limit: number; readonly windowSeconds: number }
  /** How long the key table is cached in a process (admin changes of another process show up within this). */
  readonly keysRefreshMs: number
  /** Seconds from now until the calldata's deadline (POST may pass its own `deadline`). */
  readonly deadlineSeconds: number
  /**
   * QUOTE_CALLDATA_ENCODER: `viem` (default: workers/ViemCalldata.ts, byte-identical to the SDKs and ~10× cheaper) or
   * `sdk` (the Uniswap SDKs for every quote: the previous path, kept as a switch back and as bench:quotes' baseline).
   */
  readonly calldataEncoder: "viem" | "sdk"
  /**
   * QUOTE_OPEN: with no active key, the quote routes answer without one (development). Off, they fail closed
   * (401 INVALID_API_KEY): revoking the only key must not open them to everyone. Default: on only with the
   * embedded devnet (no RPC_URL).
   */
  readonly openWithoutKeys: boolean
  /** Per client IP while open (QUOTE_OPEN_RATE_LIMIT per QUOTE_OPEN_RATE_LIMIT_WINDOW_SECONDS). */
  readonly openRateLimit: { readonly limit: number; readonly windowSeconds: number }
  /**
   * QUOTE_OP_STACK: whether the served chain pays an L1 data fee (L1DataFee.ts). Unset: the chain's profile
   * (RoutingSettings.ts CHAIN_PROFILES); set it for an OP-stack chain the table does not know.
   */
  readonly opStack: boolean | undefined
}

const parseKeys = (s: string): ReadonlyArray<ConfiguredKey> =>
  s
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => {
      const i = p.indexOf(":")
      return i <= 0 ? { partner: "default", key: p } : { partner: p.slice(0, i), key: p.slice(i + 1) }
    })

const parseAllowlist = (s: string): ReadonlyMap<number, ReadonlyArray<string>> => {
  const out = new Map<number, Array<string>>()
  for (const part of s
    .split(";")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    const [chain, list = ""] = part.split("=")
    const id = Number(chain)
    if (!Number.isInteger(id)) continue
    const addresses = list
      .split(/[|,]/u)
      .map((a) => a.trim().toLowerCase())
      .filter((a) => /^0x[0-9a-f]{40}$/u.test(a))
    out.set(id, [...(out.get(id) ?? []), ...addresses])
  }
  return out
}

export const quoteSettingsConfig: Config.Config<QuoteSettings> = Config.all({
  apiKeyHeader: Config.String("QUOTE_API_KEY_HEADER").pipe(
    Config.withDefault("x-api-key"),
    Config.map((h) => h.toLowerCase())
  ),
  apiKeys: Config.String("QUOTE_API_KEYS").pipe(Config.withDefault(""), Config.map(parseKeys)),
  allowlist: Config.String("QUOTE_ALLOWLIST").pipe(Config.withDefault(""), Config.map(parseAllowlist)),
  workers: Config.Int("QUOTE_WORKERS").pipe(Config.withDefault(2)),
  timeoutMs: Config.Int("QUOTE_TIMEOUT").pipe(Config.withDefault(500)),
  minAmount: Config.String("QUOTE_MIN_AMOUNT").pipe(
    Config.withDefault("1000"),
    Config.map((s) => BigInt(s))
  ),
  rateLimit: Config.all({
    limit: Config.Int("QUOTE_RATE_LIMIT").pipe(Config.withDefault(600)),
    windowSeconds: Config.Int("QUOTE_RATE_LIMIT_WINDOW_SECONDS").pipe(Config.withDefault(60))
  }),
  keysRefreshMs: Config.Int("QUOTE_KEYS_REFRESH_MS").pipe(Config.withDefault(5000)),
  deadlineSeconds: Config.Int("QUOTE_DEADLINE_SECONDS").pipe(Config.withDefault(1800)),
  calldataEncoder: Config.Literals(["viem", "sdk"], "QUOTE_CALLDATA_ENCODER").pipe(Config.withDefault("viem" as const)),
  openWithoutKeys: Config.all({
    open: Config.option(Config.Boolean("QUOTE_OPEN")),
    rpcUrl: Config.option(Config.String("RPC_URL"))
  }).pipe(Config.map(({ open, rpcUrl }) => Option.getOrElse(open, () => Option.isNone(rpcUrl)))),
  openRateLimit: Config.all({
    limit: Config.Int("QUOTE_OPEN_RATE_LIMIT").pipe(Config.withDefault(60)),
    windowSeconds: Config.Int("QUOTE_OPEN_RATE_LIMIT_WINDOW_SECONDS").pipe(Config.withDefault(60))
  }),
  opStack: Config.option(Config.Boolean("QUOTE_OP_STACK")).pipe(Config.map(Option.getOrUndefined))
})

export const defaultQuoteSettings: QuoteSettings = {
  apiKeyHeader: "x-api-key",
  apiKeys: [],
  allowlist: new Map(),
  workers: 2,
  timeoutMs: 500,
  minAmount: 1000n,
  rateLimit: { limit: 600, windowSeconds: 60 },
  keysRefreshMs: 5000,
  deadlineSeconds: 1800,
  calldataEncoder: "viem",
  // The tests' chain is a devnet: as the app's default there.
  openWithoutKeys: true,
  openRateLimit: { limit: 60, windowSeconds: 60 },
  opStack: undefined
}

/** Optional in the context: tests provide it; the app reads QUOTE_* from the environment. */
export class QuoteConfig extends Context.Service<QuoteConfig, QuoteSettings>()("app/quotes/QuoteConfig") {
  static readonly layerWith = (settings: Partial<QuoteSettings>) =>
    Layer.succeed(QuoteConfig, { ...defaultQuoteSettings, ...settings })
}

export const quoteSettings: Effect.Effect<QuoteSettings, Config.ConfigError> = Effect.gen(function* () {
  const given = yield* Effect.serviceOption(QuoteConfig)
  return Option.isSome(given) ? given.value : yield* quoteSettingsConfig
})
