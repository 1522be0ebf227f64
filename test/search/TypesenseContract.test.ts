import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { PoolDocument, TokenDocument } from "../../src/search/SearchDocument.ts"
import { tokenSearch } from "../../src/search/typesense/TypesenseQueries.ts"
import { TypesenseSearchIndex } from "../../src/search/typesense/TypesenseSearchIndex.ts"
import { poolsSchema, tokensSchema } from "../../src/search/typesense/TypesenseSchemas.ts"

/**
 * The Typesense backend against a recorder that answers as the documented Typesense HTTP API does (collections,
 * documents import/delete, multi_search, health). No Typesense server runs on these machines: this checks the
 * requests the official client sends for us (method, path, query, headers, bodies) and how the answers are read.
 */
interface Recorded {
  readonly method: string
  readonly path: string
  readonly query: Record<string, string>
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

const recorder = (respond: (r: Recorded, res: ServerResponse) => void) => {
  const requests: Array<Recorded> = []
  let server: Server | undefined
  return {
    requests,
    start: () =>
      new Promise<string>((resolve) => {
        server = createServer((req, res) => {
          const chunks: Array<Buffer> = []
          req.on("data", (c: Buffer) => chunks.push(c))
          req.on("end", () => {
            const url = new URL(req.url ?? "/", "http://x")
            const r: Recorded = {
              method: req.method ?? "",
              path: url.pathname,
              query: Object.fromEntries(url.searchParams),
              headers: req.headers,
              body: Buffer.concat(chunks).toString()
            }
            requests.push(r)
            respond(r, res)
          })
        })
        server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`))
      }),
    stop: () => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())))
  }
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body))

const token = new TokenDocument({
  id: "0x00000002000000000000000000000000000000aa-31337",
  address: "0x00000002000000000000000000000000000000aa",
  chainId: 31337,
  name: "Pepe",
  symbol: "PEPE",
  decimals: 18,
  creator: "0x00000009000000000000000000000000000000aa",
  launchedAt: 1_750_000_000,
  pool: "0x00000003000000000000000000000000000000aa",
  isLaunch: true,
  priceUsd: 0.001,
  marketCapUsd: 1_000_000,
  volume24hUsd: 5_000,
  liquidityUsd: 99_999,
  holders: 12,
  graduated: false,
  claimed: false,
  image: null
})
const pool = new PoolDocument({
  id: "0x00000003000000000000000000000000000000aa-31337",
  address: "0x00000003000000000000000000000000000000aa",
  chainId: 31337,
  token0: { address: "0x0000000100000000000000000000000000000001", symbol: "WETH", name: "Wrapped Ether" },
  token1: { address: token.address, symbol: "PEPE", name: "Pepe" },
  fee: 10_000,
  tvlUsd: 99_999,
  volume24hUsd: 5_000,
  swapCount: 3,
  createdAt: 1_750_000_000,
  isLaunchPool: true,
  launchToken: token.address,
  graduated: false
})

const settings = (url: string) => ({
  url,
  apiKey: Redacted.make("test-key"),
  collectionPrefix: "fire_",
  timeoutMs: 2_000
})

describe("Typesense backend (recorded contract)", () => {
  it.effect(
    "start: creates a missing collection, migrates an existing one (adds missing fields, re-adds changed types)",
    () =>
      Effect.gen(function* () {
        const existingPools = { ...poolsSchema("fire_"), num_documents: 0, created_at: 1 }
        const fields = existingPools.fields
          .filter((f) => f.name !== "synced_at")
          .map((f) => (f.name === "fee" ? { ...f, type: "string" } : f))
        const rec = recorder((r, res) => {
          if (r.method === "GET" && r.path === "/collections/fire_tokens")
            return json(res, 404, { message: "Not Found" })
          if (r.method === "GET" && r.path === "/collections/fire_pools")
            return json(res, 200, { ...existingPools, fields })
          if (r.method === "POST" && r.path === "/collections")
            return json(res, 201, { ...JSON.parse(r.body), num_documents: 0, created_at: 1 })
          if (r.method === "PATCH") return json(res, 200, JSON.parse(r.body))
          json(res, 500, { message: "unexpected" })
        })
        const url = yield* Effect.promise(rec.start)
        const index = yield* TypesenseSearchIndex.make(settings(url), 1_000)
        yield* index.prepare
        yield* Effect.promise(rec.stop)
        const create = rec.requests.find((r) => r.method === "POST")!
        assert.strictEqual(create.path, "/collections")
        assert.deepStrictEqual(JSON.parse(create.body), JSON.parse(JSON.stringify(tokensSchema("fire_"))))
        const patch = rec.requests.find((r) => r.method === "PATCH")!
        assert.strictEqual(patch.path, "/collections/fire_pools")
        assert.deepStrictEqual(JSON.parse(patch.body), {
          fields: [
            { name: "fee", drop: true },
            { name: "fee", type: "int32" },
            { name: "synced_at", type: "int64" }
          ]
        })
        for (const r of rec.requests) assert.strictEqual(r.headers["x-typesense-api-key"], "test-key")
      })
  )

  it.effect(
    "upsert: documents imported as JSONL with action=upsert, in batches; a rejected document fails the call",
    () =>
      Effect.gen(function* () {
        let reject = false
        const rec = recorder((r, res) => {
          const lines = r.body.split("\n").filter((l) => l !== "")
          const answer = lines.map(() =>
            reject ? { success: false, error: "Field `holders` must be an int32.", code: 400 } : { success: true }
          )
          res
            .writeHead(200, { "content-type": "text/plain; charset=utf-8" })
            .end(answer.map((a) => JSON.stringify(a)).join("\n"))
        })
        const url = yield* Effect.promise(rec.start)
        const index = yield* TypesenseSearchIndex.make(settings(url), 2)
        const tokens = [0, 1, 2].map((i) => new TokenDocument({ ...token, id: `${token.id}${i}`, symbol: `PEPE${i}` }))
        yield* index.upsert(tokens, [pool])
        const imports = rec.requests.filter((r) => r.path.endsWith("/documents/import"))
        // Two token batches (batch size 2 for 3 documents) and one pool batch.
        assert.deepStrictEqual(imports.map((r) => `${r.method} ${r.path}?action=${r.query.action}`).sort(), [
          "POST /collections/fire_pools/documents/import?action=upsert",
          "POST /collections/fire_tokens/documents/import?action=upsert",
          "POST /collections/fire_tokens/documents/import?action=upsert"
        ])
        const sent = imports
          .filter((r) => r.path.includes("tokens"))
          .flatMap((r) => r.body.split("\n").map((l) => JSON.parse(l)))
        assert.deepStrictEqual(
          sent.map((d) => d.symbol),
          ["PEPE0", "PEPE1", "PEPE2"]
        )
        const first = sent[0]
        assert.strictEqual(first.id, `${token.id}0`)
        assert.deepStrictEqual(
          [first.chain_id, first.liquidity_usd, first.is_launch, first.launched_at],
          [31337, 99_999, true, 1_750_000_000]
        )
        assert.closeTo(first.popularity, Math.log10(1 + 99_999 + 5_000), 1e-9)
        assert.notProperty(first, "image", "null optionals are left out")
        const poolSent = JSON.parse(imports.find((r) => r.path.includes("pools"))!.body)
        assert.deepStrictEqual(
          [poolSent.symbols, poolSent.names, poolSent.token1_address],
          ["WETH PEPE", "Wrapped Ether Pepe", token.address]
        )
        reject = true
        const failed = yield* index.upsert([token], []).pipe(Effect.flip)
        assert.strictEqual(failed._tag, "SearchUnavailable")
        assert.include(failed.message, "importing into fire_tokens")
        yield* Effect.promise(rec.stop)
      })
  )

  it.effect("search: one multi_search with the typo rules, filters and sort; answers read back into documents", () =>
    Effect.gen(function* () {
      const rec = recorder((r, res) => {
        if (r.path !== "/multi_search") return json(res, 404, { message: "Not Found" })
        const { searches } = JSON.parse(r.body)
        json(res, 200, {
          results: searches.map((s: any) =>
            s.collection === "fire_tokens"
              ? {
                  found: 7,
                  page: 1,
                  out_of: 100,
                  search_time_ms: 1,
                  hits: [
                    {
                      document: JSON.parse(JSON.stringify({ ...wireToken })),
                      text_match: 578730123365187705,
                      highlights: []
                    }
                  ]
                }
              : {
                  found: 1,
                  page: 1,
                  out_of: 10,
                  search_time_ms: 1,
                  hits: [{ document: wirePool, text_match: 100, highlights: [] }]
                }
          )
        })
      })
      const wireToken = {
        id: token.id,
        address: token.address,
        chain_id: 31337,
        symbol: "PEPE",
        name: "Pepe",
        decimals: 18,
        creator: token.creator,
        launched_at: 1_750_000_000,
        pool: token.pool,
        is_launch: true,
        price_usd: 0.001,
        market_cap_usd: 1_000_000,
        volume_24h_usd: 5_000,
        liquidity_usd: 99_999,
        holders: 12,
        graduated: false,
        claimed: false,
        popularity: 5.02,
        synced_at: 1
      }
      const wirePool = {
        id: pool.id,
        address: pool.address,
        chain_id: 31337,
        symbols: "WETH PEPE",
        names: "Wrapped Ether Pepe",
        token0_address: pool.token0.address,
        token0_symbol: "WETH",
        token0_name: "Wrapped Ether",
        token1_address: token.address,
        token1_symbol: "PEPE",
        token1_name: "Pepe",
        fee: 10_000,
        tvl_usd: 99_999,
        volume_24h_usd: 5_000,
        swap_count: 3,
        created_at: 1_750_000_000,
        is_launch_pool: true,
        launch_token: token.address,
        graduated: false,
        popularity: 5,
        synced_at: 1
      }
      const url = yield* Effect.promise(rec.start)
      const index = yield* TypesenseSearchIndex.make(settings(url), 1_000)
      const base = { q: "pepe coin", chainId: 31337, graduated: false, limit: 20, page: 2 }
      const result = yield* index.search({
        tokens: { ...base, sort: "relevance" },
        pools: { ...base, sort: "liquidity" }
      })
      const [request] = rec.requests
      assert.deepStrictEqual([request!.method, request!.path], ["POST", "/multi_search"])
      const { searches } = JSON.parse(request!.body)
      assert.deepStrictEqual(searches[0], {
        collection: "fire_tokens",
        q: "pepe coin",
        prefix: true,
        num_typos: 2,
        min_len_1typo: 4,
        min_len_2typo: 7,
        typo_tokens_threshold: 100,
        drop_tokens_threshold: 0,
        query_by: "symbol,name",
        query_by_weights: "2,1",
        filter_by: "chain_id:=31337 && graduated:=false",
        sort_by: "_text_match(buckets: 10):desc,popularity:desc",
        page: 2,
        per_page: 20
      })
      assert.deepStrictEqual(
        [searches[1].collection, searches[1].query_by, searches[1].sort_by],
        ["fire_pools", "symbols,names", "tvl_usd:desc,_text_match:desc"]
      )
      assert.deepStrictEqual(result.tokens!.hits[0]!.document, token)
      assert.strictEqual(result.tokens!.total, 7)
      assert.deepStrictEqual(result.pools!.hits[0]!.document, pool)
      yield* Effect.promise(rec.stop)
    })
  )

  it("an address is a filter, never text; a hex or numeric word turns typos off", () => {
    const address = token.address.toUpperCase().replace("0X", "0x")
    const byAddress = tokenSearch("fire_tokens", { q: address, limit: 5, page: 1, sort: "relevance" })
    assert.deepStrictEqual(byAddress, {
      collection: "fire_tokens",
      q: "*",
      filter_by: `address:=\`${token.address}\``,
      page: 1,
      per_page: 5
    })
    assert.strictEqual(
      tokenSearch("fire_tokens", { q: "pepe 2024", limit: 5, page: 1, sort: "relevance" }).num_typos,
      0
    )
    assert.strictEqual(tokenSearch("fire_tokens", { q: "pepe", limit: 5, page: 1, sort: "relevance" }).num_typos, 2)
  })

