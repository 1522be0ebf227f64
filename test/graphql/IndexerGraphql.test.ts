import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"

const gql = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
  Effect.flatMap(baseUrl("indexer"), (base) =>
    fetchJson(`${base}/v1/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables, operationName })
    })
  )

/** Waits (bounded) until `_meta.ready`: the indexer has caught up with the seeded devnet. */
const caughtUp = gql("{ _meta { ready lastIndexedBlock head phase } }").pipe(
  Effect.map((r) => r.body.data._meta),
  Effect.repeat({ until: (m) => m.ready === true, schedule: Schedule.spaced("50 millis") }),
  Effect.timeout("60 seconds")
)

layer(TestServices(["indexer"]), { timeout: "90 seconds", excludeTestServices: true })(
  "GraphQL over the indexed devnet",
  (it) => {
    it.effect("_meta reports the indexer's status once it caught up", () =>
      Effect.gen(function* () {
        const meta = yield* caughtUp
        assert.isString(meta.lastIndexedBlock)
        assert.strictEqual(meta.phase, "following")
        const full = yield* gql(
          "{ _meta { version database chainId ready lagBlocks eventsPerSecond reorgs skippedLaunches } }"
        )
        assert.strictEqual(full.status, 200)
        assert.strictEqual(full.body.data._meta.database, "up")
        assert.strictEqual(full.body.data._meta.chainId, 31337)
      })
    )

    it.effect("lists launches with big integers as strings and to-one links", () =>
      Effect.gen(function* () {
        yield* caughtUp
        const res = yield* gql(`{ launches(orderBy: blockNumber, orderDirection: desc) {
        items { token creator fee sqrtPriceX96 positionId blockNumber timestamp tokenInfo { symbol decimals totalSupply holderCount }
                poolInfo { address liquidity sqrtPriceX96 token0Info { symbol } token1Info { symbol } } }
        pageInfo { hasNextPage endCursor } } }`)
        assert.strictEqual(res.status, 200, JSON.stringify(res.body.errors))
        const items = res.body.data.launches.items
        assert.isAbove(items.length, 0)
        for (const l of items) {
          assert.match(l.token, /^0x[0-9a-f]{40}$/)
          assert.match(l.sqrtPriceX96, /^\d+$/)
          assert.isString(l.tokenInfo.symbol)
          assert.match(l.tokenInfo.totalSupply, /^\d+$/)
          assert.strictEqual(
            l.poolInfo.address,
            (yield* gql(`{ pool(address: "${l.poolInfo.address.toUpperCase().replace("0X", "0x")}") { address } }`))
              .body.data.pool.address
          )
        }
        const blocks = items.map((l: { blockNumber: string }) => BigInt(l.blockNumber))
        assert.deepStrictEqual(
          blocks,
          [...blocks].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
        )
      })
    )

    it.effect("cursor pagination walks every row once; where filters with AND/OR, in, gt and contains", () =>
      Effect.gen(function* () {
        yield* caughtUp
        const all = (yield* gql(`{ swaps(first: 1000) { items { blockNumber logIndex pool amount0 } } }`)).body.data
          .swaps.items
        assert.isAbove(all.length, 2)
        const seen: Array<string> = []
        let after: string | null = null
        for (let i = 0; i < 1000; i++) {
          const page: any = (yield* gql(
            `query($after: String) { swaps(first: 2, after: $after) { items { blockNumber logIndex } pageInfo { hasNextPage endCursor } } }`,
            { after }
          )).body.data.swaps
          for (const s of page.items) seen.push(`${s.blockNumber}:${s.logIndex}`)
          if (!page.pageInfo.hasNextPage) break
          after = page.pageInfo.endCursor
        }
        assert.deepStrictEqual(
          seen,
          all.map((s: any) => `${s.blockNumber}:${s.logIndex}`)
        )
        const pool = all[0].pool
        const inPoolRes = yield* gql(
          `query($p: String) { swaps(first: 1000, where: { pool: $p }) { items { pool } } }`,
          { p: pool }
        )
        assert.isUndefined(inPoolRes.body.errors, JSON.stringify(inPoolRes.body.errors))
        const inPool = inPoolRes.body.data.swaps.items
        assert.isTrue(inPool.every((s: any) => s.pool === pool))
        assert.strictEqual(inPool.length, all.filter((s: any) => s.pool === pool).length)
        const combinedRes = yield* gql(
          `query($p: String!, $b: BigInt) { swaps(first: 1000, where: { OR: [{ pool: $p }, { blockNumber_gt: $b }], AND: [{ pool_in: [$p] }] }) { items { pool } } }`,
          { p: pool, b: "0" }
        )
        assert.isUndefined(combinedRes.body.errors, JSON.stringify(combinedRes.body.errors))
        const combined = combinedRes.body.data.swaps.items
        assert.strictEqual(combined.length, inPool.length)
        const tokens = (yield* gql(`{ tokens(where: { symbol_contains: "" }) { items { symbol } } }`)).body
        assert.isAbove(tokens.data.tokens.items.length, 0)
      })
    )

    it.effect(
      "cursor pages ordered by a column with NULLs reach every row once, in the one-page order, both directions",
      () =>
        Effect.gen(function* () {
          yield* caughtUp
          // graduatedAt is NULL for every token but the graduated one; fuelCount has ties (0) broken by the key.
          for (const orderBy of ["graduatedAt", "fuelCount"]) {
            for (const orderDirection of ["asc", "desc"]) {
              const onePage = yield* gql(
                `{ tokens(first: 1000, orderBy: ${orderBy}, orderDirection: ${orderDirection}) { items { address graduatedAt } } }`
              )
              assert.isUndefined(onePage.body.errors, JSON.stringify(onePage.body.errors))
              const all = onePage.body.data.tokens.items as Array<{ address: string; graduatedAt: string | null }>
              if (orderBy === "graduatedAt") {
                assert.isTrue(
                  all.some((t) => t.graduatedAt === null) && all.some((t) => t.graduatedAt !== null),
                  JSON.stringify(all)
                )
                // NULLs last ascending, first descending (PostgreSQL's order, the one an index yields).
                assert.strictEqual(all[orderDirection === "asc" ? all.length - 1 : 0]!.graduatedAt, null)
              }
              const seen: Array<string> = []
              let after: string | null = null
              for (let i = 0; i < 100; i++) {
                const res: any = yield* gql(
                  `query($after: String) { tokens(first: 1, after: $after, orderBy: ${orderBy}, orderDirection: ${orderDirection}) {
              items { address } pageInfo { hasNextPage endCursor } } }`,
                  { after }
                )
                assert.isUndefined(res.body.errors, JSON.stringify(res.body.errors))
                const page = res.body.data.tokens
                for (const t of page.items) seen.push(t.address)
                if (!page.pageInfo.hasNextPage) break
                after = page.pageInfo.endCursor
              }
              assert.deepStrictEqual(
                seen,
                all.map((t) => t.address),
                `${orderBy} ${orderDirection}`
              )
            }
          }
        })
    )

    it.effect("first: 5000 is refused with a clear error; first: 1000 is accepted", () =>
      Effect.gen(function* () {
        const res = yield* gql(`{ launches(first: 5000) { items { token } } }`)
        assert.strictEqual(res.body.errors[0].extensions.code, "PAGE_SIZE_OUT_OF_RANGE")
        assert.include(res.body.errors[0].message, "at most 1000".replace("at most ", "and "))
        const ok = yield* gql(`{ launches(first: 1000) { items { token } } }`)
        assert.isUndefined(ok.body.errors)
      })
    )

    it.effect("a subscription POSTed over HTTP is a 400 that points to graphql-ws; a named query beside it runs", () =>
      Effect.gen(function* () {
        const sub = yield* gql("subscription { launches { token } }")
        assert.strictEqual(sub.status, 400)
        assert.strictEqual(sub.body.errors[0].extensions.code, "SUBSCRIPTION_OVER_HTTP")
        assert.include(sub.body.errors[0].message, "graphql-ws")
        assert.isUndefined(sub.body.data)
        // The operation that runs is the one named by operationName, not the document's first.
        const both = "subscription S { launches { token } } query Q { _meta { database } }"
        const named = yield* gql(both, undefined, "Q")
        assert.strictEqual(named.status, 200)
        assert.strictEqual(named.body.data._meta.database, "up")
      })
    )

    it.effect("a deeply nested query and a too costly query are refused before they run (400)", () =>
      Effect.gen(function* () {
        const nested =
          "{ __schema { types { fields { type " + "{ ofType ".repeat(20) + "{ name }" + " }".repeat(20) + " } } } }"
        const deep = yield* gql(nested)
        assert.strictEqual(deep.status, 400)
        assert.strictEqual(deep.body.errors[0].extensions.code, "QUERY_TOO_DEEP")
        const costly =
          yield* gql(`{ a: swaps(first: 1000) { items { poolInfo { token0Info { symbol } token1Info { symbol } } } }
        b: swaps(first: 1000) { items { poolInfo { token0Info { symbol } } } } c: launches(first: 1000) { items { tokenInfo { symbol } poolInfo { address } } }
        d: holders(first: 1000) { items { token } } e: mints(first: 1000) { items { pool } } f: burns(first: 1000) { items { pool } }
        g: transfers(first: 1000) { items { token } } h: ticks(first: 1000) { items { tick } } }`)
        assert.strictEqual(costly.status, 400)
        assert.strictEqual(costly.body.errors[0].extensions.code, "QUERY_TOO_COSTLY")
      })
    )
  }
)
