import { Config, ConfigProvider, Context, Effect, Layer } from "effect"

/** How often the precomputed social data (leaderboards, badges) is recomputed, and how deep boards go. */
export interface SocialRefreshSettings {
  readonly refreshSeconds: number
  readonly top: number
}

export const socialRefreshConfig: Config.Config<SocialRefreshSettings> = Config.all({
  refreshSeconds: Config.Int("COMPETITION_REFRESH_SECONDS").pipe(
    Config.withDefault(60),
    Config.flatMap((n) =>
      n >= 1
        ? Config.succeed(n)
        : Config.fail(new ConfigProvider.SourceError({ message: "COMPETITION_REFRESH_SECONDS: ≥ 1" }))
    )
  ),
  top: Config.Int("COMPETITION_TOP").pipe(
    Config.withDefault(100),
    Config.flatMap((n) =>
      n >= 1 && n <= 1000
        ? Config.succeed(n)
        : Config.fail(new ConfigProvider.SourceError({ message: "COMPETITION_TOP: 1–1000" }))
    )
  )
})

export class SocialRefreshConfig extends Context.Service<SocialRefreshConfig, SocialRefreshSettings>()(
  "app/competition/SocialRefreshConfig"
) {
  static readonly layer = Layer.effect(SocialRefreshConfig, Effect.map(socialRefreshConfig, SocialRefreshConfig.of))
}
