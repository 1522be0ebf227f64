import * as OtelTracer from "@effect/opentelemetry/OtelTracer"
import * as OtelResource from "@effect/opentelemetry/Resource"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node"
import { Config, Effect, Layer, Logger, Option, References } from "effect"
import { version } from "../src/platform/system/Health.ts"

/**
 * Logging for the process: `LOG_FORMAT=pretty` (default, for a terminal) or `json` (one object per line, for log
 * shippers), and `LOG_LEVEL` (Trace | Debug | Info | Warn | Error | Fatal | None; default Info).
 */
export const LoggingLive: Layer.Layer<never, Config.ConfigError> = Layer.unwrap(
  Effect.gen(function* () {
    const format = yield* Config.Literals(["pretty", "json"], "LOG_FORMAT").pipe(Config.withDefault("pretty" as const))
    const level = yield* Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info" as const))
    const logger = format === "json" ? Logger.consoleJson : Logger.consolePretty()
    return Layer.mergeAll(Logger.layer([logger]), Layer.succeed(References.MinimumLogLevel, level))
  })
)

/**
 * Tracing, only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (e.g. `http://collector:4318`): Effect's spans (one per
 * HTTP request with `http.route` and `http.request_id`, plus every `Effect.fn`/`withSpan` below it, SQL included)
 * go through @effect/opentelemetry to the OpenTelemetry SDK, batched, as OTLP/HTTP JSON to `<endpoint>/v1/traces`.
 * `OTEL_SERVICE_NAME` (default `fire-api`) and `OTEL_RESOURCE_ATTRIBUTES` name the process; the exporter also
 * honours `OTEL_EXPORTER_OTLP_HEADERS` (auth). Unset, no tracer is installed: spans stay in-process and cost little.
 *
 * We only load the tracer part of @effect/opentelemetry (OtelTracer, Resource), not its NodeSdk, which would pull
 * the logs and metrics SDKs in too: logs go to stdout, metrics to `/metrics`.
 */
export const TracingLive: Layer.Layer<OtelTracer.OtelTracer, Config.ConfigError> = Layer.unwrap(
  Effect.gen(function* () {
    const endpoint = yield* Config.option(Config.String("OTEL_EXPORTER_OTLP_ENDPOINT"))
    if (Option.isNone(endpoint) || endpoint.value.trim() === "")
      return Layer.empty as Layer.Layer<OtelTracer.OtelTracer>
    const serviceName = yield* Config.String("OTEL_SERVICE_NAME").pipe(Config.withDefault("fire-api"))
    const url = `${endpoint.value.replace(/\/+$/, "")}/v1/traces`
    const provider = Layer.effect(
      OtelTracer.OtelTracerProvider,
      Effect.gen(function* () {
        const resource = yield* OtelResource.Resource
        return yield* Effect.acquireRelease(
          Effect.sync(
            () =>
              new NodeTracerProvider({
                resource,
                spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: 1000 })]
              })
          ),
          // Spans still in the batch are sent on shutdown (at most 3 s, so a dead collector does not hold the exit).
          (p) =>
            Effect.promise(() => p.forceFlush().finally(() => p.shutdown())).pipe(
              Effect.ignore,
              Effect.timeoutOption("3 seconds")
            )
        )
      })
    )
    return OtelTracer.layer.pipe(
      Layer.provide(provider),
      Layer.provide(
        OtelResource.layerFromEnv(OtelResource.configToAttributes({ serviceName, serviceVersion: version }))
      )
    )
  })
)

/** Logging and, when configured, tracing: what `src/main.ts` provides to the whole program. */
export const TelemetryLive = Layer.mergeAll(LoggingLive, TracingLive)
