import { Config, ConfigProvider, Context, Effect, Layer } from "effect"

/** Gift tunables (README: configuration). */
export interface GiftSettings {
  readonly cycleSeconds: number
  /** Base gift in wei of fuel credits. */
  readonly amountWei: bigint
  readonly maxStreak: number
  readonly ticketTtlSeconds: number
}

const invalid = (message: string) => Config.fail(new ConfigProvider.SourceError({ message }))

const positive = (name: string, fallback: number) =>
  Config.Int(name).pipe(
    Config.withDefault(fallback),
    Config.flatMap((n) => (n >= 1 ? Config.succeed(n) : invalid(`${name}: must be ≥ 1`)))
  )

export const giftSettingsConfig: Config.Config<GiftSettings> = Config.all({
  cycleSeconds: positive("GIFT_CYCLE_SECONDS", 86_400),
  amountWei: Config.String("GIFT_AMOUNT_WEI").pipe(
    Config.withDefault("1000000000000000"),
    Config.flatMap((s) =>
      /^[1-9]\d{0,30}$/.test(s) ? Config.succeed(BigInt(s)) : invalid("GIFT_AMOUNT_WEI: a positive integer (wei)")
    )
  ),
  maxStreak: positive("GIFT_MAX_STREAK", 7),
  ticketTtlSeconds: positive("GIFT_TICKET_TTL_SECONDS", 300)
})

export class GiftsConfig extends Context.Service<GiftsConfig, GiftSettings>()("app/gifts/GiftsConfig") {
  static readonly layer = Layer.effect(GiftsConfig, Effect.map(giftSettingsConfig, GiftsConfig.of))
}
