import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import type { HttpApi, HttpApiGroup } from "effect/http-api"
import { createServer } from "node:http"
import { AppConfig, type ServiceName } from "./Config.ts"
import { NotFoundFallbackLive, RequestContextLive } from "./http/RequestContext.ts"
import { ValidationLive } from "./http/Validation.ts"

/** Where each started service listens; filled as servers bind, read by `main` for the ready lines and by tests. */
export class Listening extends Context.Service<Listening, Map<ServiceName, string>>()("app/Http/Listening") {
  static readonly layer = Layer.sync(Listening, () => new Map<ServiceName, string>())
}

/** The routes of an HttpApi with its docs: `/docs` (Scalar, inlined so it works offline) and `/docs/openapi.json`. */
export const apiRoutes = <Id extends string, Groups extends HttpApiGroup.Constraint, E, R>(
  api: HttpApi.HttpApi<Id, Groups>,
  handlers: Layer.Layer<HttpApiGroup.ToService<Id, Groups>, E, R>
) =>
  Layer.mergeAll(
    HttpApiBuilder.layer(api, { openapiPath: "/docs/openapi.json" }).pipe(
      Layer.provide(handlers),
      Layer.provide(ValidationLive)
    ),
    HttpApiScalar.layer(api, { path: "/docs" })
  )

/**
 * Serves one service's routes on its own port with the shared middleware (request id, body limit, error body) and
 * the JSON 404 fallback, then records its URL in `Listening`. Connections get 5 s to drain on shutdown.
 */
export const serveService = <E, R>(name: ServiceName, routes: Layer.Layer<never, E, R>) =>
  Layer.unwrap(Effect.gen(function*() {
    const config = yield* AppConfig
    const server = NodeHttpServer.layer(() => createServer({ keepAliveTimeout: 5_000 }), {
      port: config.ports[name],
      host: config.host,
      gracefulShutdownTimeout: "5 seconds"
    })
    const register = Layer.effectDiscard(Effect.gen(function*() {
      const { address } = yield* HttpServer.HttpServer
      const listening = yield* Listening
      // A wildcard bind is announced as localhost: that is the URL a person on this machine can open.
      const wildcard = config.host === "0.0.0.0" || config.host === "::"
      listening.set(
        name,
        address._tag !== "UnixPathAddress" && wildcard ? `http://localhost:${address.port}` : HttpServer.formatAddress(address)
      )
    }))
    return HttpRouter.serve(Layer.mergeAll(routes, RequestContextLive, NotFoundFallbackLive), {
      disableLogger: !config.accessLog,
      disableListenLog: true
    }).pipe(Layer.merge(register), Layer.provide(server))
  }))
