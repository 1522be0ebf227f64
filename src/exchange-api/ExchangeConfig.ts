import { Config, Context, Effect, Layer, Option } from "effect"

export interface ExchangeSettings {
  /** Trusted tokens for /tokens/bluechip; empty: WETH and the deployment's stablecoin. */
  readonly bluechipTokens: ReadonlyArray<string>
  /** Liquidity floor of /pools/admitted, in USD. */
  readonly admitMinTvlUsd: number
  /** An unknown transaction hash is `pending` this long after it was first asked about, then 404. */
  readonly txPendingTimeoutSeconds: number
  /** /api/health/ready answers 503 when the indexer is further behind the chain head than this. */
  readonly readyMaxLagBlocks: number
  /** Serve hot routes from the cache invalidated by indexer commits (off: every request reads Postgres). */
  readonly cacheEnabled: boolean
  /** Answer fresh cache hits at the Node listener (src/exchange-api/cache/ExchangeFastLane.ts); off: through the Effect app. */
  readonly fastLane: boolean
}

const addresses = (name: string) =>
  Config.String(name).pipe(
    Config.withDefault(""),
    Config.map((s) =>
      s
        .split(",")
        .map((a) => a.trim().toLowerCase())
        .filter((a) => /^0x[0-9a-f]{40}$/.test(a))
    )
  )

export const exchangeSettingsConfig: Config.Config<ExchangeSettings> = Config.all({
  bluechipTokens: addresses("EXCHANGE_BLUECHIP_TOKENS"),
  admitMinTvlUsd: Config.Number("EXCHANGE_ADMIT_MIN_TVL_USD").pipe(Config.withDefault(0)),
  txPendingTimeoutSeconds: Config.Int("EXCHANGE_TX_PENDING_TIMEOUT_SECONDS").pipe(Config.withDefault(600)),
  readyMaxLagBlocks: Config.Int("EXCHANGE_READY_MAX_LAG_BLOCKS").pipe(Config.withDefault(10)),
  cacheEnabled: Config.Boolean("EXCHANGE_CACHE").pipe(Config.withDefault(true)),
  fastLane: Config.Boolean("EXCHANGE_FAST_LANE").pipe(Config.withDefault(true))
})

export const defaultExchangeSettings: ExchangeSettings = {
  bluechipTokens: [],
  admitMinTvlUsd: 0,
  txPendingTimeoutSeconds: 600,
  readyMaxLagBlocks: 10,
  cacheEnabled: true,
  fastLane: true
}

/** Optional in the context: tests provide it; the app reads EXCHANGE_* from the environment. */
export class ExchangeConfig extends Context.Service<ExchangeConfig, ExchangeSettings>()("app/exchange/ExchangeConfig") {
  static readonly layerWith = (settings: Partial<ExchangeSettings>) =>
    Layer.succeed(ExchangeConfig, { ...defaultExchangeSettings, ...settings })
}

export const exchangeSettings: Effect.Effect<ExchangeSettings, Config.ConfigError> = Effect.gen(function* () {
  const given = yield* Effect.serviceOption(ExchangeConfig)
  return Option.isSome(given) ? given.value : yield* exchangeSettingsConfig
})
