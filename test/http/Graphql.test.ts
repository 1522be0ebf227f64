import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { graphiqlCsp } from "../../src/indexer/graphql/GraphiqlAssets.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"

const gql = (body: unknown) =>
  Effect.flatMap(baseUrl("indexer"), (base) =>
    fetchJson(`${base}/v1/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body)
    })
  )

layer(TestServices(["indexer"]), { timeout: "60 seconds" })("indexer GraphQL endpoint", (it) => {
  it.effect("POST /v1/graphql answers a query", () =>
    Effect.gen(function* () {
      const res = yield* gql({ query: "{ _meta { version database } }" })
      assert.strictEqual(res.status, 200)
      assert.deepStrictEqual(res.body.data._meta.database, "up")
      assert.isString(res.body.data._meta.version)
    })
  )

  it.effect("a query that does not parse or validate → 400 with GraphQL errors", () =>
    Effect.gen(function* () {
      const syntax = yield* gql({ query: "{ _meta { " })
      assert.strictEqual(syntax.status, 400)
      assert.isAbove(syntax.body.errors.length, 0)
      const unknownField = yield* gql({ query: "{ nope }" })
      assert.strictEqual(unknownField.status, 400)
      assert.include(unknownField.body.errors[0].message, "nope")
    })
  )

  it.effect("a body that is not a GraphQL request → 400 INVALID_BODY", () =>
    Effect.gen(function* () {
      for (const body of ["not json", { variables: {} }, { query: 42 }]) {
        const res = yield* gql(body)
        assert.strictEqual(res.status, 400)
        assert.strictEqual(res.body.code, "INVALID_BODY")
      }
    })
  )

  it.effect(
    "GET /v1/graphql serves GraphiQL from the local bundle, under its own CSP; its files are cached for good",
    () =>
      Effect.gen(function* () {
        const base = yield* baseUrl("indexer")
        const get = (path: string, headers: Record<string, string> = {}) =>
          Effect.promise(() => fetch(`${base}${path}`, { headers }))
        const page = yield* get("/v1/graphql")
        assert.strictEqual(page.status, 200)
        assert.match(page.headers.get("content-type") ?? "", /text\/html/)
        assert.strictEqual(page.headers.get("content-security-policy"), graphiqlCsp)
        assert.strictEqual(page.headers.get("cache-control"), "no-cache")
        assert.strictEqual(page.headers.get("x-frame-options"), "DENY")
        const html = yield* Effect.promise(() => page.text())
        assert.notMatch(html, /https?:\/\//, "the page loads nothing from another origin")
        const assets = [...html.matchAll(/(?:src|href)="(\/v1\/graphql\/assets\/[^"]+)"/g)].map((m) => m[1]!)
        assert.isTrue(assets.some((a) => a.endsWith(".js")) && assets.some((a) => a.endsWith(".css")), html)
        for (const asset of assets) {
          const plain = yield* get(asset, { "accept-encoding": "identity" })
          assert.strictEqual(plain.status, 200, asset)
          assert.strictEqual(plain.headers.get("cache-control"), "public, max-age=31536000, immutable")
          assert.match(
            plain.headers.get("content-type") ?? "",
            asset.endsWith(".js") ? /^text\/javascript/ : /^text\/css/
          )
          assert.isNull(plain.headers.get("content-encoding"))
          const plainBytes = (yield* Effect.promise(() => plain.arrayBuffer())).byteLength
          // fetch decompresses: the same file comes back, smaller on the wire.
          const gzipped = yield* get(asset, { "accept-encoding": "gzip" })
          assert.strictEqual(gzipped.headers.get("content-encoding"), "gzip")
          assert.isBelow(Number(gzipped.headers.get("content-length")), plainBytes)
          assert.strictEqual((yield* Effect.promise(() => gzipped.arrayBuffer())).byteLength, plainBytes)
        }
        for (const missing of [
          "/v1/graphql/assets/nope.js",
          "/v1/graphql/assets/index.html",
          "/v1/graphql/assets/manifest.json"
        ]) {
          const res = yield* get(missing)
          assert.strictEqual(res.status, 404, missing)
          assert.strictEqual(((yield* Effect.promise(() => res.json())) as { code: string }).code, "NOT_FOUND")
        }
      })
  )
})
