import { Config, Data, Effect, Layer, Option } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { Listening } from "../http/Serve.ts"
import { METRICS_TOKEN_REQUIRED, metricsAuthorized, metricsTokenConfig } from "./MetricsAccess.ts"
import { metricsText, PROMETHEUS_CONTENT_TYPE } from "./MetricsText.ts"

/**
 * `/metrics` on an address of its own (docs/OPERATIONS.md, "Metrics"). With METRICS_PORT set, one listener per
 * process on METRICS_HOST:METRICS_PORT (METRICS_HOST defaults to 127.0.0.1) serves `GET /metrics` and nothing else,
 * and the service ports answer `/metrics` 404: the monitoring network scrapes that address, and nothing the public
 * reaches through the proxy shows the metrics. METRICS_TOKEN, when set, is required there too.
 */
export interface MetricsListenerSettings {
  /** METRICS_PORT (0 picks a free one); none: `/metrics` is served on each service's port as before. */
  readonly port: Option.Option<number>
  readonly host: string
}

export const metricsListenerConfig: Config.Config<MetricsListenerSettings> = Config.all({
  port: Config.option(Config.Int("METRICS_PORT")),
  host: Config.String("METRICS_HOST").pipe(Config.withDefault("127.0.0.1"))
})

/** Whether `/metrics` has its own listener (then the service ports do not serve it). */
export const metricsOnOwnListener: Effect.Effect<boolean> = Effect.map(
  Effect.orDie(metricsListenerConfig),
  (settings) => Option.isSome(settings.port)
)

export class MetricsListenError extends Data.TaggedError("MetricsListenError")<{
  readonly host: string
  readonly port: number
  readonly cause: unknown
}> {
  override get message() {
    return `metrics: cannot listen on ${this.host}:${this.port} (${String(this.cause)}): check METRICS_HOST and METRICS_PORT`
  }
}

const json = (response: ServerResponse, status: number, body: { code: string; message: string }) => {
  response.writeHead(status, { "content-type": "application/json", "x-content-type-options": "nosniff" })
  response.end(JSON.stringify(body))
}

const listen = (server: Server, host: string, port: number) =>
  Effect.callback<string, MetricsListenError>((resume) => {
    const failed = (cause: unknown) => resume(Effect.fail(new MetricsListenError({ host, port, cause })))
    server.once("error", failed)
    server.listen(port, host, () => {
      server.off("error", failed)
      const address = server.address()
      const bound = typeof address === "object" && address !== null ? address.port : port
      resume(Effect.succeed(`http://${host.includes(":") ? `[${host}]` : host}:${bound}`))
    })
  })

/** The metrics listener for the life of the layer, when METRICS_PORT is set; its URL is in `Listening` as `metrics`. */
export const MetricsListenerLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const settings = yield* metricsListenerConfig
    if (Option.isNone(settings.port)) return
    const token = yield* metricsTokenConfig
    const context = yield* Effect.context<never>()
    const scrape = () => Effect.runPromiseWith(context)(metricsText)
    const handle = (request: IncomingMessage, response: ServerResponse) => {
      const path = (request.url ?? "/").split("?", 1)[0]
      if (path !== "/metrics")
        return json(response, 404, { code: "NOT_FOUND", message: "Only /metrics is served here" })
      if (request.method !== "GET" && request.method !== "HEAD") {
        return json(response, 405, { code: "METHOD_NOT_ALLOWED", message: "/metrics answers GET" })
      }
      if (!metricsAuthorized(token, request.headers.authorization)) return json(response, 401, METRICS_TOKEN_REQUIRED)
      scrape().then(
        (text) => {
          response.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE, "x-content-type-options": "nosniff" })
          response.end(request.method === "HEAD" ? undefined : text)
        },
        () => json(response, 500, { code: "INTERNAL", message: "The metrics could not be read" })
      )
    }
    const server = createServer({ keepAliveTimeout: 5_000 }, handle)
    const url = yield* Effect.acquireRelease(listen(server, settings.host, settings.port.value), () =>
      Effect.callback<void>((resume) => {
        server.close(() => resume(Effect.void))
        server.closeAllConnections()
      })
    )
    const listening = yield* Listening
    listening.set("metrics", url)
  })
)
