import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { baseUrl, fetchJson, TestServices } from "../layers/TestServer.ts"

const gql = (body: unknown) =>
  Effect.flatMap(baseUrl("indexer"), (base) =>
    fetchJson(`${base}/v1/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body)
    }))

layer(TestServices(["indexer"]), { timeout: "60 seconds" })("indexer GraphQL endpoint", (it) => {
  it.effect("POST /v1/graphql answers a query", () =>
    Effect.gen(function*() {
      const res = yield* gql({ query: "{ _meta { version database } }" })
      assert.strictEqual(res.status, 200)
      assert.deepStrictEqual(res.body.data._meta.database, "up")
      assert.isString(res.body.data._meta.version)
    }))

  it.effect("a query that does not parse or validate → 400 with GraphQL errors", () =>
    Effect.gen(function*() {
      const syntax = yield* gql({ query: "{ _meta { " })
      assert.strictEqual(syntax.status, 400)
      assert.isAbove(syntax.body.errors.length, 0)
      const unknownField = yield* gql({ query: "{ nope }" })
      assert.strictEqual(unknownField.status, 400)
      assert.include(unknownField.body.errors[0].message, "nope")
    }))

  it.effect("a body that is not a GraphQL request → 400 INVALID_BODY", () =>
    Effect.gen(function*() {
      for (const body of ["not json", { variables: {} }, { query: 42 }]) {
        const res = yield* gql(body)
        assert.strictEqual(res.status, 400)
        assert.strictEqual(res.body.code, "INVALID_BODY")
      }
    }))

  it.effect("GET /v1/graphql serves the query page for browsers", () =>
    Effect.gen(function*() {
      const page = yield* Effect.flatMap(baseUrl("indexer"), (base) => Effect.promise(() => fetch(`${base}/v1/graphql`)))
      assert.strictEqual(page.status, 200)
      assert.match(page.headers.get("content-type") ?? "", /text\/html/)
      assert.include(yield* Effect.promise(() => page.text()), "/v1/graphql")
    }))
})
