import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Data, Effect, Layer, type Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApiBuilder, HttpApiScalar, OpenApi } from "effect/http-api"
import type { HttpApi, HttpApiGroup } from "effect/http-api"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { AppConfig, type ServiceName } from "../AppConfig.ts"
import { BodyLimits, bodyLimitBytes, documentBodyLimits, makeBodyLimitTable, routeBodyLimits } from "./BodyLimits.ts"
import { answerClientErrors } from "./ClientErrors.ts"
import { errorResponse, notFoundFallback, requestContext } from "./RequestContext.ts"
import type { ErrorShape } from "./ErrorWriter.ts"
import type { UnsafeRequestPolicy } from "./UnsafeRequests.ts"
import { ValidationLive } from "./Validation.ts"

/**
 * Where each started service listens (and the metrics listener, `metrics`, when METRICS_PORT is set); filled as
 * servers bind, read by `main` for the ready lines and by tests.
 */
export class Listening extends Context.Service<Listening, Map<ServiceName | "metrics", string>>()(
  "app/Http/Listening"
) {
  static readonly layer = Layer.sync(Listening, () => new Map<ServiceName | "metrics", string>())
}

/** A service's port cannot be bound: the message names the setting to change (a start-up failure is this one line). */
export class ListenError extends Data.TaggedError("ListenError")<{
  readonly service: ServiceName
  readonly host: string
  readonly port: number
  readonly cause: unknown
}> {
  override get message() {
    const setting = `${this.service.toUpperCase()}_PORT`
    const where = `${this.host}:${this.port}`
    switch ((this.cause as NodeJS.ErrnoException | undefined)?.code) {
      case "EADDRINUSE":
        return `${this.service}: port ${this.port} is in use (${where}): stop what listens there or set ${setting} to a free port (0 picks one)`
      case "EACCES":
        return `${this.service}: port ${this.port} needs privileges this user lacks: set ${setting} above 1023`
      case "EADDRNOTAVAIL":
      case "ENOTFOUND":
        return `${this.service}: HOST ${this.host} is not an address of this machine: set HOST (0.0.0.0 listens on all)`
      default:
        return `${this.service}: cannot listen on ${where} (${String(this.cause)}): check HOST and ${setting}`
    }
  }
}

/** Takes over one WebSocket upgrade request (the socket is the handler's from then on). */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void

/**
 * WebSocket endpoints served by a library that wants the raw Node upgrade (e.g. graphql-ws over `ws`): a route layer
 * adds its path for the life of its scope; upgrades to other paths go to the Effect HTTP app as before.
 */
export class UpgradeRoutes extends Context.Service<
  UpgradeRoutes,
  {
    readonly add: (path: string, handler: UpgradeHandler) => Effect.Effect<void, never, Scope.Scope>
  }
>()("app/Http/UpgradeRoutes") {}

/** Answers a request itself and returns `true`, or returns `false` without writing anything (the app answers). */
export type FastHandler = (request: IncomingMessage, response: ServerResponse) => boolean

/**
 * Requests a feature can answer from memory at the Node listener, before the Effect HTTP app: no router, no HttpApi
 * decode/encode, no request fiber (bench:http: that pipeline alone allows ~0.3 of bare node:http's throughput).
 * A handler must answer exactly as the app would (status, headers, body), so it may only take requests whose answer
 * it already knows (a ResponseCache's fresh entries, src/platform/http/CachedFastLane.ts); everything else
 * returns `false`. Not installed when ACCESS_LOG is on, so that the access log sees every request.
 */
export class FastLane extends Context.Service<
  FastLane,
  {
    readonly add: (handler: FastHandler) => Effect.Effect<void, never, Scope.Scope>
  }
>()("app/Http/FastLane") {}

/**
 * The routes of an HttpApi with its docs: `/docs` (Scalar, inlined so it works offline) and `/docs/openapi.json`.
 * The body limits of its routes are read from the API (src/platform/http/BodyLimits.ts) and declared to the server, and the
 * served document states them in each operation's description.
 */
export const apiRoutes = <Id extends string, Groups extends HttpApiGroup.Constraint, E, R>(
  api: HttpApi.HttpApi<Id, Groups>,
  handlers: Layer.Layer<HttpApiGroup.ToService<Id, Groups>, E, R>
) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const bodyLimits = yield* BodyLimits
      yield* bodyLimits.declare(routeBodyLimits(api))
      const documented = api.annotate(OpenApi.Transform, documentBodyLimits(bodyLimits.bytes))
      return Layer.mergeAll(
        HttpApiBuilder.layer(documented, { openapiPath: "/docs/openapi.json" }).pipe(
          Layer.provide(handlers),
          Layer.provide(ValidationLive)
        ),
        // No web fonts from Scalar's CDN (fonts.scalar.com): the docs work offline, in the system fonts.
        HttpApiScalar.layer(documented, { path: "/docs", scalar: { withDefaultFonts: false } })
      )
    })
  )

