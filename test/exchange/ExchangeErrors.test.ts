import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { exchangeErrorShape, ExchangeNotFound } from "../../src/exchange-api/ExchangeError.ts"
import { ExchangeValidation, ExchangeValidationLive } from "../../src/exchange-api/ExchangeValidation.ts"
import { PublicRateLimit } from "../../src/exchange-api/PublicRateLimit.ts"
import { PublicRateLimitLive } from "../../src/exchange-api/PublicRateLimitLive.ts"
import { apiRoutes, Listening, serveService } from "../../src/platform/http/Serve.ts"
import { defaultRateLimitSettings } from "../../src/platform/ratelimit/RateLimitConfig.ts"
import { RateLimitConfig, RateLimiter } from "../../src/platform/ratelimit/RateLimiter.ts"
import { RateLimitStore } from "../../src/platform/ratelimit/RateLimitStore.ts"
import { baseUrl, fetchJson, testSettings } from "../support/TestServer.ts"

/**
 * The exchange error shape and the per-IP limit, through the same stack as the exchange service (serveService
 * "exchange"): a probe API with the `PublicRateLimit` and `ExchangeValidation` middleware the real groups use.
 */
class Thing extends Schema.Class<Thing>("Thing")({ id: Schema.Int }) {}
class ProbeApi extends HttpApi.make("probe")
  .add(
    HttpApiGroup.make("things")
      .add(
        HttpApiEndpoint.get("getThing", "/api/v1/things/:id", {
          params: { id: Schema.Int },
          query: { n: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10 }))) },
          success: Thing,
          error: ExchangeNotFound
        }),
        HttpApiEndpoint.get("boom", "/api/v1/boom", { success: Thing })
      )
      .middleware(PublicRateLimit)
  )
  .middleware(ExchangeValidation) {}

const ProbeHttp = HttpApiBuilder.group(ProbeApi, "things", (h) =>
  h
    .handle("getThing", ({ params }) =>
      params.id === 1
        ? Effect.succeed(new Thing({ id: 1 }))
        : Effect.fail(new ExchangeNotFound({ error: `No thing ${params.id}`, code: "THING_NOT_FOUND" }))
    )
    .handle("boom", () => Effect.die(new Error("secret internals")))
)

const ProbeServer = serveService(
  "exchange",
  apiRoutes(ProbeApi, ProbeHttp).pipe(Layer.provide([ExchangeValidationLive, PublicRateLimitLive])),
  exchangeErrorShape
).pipe(
  Layer.provide(RateLimiter.layerNoDeps.pipe(Layer.provide(RateLimitStore.layerMemory))),
  Layer.provide(
    RateLimitConfig.layerWith({ ...defaultRateLimitSettings, exchangePublic: { limit: 4, windowSeconds: 30 } })
  ),
  Layer.provideMerge(Layer.mergeAll(AppConfig.layerWith(testSettings()), Listening.layer)),
  Layer.provideMerge(NodeServices.layer)
)

const isExchangeError = (body: any) => {
  assert.isString(body.error)
  assert.isAbove(body.error.length, 0)
  assert.match(body.code, /^[A-Z][A-Z0-9_]*$/)
  assert.notProperty(body, "message")
  assert.notProperty(body, "_tag")
}

layer(ProbeServer, { timeout: "30 seconds" })("exchange error shape and per-IP limit", (it) => {
  it.effect(
    "errors are { error, code, details? }; limit 4: 200s and errors count, the 5th → 429 with Retry-After",
    () =>
      Effect.gen(function* () {
        const base = yield* baseUrl("exchange")
        const ok = yield* fetchJson(`${base}/api/v1/things/1`)
        assert.strictEqual(ok.status, 200)
        assert.strictEqual(ok.headers.get("ratelimit-limit"), "4")
        assert.strictEqual(ok.headers.get("ratelimit-remaining"), "3")
        assert.strictEqual(ok.headers.get("ratelimit-policy"), "4;w=30")
        assert.isAtLeast(Number(ok.headers.get("ratelimit-reset")), 1)

        const missing = yield* fetchJson(`${base}/api/v1/things/2`)
        assert.strictEqual(missing.status, 404)
        isExchangeError(missing.body)
        assert.deepStrictEqual(missing.body, { error: "No thing 2", code: "THING_NOT_FOUND" })
        assert.strictEqual(missing.headers.get("ratelimit-remaining"), "2", "error answers carry the headers too")

        const bad = yield* fetchJson(`${base}/api/v1/things/1?n=99`)
        assert.strictEqual(bad.status, 400)
        isExchangeError(bad.body)
        assert.strictEqual(bad.body.code, "INVALID_QUERY")
        assert.include(bad.body.error, `"n"`)
        assert.strictEqual(bad.body.details.issues[0].field, "n")

        const boom = yield* fetchJson(`${base}/api/v1/boom`)
        assert.strictEqual(boom.status, 500)
        isExchangeError(boom.body)
        assert.strictEqual(boom.body.code, "INTERNAL")
        assert.notInclude(JSON.stringify(boom.body), "secret")

        const limited = yield* fetchJson(`${base}/api/v1/things/1`)
        assert.strictEqual(limited.status, 429)
        isExchangeError(limited.body)
        assert.strictEqual(limited.body.code, "RATE_LIMITED")
        assert.strictEqual(limited.body.details.limit, 4)
        assert.strictEqual(limited.headers.get("ratelimit-remaining"), "0")
        const retryAfter = Number(limited.headers.get("retry-after"))
        assert.isAtLeast(retryAfter, 1)
        assert.isAtMost(retryAfter, 30)
      })
  )

  it.effect("unknown routes on the exchange port answer 404 in the exchange shape", () =>
    Effect.gen(function* () {
      const res = yield* fetchJson(`${yield* baseUrl("exchange")}/api/v1/nope`)
      assert.strictEqual(res.status, 404)
      isExchangeError(res.body)
      assert.strictEqual(res.body.code, "NOT_FOUND")
    })
  )

  it.effect("OpenAPI documents the 429 and 400 of a limited route", () =>
    Effect.gen(function* () {
      const { OpenApi } = yield* Effect.promise(() => import("effect/http-api"))
      const doc = OpenApi.fromApi(ProbeApi) as any
      const responses = doc.paths["/api/v1/things/{id}"].get.responses
      assert.property(responses, "429")
      assert.property(responses, "400")
      assert.property(responses, "404")
    })
  )
})
