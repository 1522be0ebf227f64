import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { AppConfig, ServiceNames } from "../../src/platform/AppConfig.ts"
import { NotFound } from "../../src/platform/ApiError.ts"
import { apiRoutes, Listening, serveService } from "../../src/platform/http/Serve.ts"
import { Validation } from "../../src/platform/http/Validation.ts"
import { baseUrl, fetchJson, TestServices, testSettings } from "../support/TestServer.ts"
import * as NodeServices from "@effect/platform-node/NodeServices"

/**
 * A small API served through the same `serveService` stack as every real service (validation, request id, body
 * limit, error body, 404 fallback), so that each error path can be exercised before the feature routes exist.
 */
class Item extends Schema.Class<Item>("Item")({ id: Schema.Int, name: Schema.String }) {}
class ProbeApi extends HttpApi.make("probe")
  .add(
    HttpApiGroup.make("items").add(
      HttpApiEndpoint.get("getItem", "/v1/items/:id", { params: { id: Schema.Int }, success: Item, error: NotFound }),
      HttpApiEndpoint.get("listItems", "/v1/items", {
        query: { limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))) },
        success: Schema.Array(Item)
      }),
      HttpApiEndpoint.post("createItem", "/v1/items", {
        payload: Schema.Struct({ name: Schema.String.check(Schema.isMinLength(1)) }),
        success: Item
      }),
      HttpApiEndpoint.get("boom", "/v1/boom", { success: Item })
    )
  )
  .middleware(Validation) {}

const ProbeHttp = HttpApiBuilder.group(ProbeApi, "items", (h) =>
  h
    .handle("getItem", ({ params }) =>
      params.id === 1
        ? Effect.succeed(new Item({ id: 1, name: "one" }))
        : Effect.fail(new NotFound({ code: "ITEM_NOT_FOUND", message: `No item ${params.id}` }))
    )
    .handle("listItems", ({ query }) =>
      Effect.succeed(Array.from({ length: query.limit ?? 1 }, (_, i) => new Item({ id: i, name: "x" })))
    )
    .handle("createItem", ({ payload }) => Effect.succeed(new Item({ id: 2, name: payload.name })))
    .handle("boom", () => Effect.die(new Error("connection string postgres://secret@db")))
)

const ProbeServer = serveService("client", apiRoutes(ProbeApi, ProbeHttp)).pipe(
  Layer.provideMerge(Layer.mergeAll(AppConfig.layerWith(testSettings({ maxBodyBytes: 1024 })), Listening.layer)),
  Layer.provideMerge(NodeServices.layer)
)