/** The error shape of the client, search and indexer services: `{ code, message, details? }` (src/platform/ApiError.ts). */
export const defaultErrorShape: ErrorShape = {
  response: errorResponse,
  plainBody: (code, message) => ({ code, message })
}

/**
 * Serves one service's routes on its own port with the shared middleware (request id, body limits, error body) and
 * the JSON 404 fallback, in the service's error shape, then records its URL in `Listening`. Connections get 5 s to drain on shutdown. The routes
 * may claim WebSocket paths through `UpgradeRoutes` (served on the same port), answer requests early via `FastLane`
 * and declare the body limits of their routes through `BodyLimits`. With `unsafeRequests` (the client API's session
 * cookie), state-changing requests are checked for their origin and content type (UnsafeRequests.ts).
 */
export const serveService = <E, R>(
  name: ServiceName,
  routes: Layer.Layer<never, E, R>,
  errors: ErrorShape = defaultErrorShape,
  unsafeRequests?: UnsafeRequestPolicy
) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const bodyLimitTable = makeBodyLimitTable(yield* bodyLimitBytes)
      const upgrades = new Map<string, UpgradeHandler>()
      const fast: Array<FastHandler> = []
      const makeServer = () => {
        const server = createServer({ keepAliveTimeout: 5_000 })
        answerClientErrors(server, errors.plainBody)
        // WebSocket upgrades to a path in `upgrades` go to its handler only; every other event (and upgrade) is
        // dispatched to the listeners NodeHttpServer installs.
        // Named parameters and `arguments` rather than a rest array: this runs for every event of every request.
        const emit = server.emit
        server.emit = function (this: typeof server, event: string | symbol, a?: unknown, b?: unknown, c?: unknown) {
          if (event === "request") {
            for (let i = 0; i < fast.length; i++) if (fast[i]!(a as IncomingMessage, b as ServerResponse)) return true
          } else if (event === "upgrade" && upgrades.size > 0) {
            const request = a as IncomingMessage
            const handler = upgrades.get((request.url ?? "/").split("?")[0]!)
            if (handler !== undefined && request.headers.upgrade?.toLowerCase() === "websocket") {
              handler(request, b as Duplex, c as Buffer)
              return true
            }
          }
          // biome-ignore lint/complexity/noArguments: forwards every argument of any event as given, without a copy
          return Reflect.apply(emit, this, arguments) as boolean
        } as typeof server.emit
        return server
      }
      const upgradeRoutes = Layer.succeed(
        UpgradeRoutes,
        UpgradeRoutes.of({
          add: (path, handler) =>
            Effect.acquireRelease(
              Effect.sync(() => upgrades.set(path, handler)),
              () => Effect.sync(() => upgrades.delete(path))
            ).pipe(Effect.asVoid)
        })
      )
      const fastLane = Layer.succeed(
        FastLane,
        FastLane.of({
          add: (handler) =>
            config.accessLog
              ? Effect.void
              : Effect.acquireRelease(
                  Effect.sync(() => fast.push(handler)),
                  () => Effect.sync(() => fast.splice(fast.indexOf(handler), 1))
                ).pipe(Effect.asVoid)
        })
      )
      const bodyLimits = Layer.succeed(
        BodyLimits,
        BodyLimits.of({
          bytes: bodyLimitTable.bytes,
          declare: (routes) => Effect.sync(() => bodyLimitTable.declare(routes))
        })
      )
      const server = NodeHttpServer.layer(makeServer, {
        port: config.ports[name],
        host: config.host,
        gracefulShutdownTimeout: "5 seconds"
      })
      const register = Layer.effectDiscard(
        Effect.gen(function* () {
          const { address } = yield* HttpServer.HttpServer
          const listening = yield* Listening
          // A wildcard bind is announced as localhost: that is the URL a person on this machine can open.
          const wildcard = config.host === "0.0.0.0" || config.host === "::"
          listening.set(
            name,
            address._tag !== "UnixPathAddress" && wildcard
              ? `http://localhost:${address.port}`
              : HttpServer.formatAddress(address)
          )
        })
      )
      const writeError = errors.response
      const routeLayers = routes.pipe(Layer.provide(Layer.mergeAll(upgradeRoutes, fastLane, bodyLimits)))
      return HttpRouter.serve(
        Layer.mergeAll(
          routeLayers,
          requestContext(writeError, name, bodyLimitTable, unsafeRequests),
          notFoundFallback(writeError)
        ),
        {
          // ACCESS_LOG is written by requestContext (with the request id, route and duration), not by the framework.
          disableLogger: true,
          disableListenLog: true
        }
      ).pipe(
        Layer.merge(register),
        Layer.provide(server),
        Layer.catchTag("ServeError", (error) =>
          Layer.effectDiscard(
            Effect.fail(
              new ListenError({
                service: name,
                host: config.host,
                port: config.ports[name],
                cause: (error as { cause?: unknown }).cause
              })
            )
          )
        )
      )
    })
  )
