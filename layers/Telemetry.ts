import { Config, Effect, Layer, Logger, References } from "effect"

/**
 * Logging for the process: `LOG_FORMAT=pretty` (default, for a terminal) or `json` (one object per line, for log
 * shippers), and `LOG_LEVEL` (Trace | Debug | Info | Warn | Error | Fatal | None; default Info).
 */
export const TelemetryLive: Layer.Layer<never, Config.ConfigError> = Layer.unwrap(
  Effect.gen(function*() {
    const format = yield* Config.Literals(["pretty", "json"], "LOG_FORMAT").pipe(Config.withDefault("pretty" as const))
    const level = yield* Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info" as const))
    const logger = format === "json" ? Logger.consoleJson : Logger.consolePretty()
    return Layer.mergeAll(
      Logger.layer([logger]),
      Layer.succeed(References.MinimumLogLevel, level)
    )
  })
)
