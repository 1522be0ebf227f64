import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type Client, createClient } from "graphql-ws"
import WebSocket from "ws"
import { GraphqlConfig } from "../../src/indexer/graphql/GraphqlConfig.ts"
import { GraphqlPoolLive } from "../../src/indexer/graphql/GraphqlDatabase.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"

// Read by the indexer service as it starts (the app reads them from the environment the same way).
process.env.GRAPHQL_TABLE_SIZES_TTL_MS = "0"
process.env.GRAPHQL_POOL_SIZE = "3"
process.env.GRAPHQL_STATEMENT_TIMEOUT_MS = "4000"
process.env.GRAPHQL_WS_MAX_SOCKETS_PER_IP = "4"
process.env.GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_SOCKET = "5"

/** Each test is its own caller (TRUST_PROXY, one hop): per-IP limits of one do not reach the others. */
let nextCaller = 1
const newCaller = () => `198.51.100.${nextCaller++}`

const gql = (query: string, variables?: Record<string, unknown>, caller = "203.0.113.250") =>
  Effect.flatMap(baseUrl("indexer"), (base) =>
    fetchJson(`${base}/v1/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": caller },
      body: JSON.stringify({ query, variables })
    })
  )

const codes = (body: any): Array<string> => (body.errors ?? []).map((e: any) => e.extensions?.code)

const wsUrl = Effect.map(baseUrl("indexer"), (base) => `${base.replace(/^http/, "ws")}/v1/graphql`)

/** Opens a raw WebSocket as `caller`; resolves with the upgrade's outcome (open, or the HTTP status refusing it). */
const openSocket = (url: string, caller: string) =>
  new Promise<{ ws: WebSocket; status: number }>((resolve, reject) => {
    const ws = new WebSocket(url, "graphql-transport-ws", { headers: { "x-forwarded-for": caller } })
    ws.once("open", () => resolve({ ws, status: 101 }))
    ws.once("unexpected-response", (_req, res) => resolve({ ws, status: res.statusCode ?? 0 }))
    ws.once("error", reject)
  })

const wsClientAs = (url: string, caller: string): Client =>
  createClient({
    url,
    lazy: false,
    retryAttempts: 0,
    webSocketImpl: class extends WebSocket {
      constructor(address: string, protocols?: string | Array<string>) {
        super(address, protocols, { headers: { "x-forwarded-for": caller } })
      }
    }
  })

/** Issue 23, H1: one unauthenticated caller cannot make the indexer's GraphQL do unbounded work or hold its database. */
layer(TestServices(["indexer"], { trustProxy: true }), { timeout: "180 seconds", excludeTestServices: true })(
  "GraphQL abuse",
  (it) => {
    it.effect("`first` given as a variable default is costed like a literal", () =>
      Effect.gen(function* () {
        const lists = Array.from({ length: 11 }, (_, i) => `a${i}: swaps(first: $n) { items { txHash } }`).join(" ")
        const byDefault = yield* gql(`query($n: Int = 1000) { ${lists} }`, undefined, newCaller())
        assert.strictEqual(byDefault.status, 400, JSON.stringify(byDefault.body).slice(0, 300))
        assert.deepStrictEqual(codes(byDefault.body), ["QUERY_TOO_COSTLY"])
        const sent = yield* gql(`query($n: Int = 1) { ${lists} }`, { n: 1000 }, newCaller())
        assert.deepStrictEqual(codes(sent.body), ["QUERY_TOO_COSTLY"])
        const small = yield* gql(`query($n: Int = 2) { ${lists} }`, undefined, newCaller())
        assert.strictEqual(small.status, 200, JSON.stringify(small.body.errors))
      })
    )

    it.effect("aliases and top-level fields are capped per operation", () =>
      Effect.gen(function* () {
        const aliases = Array.from(
          { length: 1_900 },
          (_, i) => `s${i}:swaps(first:1,where:{txHash_contains:"zz"}){items{txHash}}`
        )
        // The issue's probe, within the 128 KiB body limit: 1,900 scans in one request, ~38,000 tokens. It is refused
        // by the token cap while it is parsed (Limits.ts MAX_TOKENS), before the alias count could see it.
        const probe = yield* gql(`{${aliases.join(" ")}}`, undefined, newCaller())
        assert.strictEqual(probe.status, 400)
        assert.deepStrictEqual(codes(probe.body), ["QUERY_TOO_LARGE"])
        const many = yield* gql(`{${aliases.slice(0, 40).join(" ")}}`, undefined, newCaller())
        assert.strictEqual(many.status, 400)
        assert.include(codes(many.body), "TOO_MANY_ALIASES")
        const leaves = Array.from({ length: 40 }, (_, i) => `k${i}: skippedLaunches`).join(" ")
        const counts = yield* gql(`{ _meta { ${leaves} } }`, undefined, newCaller())
        assert.strictEqual(counts.status, 400)
        assert.include(codes(counts.body), "TOO_MANY_ALIASES")
        const roots =
          "_meta { version } launches(first: 1) { items { token } } tokens(first: 1) { items { address } } " +
          "pools(first: 1) { items { address } } swaps(first: 1) { items { txHash } } mints(first: 1) { items { txHash } } " +
          "burns(first: 1) { items { txHash } } positions(first: 1) { items { tokenId } } holders(first: 1) { items { token } } " +
          "ticks(first: 1) { items { tick } } fuelEvents(first: 1) { items { txHash } } graduations(first: 1) { items { txHash } } " +
          "feeClaims(first: 1) { items { txHash } } transfers(first: 1) { items { txHash } } poolCandles(first: 1) { items { pool } } " +
          "tokenCandles(first: 1) { items { token } }"
        const wide = yield* gql(`{ ${roots} }`, undefined, newCaller())
        assert.strictEqual(wide.status, 400, JSON.stringify(wide.body).slice(0, 300))
        assert.deepStrictEqual(codes(wide.body), ["TOO_MANY_ROOT_FIELDS"])
      })
    )

    it.effect("a `_contains` filter is priced by the rows of the table it scans", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO ticks (chain_id, pool, tick, liquidity_gross, liquidity_net)
        SELECT 31337, '0x000000000000000000000000000000000000feed', g, 1, 1 FROM generate_series(1, 300000) g`
        yield* sql`ANALYZE ticks`
        // 300,000 rows: 3,000 per scan. One is within the budget, four are not, whatever their `first`.
        const scan = (alias: string) => `${alias}: ticks(first: 1, where: { pool_contains: "beef" }) { items { tick } }`
        const one = yield* gql(`{ ${scan("a")} }`, undefined, newCaller())
        assert.strictEqual(one.status, 200, JSON.stringify(one.body.errors))
        assert.deepStrictEqual(one.body.data.a.items, [])
        const four = yield* gql(`{ ${["a", "b", "c", "d"].map(scan).join(" ")} }`, undefined, newCaller())
        assert.strictEqual(four.status, 400)
        assert.deepStrictEqual(codes(four.body), ["QUERY_TOO_COSTLY"])
        // Nested in OR, through a variable: the same price.
        const nested = yield* gql(
          `query($w: TickFilter = { OR: [{ tick: 1 }, { pool_contains: "beef" }] }) {
        ${["a", "b", "c", "d"].map((a) => `${a}: ticks(first: 1, where: $w) { items { tick } }`).join(" ")} }`,
          undefined,
          newCaller()
        )
        assert.deepStrictEqual(codes(nested.body), ["QUERY_TOO_COSTLY"])
        yield* sql`DELETE FROM ticks WHERE pool = '0x000000000000000000000000000000000000feed'`
      })
    )

    it.effect("GraphQL runs on its own few connections, each with a statement timeout", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const caller = newCaller()
        // Twelve list queries at once: they queue for GraphQL's connections, never for the shared pool's.
        const results = yield* Effect.all(
          Array.from({ length: 12 }, (_, i) =>
            gql(`{ swaps(first: ${i + 1}) { items { txHash } } }`, undefined, caller)
          ),
          { concurrency: "unbounded" }
        )
        for (const r of results) assert.strictEqual(r.status, 200, JSON.stringify(r.body.errors))
        const sessions = yield* sql<{ name: string }>`SELECT application_name AS name FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'fire-api-graphql'`
        assert.isAbove(sessions.length, 0, "GraphQL's statements run on connections of its own")
        assert.isAtMost(sessions.length, 3)
        // Those connections start with the statement timeout: PostgreSQL cancels a statement past it.
        const timeout = yield* Effect.flatMap(
          SqlClient.SqlClient,
          (graphqlSql) => graphqlSql<{ statementTimeout: string }>`SHOW statement_timeout`
        ).pipe(Effect.provide(GraphqlPoolLive.pipe(Layer.provide(GraphqlConfig.layer))))
        assert.strictEqual(timeout[0]!.statementTimeout, "4s")
      })
    )

    it.effect("a client IP past GRAPHQL_RATE_LIMIT gets 429 RATE_LIMITED", () =>
      Effect.gen(function* () {
        const caller = newCaller()
        const statuses: Array<number> = []
        for (let i = 0; i < 301; i++) statuses.push((yield* gql("{ __typename }", undefined, caller)).status)
        assert.deepStrictEqual(
          statuses.slice(0, 300).filter((s) => s !== 200),
          []
        )
        const refused = yield* gql("{ __typename }", undefined, caller)
        assert.strictEqual(refused.status, 429)
        assert.strictEqual(refused.body.code, "RATE_LIMITED")
        assert.isString(refused.headers.get("retry-after"))
        // Another caller is not affected.
        assert.strictEqual((yield* gql("{ __typename }", undefined, newCaller())).status, 200)
      })
    )

    it.effect("graphql-ws: sockets per client IP and operations per socket are capped", () =>
      Effect.gen(function* () {
        const url = yield* wsUrl
        const caller = newCaller()
        const opened = yield* Effect.promise(() =>
          Promise.all(Array.from({ length: 4 }, () => openSocket(url, caller)))
        )
        assert.deepStrictEqual(
          opened.map((o) => o.status),
          [101, 101, 101, 101]
        )
        const fifth = yield* Effect.promise(() => openSocket(url, caller))
        assert.strictEqual(fifth.status, 429)
        assert.strictEqual(
          (yield* Effect.promise(() => openSocket(url, newCaller()))).status,
          101,
          "another caller still connects"
        )
        // A closed socket frees its slot.
        yield* Effect.promise(
          () =>
            new Promise<void>((resolve) => {
              opened[0]!.ws.once("close", () => resolve())
              opened[0]!.ws.close()
            })
        )
        const again = yield* Effect.promise(() => openSocket(url, caller))
        assert.strictEqual(again.status, 101)
        for (const o of [...opened.slice(1), again]) o.ws.terminate()

        const client = wsClientAs(url, newCaller())
        const results: Array<any> = []
        const disposers = Array.from({ length: 6 }, (_, i) =>
          client.subscribe(
            { query: `subscription { swaps(pool: "0x${String(i).padStart(40, "0")}") { txHash } }` },
            {
              next: (value) => results.push(value),
              error: (error) => results.push({ error }),
              complete: () => {}
            }
          )
        )
        const sixth = yield* Effect.promise(
          () =>
            new Promise<any>((resolve, reject) => {
              const timer = setTimeout(
                () => reject(new Error(`the 6th subscription was not refused in 10 s: ${JSON.stringify(results)}`)),
                10_000
              )
              const poll = setInterval(() => {
                if (results.length > 0) {
                  clearTimeout(timer)
                  clearInterval(poll)
                  resolve(results[0])
                }
              }, 10)
            })
        )
        assert.strictEqual(sixth.errors?.[0]?.extensions?.code, "TOO_MANY_SUBSCRIPTIONS", JSON.stringify(sixth))
        for (const dispose of disposers) dispose()
        yield* Effect.promise(() => client.dispose() as Promise<void>)
      })
    )
  }
)