  it.effect("remove and rebuild delete by filter; counts read num_documents; ping is GET /health", () =>
    Effect.gen(function* () {
      const rec = recorder((r, res) => {
        if (r.method === "DELETE") return json(res, 200, { num_deleted: 1 })
        if (r.path === "/health") return json(res, 200, { ok: true })
        if (r.method === "GET")
          return json(res, 200, {
            ...tokensSchema("fire_"),
            num_documents: r.path.includes("tokens") ? 100_002 : 20_000
          })
        res.writeHead(200, { "content-type": "text/plain" }).end(
          r.body
            .split("\n")
            .map(() => `{"success":true}`)
            .join("\n")
        )
      })
      const url = yield* Effect.promise(rec.start)
      const index = yield* TypesenseSearchIndex.make(settings(url), 1_000)
      yield* index.remove([token.id], [])
      const run = yield* index.rebuild
      yield* run.add([token], [pool])
      yield* run.commit
      const deletes = rec.requests.filter((r) => r.method === "DELETE")
      assert.deepStrictEqual(deletes[0]!.query, { filter_by: `id:[\`${token.id}\`]` })
      assert.strictEqual(deletes[0]!.path, "/collections/fire_tokens/documents")
      const stamp = JSON.parse(rec.requests.find((r) => r.path.endsWith("/import"))!.body.split("\n")[0]!).synced_at
      assert.deepStrictEqual(
        deletes
          .slice(1)
          .map((r) => [r.path, r.query.filter_by])
          .sort(),
        [
          ["/collections/fire_pools/documents", `synced_at:<${stamp}`],
          ["/collections/fire_tokens/documents", `synced_at:<${stamp}`]
        ]
      )
      assert.deepStrictEqual(yield* index.counts, { tokens: 100_002, pools: 20_000 })
      assert.isAtLeast(yield* index.ping, 0)
      assert.isTrue(rec.requests.some((r) => r.method === "GET" && r.path === "/health"))
      yield* Effect.promise(rec.stop)
      // Down: every call is a SearchUnavailable (the routes answer 503), never a defect.
      const down = yield* index.ping.pipe(Effect.flip)
      assert.strictEqual(down._tag, "SearchUnavailable")
      // …which says what failed, for the log and the 503's cause.
      assert.match(down.message, /^health: \S/)
    })
  )
})