const post = (url: string, body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
  fetchJson(url, { method: "POST", body, headers })

const isErrorBody = (body: any) => {
  assert.isString(body.code)
  assert.match(body.code, /^[A-Z][A-Z0-9_]*$/)
  assert.isString(body.message)
  assert.isAbove(body.message.length, 0)
}

layer(ProbeServer, { timeout: "30 seconds" })("error shapes (shared HTTP stack)", (it) => {
  it.effect("malformed path parameter → 400 INVALID_PATH naming the parameter", () =>
    Effect.gen(function* () {
      const res = yield* fetchJson(`${yield* baseUrl("client")}/v1/items/abc`)
      assert.strictEqual(res.status, 400)
      isErrorBody(res.body)
      assert.strictEqual(res.body.code, "INVALID_PATH")
      assert.include(res.body.message, `"id"`)
    })
  )

  it.effect("malformed and out-of-range query → 400 INVALID_QUERY naming the field", () =>
    Effect.gen(function* () {
      for (const limit of ["ten", "0", "1000", "1.5"]) {
        const res = yield* fetchJson(`${yield* baseUrl("client")}/v1/items?limit=${limit}`)
        assert.strictEqual(res.status, 400, limit)
        assert.strictEqual(res.body.code, "INVALID_QUERY")
        assert.include(res.body.message, `"limit"`)
        assert.deepStrictEqual(res.body.details.issues[0].field, "limit")
      }
      const ok = yield* fetchJson(`${yield* baseUrl("client")}/v1/items?limit=3`)
      assert.strictEqual(ok.status, 200)
      assert.strictEqual(ok.body.length, 3)
    })
  )

  it.effect("malformed body → 400 INVALID_BODY: bad JSON, wrong type, missing field", () =>
    Effect.gen(function* () {
      const url = `${yield* baseUrl("client")}/v1/items`
      for (const [body, field] of [
        ["{not json", undefined],
        [`{"name":42}`, "name"],
        ["{}", "name"],
        [`{"name":""}`, "name"]
      ] as const) {
        const res = yield* post(url, body)
        assert.strictEqual(res.status, 400, body)
        isErrorBody(res.body)
        assert.strictEqual(res.body.code, "INVALID_BODY")
        if (field) assert.include(res.body.message, `"${field}"`)
      }
      const ok = yield* post(url, `{"name":"n"}`)
      assert.strictEqual(ok.status, 200)
      assert.strictEqual(ok.body.name, "n")
    })
  )

  it.effect("a body in a content type the route does not take → 415 UNSUPPORTED_MEDIA_TYPE with the error body", () =>
    Effect.gen(function* () {
      const url = `${yield* baseUrl("client")}/v1/items`
      for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
        const res = yield* post(url, "name=n", { "content-type": type })
        assert.strictEqual(res.status, 415, type)
        isErrorBody(res.body)
        assert.strictEqual(res.body.code, "UNSUPPORTED_MEDIA_TYPE")
        assert.include(res.body.message, type)
      }
    })
  )

  it.effect("a declared error keeps its status and code", () =>
    Effect.gen(function* () {
      const res = yield* fetchJson(`${yield* baseUrl("client")}/v1/items/7`)
      assert.strictEqual(res.status, 404)
      assert.deepStrictEqual(res.body, { code: "ITEM_NOT_FOUND", message: "No item 7" })
    })
  )

  it.effect("body over the limit → 413 PAYLOAD_TOO_LARGE, by Content-Length and when streamed without one", () =>
    Effect.gen(function* () {
      const url = `${yield* baseUrl("client")}/v1/items`
      const big = JSON.stringify({ name: "x".repeat(4096) })
      const declared = yield* post(url, big)
      assert.strictEqual(declared.status, 413)
      assert.strictEqual(declared.body.code, "PAYLOAD_TOO_LARGE")
      const streamed = yield* Effect.promise(async () => {
        const body = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(big))
            controller.close()
          }
        })
        const response = await fetch(url, {
          method: "POST",
          body,
          headers: { "content-type": "application/json" },
          duplex: "half"
        } as RequestInit)
        return { status: response.status, body: (await response.json()) as any }
      })
      assert.strictEqual(streamed.status, 413)
      assert.strictEqual(streamed.body.code, "PAYLOAD_TOO_LARGE")
    })
  )

  it.effect("unexpected failure → 500 INTERNAL without internals, with the request id in header and message", () =>
    Effect.gen(function* () {
      const res = yield* fetchJson(`${yield* baseUrl("client")}/v1/boom`, { headers: { "x-request-id": "req-123" } })
      assert.strictEqual(res.status, 500)
      assert.strictEqual(res.body.code, "INTERNAL")
      assert.notInclude(JSON.stringify(res.body), "postgres")
      assert.notInclude(JSON.stringify(res.body), "secret")
      assert.strictEqual(res.headers.get("x-request-id"), "req-123")
      assert.include(res.body.message, "req-123")
    })
  )

  it.effect("a path that does not percent-decode to UTF-8 → 404 NOT_FOUND, not 500 (found by the contract fuzz)", () =>
    Effect.gen(function* () {
      for (const path of ["/v1/items/%ED%BF%BF", "/v1/items/%ED%A0%80", "/v1/%FF/x", "/v1/items/%zz"]) {
        const res = yield* fetchJson(`${yield* baseUrl("client")}${path}`)
        assert.deepStrictEqual([res.status, res.body.code], [404, "NOT_FOUND"], path)
        isErrorBody(res.body)
      }
    })
  )

  it.effect("request line or headers over 16 KiB → 431 HEADERS_TOO_LARGE with the error body (Node's parser)", () =>
    Effect.gen(function* () {
      const res = yield* fetchJson(`${yield* baseUrl("client")}/v1/items/${"a".repeat(20_000)}`)
      assert.strictEqual(res.status, 431)
      assert.deepStrictEqual(res.body, { code: "HEADERS_TOO_LARGE", message: "Request line and headers exceed 16 KiB" })
    })
  )

  it.effect("a hostile x-request-id is replaced by a generated one", () =>
    Effect.gen(function* () {
      const res = yield* fetchJson(`${yield* baseUrl("client")}/v1/items/1`, {
        headers: { "x-request-id": "a b<script>" }
      })
      assert.strictEqual(res.status, 200)
      assert.match(res.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/)
    })
  )
})

layer(TestServices(), { timeout: "60 seconds" })("error shapes (real services)", (it) => {
  it.effect("unknown routes → 404 NOT_FOUND as JSON on every service", () =>
    Effect.gen(function* () {
      for (const service of ServiceNames) {
        const res = yield* fetchJson(`${yield* baseUrl(service)}/v1/does-not-exist?x=1`)
        assert.strictEqual(res.status, 404, service)
        assert.strictEqual(res.body.code, "NOT_FOUND")
        // The exchange API's shape is `{ error, code }` (its spec); the others' `{ code, message }`.
        const text = service === "exchange" ? res.body.error : res.body.message
        assert.include(text, "/v1/does-not-exist")
        assert.notInclude(text, "x=1")
      }
    })
  )

  it.effect("a body over MAX_BODY_BYTES → 413 with the error body, on any route", () =>
    Effect.gen(function* () {
      const res = yield* post(`${yield* baseUrl("client")}/v1/ip`, "x".repeat(1_100_000))
      assert.strictEqual(res.status, 413)
      assert.strictEqual(res.body.code, "PAYLOAD_TOO_LARGE")
    })
  )
})
