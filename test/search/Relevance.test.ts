import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { insertCorpus } from "../../scripts/bench/search-corpus.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"
import {
  ALPHAS,
  BASE_PEPE,
  corpus,
  EMBER,
  MOON,
  MOONBAG,
  MOONCAT,
  PEP,
  PEPE,
  PEPE_USDT,
  PEPECOIN,
  PEPPE,
  T2024
} from "./corpus.ts"

/**
 * The behaviour suite of the search routes over the embedded index, on the corpus of corpus.ts written into the
 * indexer's tables of a fresh database. The search service picks it up as a search service running apart from the
 * indexer would: from the indexer checkpoint it has not seen yet.
 */
const get = (path: string) => Effect.flatMap(baseUrl("search"), (base) => fetchJson(`${base}${path}`))
const ok = (path: string) =>
  Effect.map(get(path), (r) => {
    assert.strictEqual(r.status, 200, `${path}: ${JSON.stringify(r.body)}`)
    return r.body
  })
const symbols = (items: ReadonlyArray<any>) => items.map((h) => h.token.symbol)
const poolAddresses = (items: ReadonlyArray<any>) => items.map((h) => h.pool.address)

const loaded = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [{ n }] = (yield* sql`SELECT count(*)::int AS n FROM tokens`) as unknown as [{ n: number }]
  if (n === 0) yield* insertCorpus(sql, corpus)
  yield* ok("/api/v1/search/index").pipe(
    // Complete and caught up with both checkpoints (the index may have loaded the rows before the checkpoints landed).
    Effect.repeat({
      until: (b): boolean =>
        b.documents.tokens === corpus.tokens.length &&
        b.chains.length === 2 &&
        b.chains.every((c: any) => c.searchBlock === "10"),
      schedule: Schedule.spaced("50 millis")
    }),
    Effect.timeout("30 seconds")
  )
})

layer(TestServices(["search"]), { timeout: "120 seconds", excludeTestServices: true })(
  "search relevance (embedded)",
  (it) => {
    it.effect("the index follows the indexer checkpoint; health and introspection report it", () =>
      Effect.gen(function* () {
        yield* loaded
        const health = yield* ok("/api/v1/search/health")
        assert.deepStrictEqual([health.status, health.backend], ["ok", "embedded"])
        assert.deepStrictEqual(health.documents, { tokens: corpus.tokens.length, pools: corpus.pools.length })
        const info = yield* ok("/api/v1/search/index")
        assert.isTrue(info.ready)
        assert.deepStrictEqual(info.source, info.documents)
        assert.deepStrictEqual(
          info.chains.find((c: any) => c.chainId === 31337),
          { chainId: 31337, searchBlock: "10", indexerBlock: "10" }
        )
        assert.match(info.lastUpdateAt, /^\d{4}-\d\d-\d\dT/)
      })
    )

    it.effect("an exact address, any case, returns that token or pool first; pools of a token by liquidity", () =>
      Effect.gen(function* () {
        yield* loaded
        const token = yield* ok(`/api/v1/search/tokens?q=${PEPE.address.toUpperCase().replace("0X", "0x")}`)
        assert.deepStrictEqual(
          [token.total, token.items[0].token.address, token.items[0].match],
          [1, PEPE.address, "address"]
        )
        const pools = yield* ok(`/api/v1/search/pools?q=${PEPE.address}`)
        assert.deepStrictEqual(
          poolAddresses(pools.items),
          [PEPE.pool, PEPE_USDT],
          "the token's pools, most liquid first"
        )
        assert.deepStrictEqual(
          pools.items.map((h: any) => h.match),
          ["token", "token"]
        )
        const mixed = PEPE_USDT.slice(0, 10) + PEPE_USDT.slice(10).toUpperCase()
        const combined = yield* ok(`/api/v1/search?q=${mixed}`)
        assert.deepStrictEqual(
          [combined.pools.items[0].pool.address, combined.pools.items[0].match],
          [PEPE_USDT, "address"]
        )
        assert.strictEqual(combined.tokens.total, 0)
      })
    )

    it.effect("a one-character typo in an address finds nothing; numbers get no typos either", () =>
      Effect.gen(function* () {
        yield* loaded
        // One hex digit changed where no corpus address differs (the corpus numbers addresses in their last digits).
        const typo = PEPE.address.slice(0, 5) + "a" + PEPE.address.slice(6)
        const r = yield* ok(`/api/v1/search?q=${typo}`)
        assert.deepStrictEqual([r.tokens.total, r.pools.total], [0, 0])
        const short = yield* ok(`/api/v1/search?q=${PEPE.address.slice(0, -1)}`)
        assert.deepStrictEqual(
          [short.tokens.total, short.pools.total],
          [0, 0],
          "41 hex digits: not an address, no typo matching"
        )
        assert.deepStrictEqual(symbols((yield* ok("/api/v1/search/tokens?q=2024")).items), ["T2024"])
        assert.strictEqual((yield* ok("/api/v1/search/tokens?q=2025")).total, 0, "2025 is not a typo of 2024")
      })
    )

    it.effect("symbol prefix; typos: 1 from 4 characters, 2 from 7, none below 4", () =>
      Effect.gen(function* () {
        yield* loaded
        const pepe = yield* ok("/api/v1/search/tokens?q=pepe&chainId=31337")
        assert.deepStrictEqual(
          symbols(pepe.items),
          ["PEPE", "PEPECOIN", "PEPPE", "PEP"],
          "PEPPE and PEP are one typo from pepe"
        )
        assert.deepStrictEqual(
          pepe.items.map((h: any) => h.match),
          ["exact", "prefix", "typo", "typo"]
        )
        assert.deepStrictEqual(symbols((yield* ok("/api/v1/search/tokens?q=peppe&chainId=31337")).items).slice(0, 2), [
          "PEPPE",
          "PEPE"
        ])
        assert.include(
          symbols((yield* ok("/api/v1/search/tokens?q=monbag")).items),
          "MOONBAG",
          "6 characters: one deletion"
        )
        assert.include(
          symbols((yield* ok("/api/v1/search/tokens?q=moonbga")).items),
          "MOONBAG",
          "7 characters: a swap is two edits"
        )
        assert.notInclude(
          symbols((yield* ok("/api/v1/search/tokens?q=mnobag")).items),
          "MOONBAG",
          "6 characters: two edits is one too many"
        )
        assert.deepStrictEqual(
          symbols((yield* ok("/api/v1/search/tokens?q=mon")).items),
          [],
          "3 characters: no typo, so moon does not match"
        )
        assert.deepStrictEqual(
          symbols((yield* ok("/api/v1/search/tokens?q=pepe%20frog")).items),
          ["PEPPE"],
          "every word must match (pepe with a typo)"
        )
      })
    )

    it.effect(
      "ranking: exact symbol beats a liquid prefix only when liquidity does not outweigh it; pools by liquidity",
      () =>
        Effect.gen(function* () {
          yield* loaded
          assert.deepStrictEqual(symbols((yield* ok("/api/v1/search/tokens?q=moon")).items), [
            "MOON",
            "MOONBAG",
            "MOONCAT"
          ])
          // PEP (exact symbol, $100) vs PEPE ($5 M, prefix): 4 + 0.5·log10(101) = 5.0 < 2.5 + 0.5·log10(5,000,001) = 5.85
          const pep = yield* ok("/api/v1/search/tokens?q=pep&chainId=31337")
          assert.deepStrictEqual(symbols(pep.items), ["PEPE", "PEPECOIN", "PEP", "PEPPE"])
          assert.isAbove(pep.items[0].score, pep.items[2].score)
          const pools = yield* ok("/api/v1/search/pools?q=pepe&chainId=31337")
          assert.deepStrictEqual(
            poolAddresses(pools.items),
            [PEPE.pool, PEPE_USDT, PEPECOIN.pool, PEPPE.pool, PEP.pool],
            "typo-free by TVL, then typo matches by TVL"
          )
          assert.deepStrictEqual(
            pools.items.map((h: any) => h.pool.tvlUsd),
            [5_000_000, 1_500_000, 1_000_000, 20_000, 100]
          )
        })
    )

    it.effect("short queries (1–2 characters) return the most liquid prefix matches", () =>
      Effect.gen(function* () {
        yield* loaded
        const m = yield* ok("/api/v1/search/tokens?q=m&limit=3")
        assert.deepStrictEqual(symbols(m.items), ["MOONBAG", "MOON", "MOONCAT"])
        const mo = yield* ok("/api/v1/autocomplete?q=Mo&limit=2")
        assert.deepStrictEqual(
          mo.tokens.map((t: any) => t.symbol),
          ["MOONBAG", "MOON"]
        )
        assert.deepStrictEqual(
          mo.pools.map((p: any) => p.label),
          ["WETH/MOONBAG 1%", "WETH/MOON 1%"]
        )
        const p = yield* ok("/api/v1/autocomplete?q=p&chainId=31337&limit=3")
        assert.deepStrictEqual(
          p.tokens.map((t: any) => t.symbol),
          ["PEPE", "PEPECOIN", "PEPPE"]
        )
        assert.strictEqual(MOONCAT.address.length, 42)
      })
    )

    it.effect("limit and pagination: pages are disjoint, in order, with total and hasMore", () =>
      Effect.gen(function* () {
        yield* loaded
        const pages = yield* Effect.forEach([1, 2, 3], (page) =>
          ok(`/api/v1/search/tokens?q=alpha&limit=20&page=${page}`)
        )
        assert.deepStrictEqual(
          pages.map((p) => [p.items.length, p.total, p.hasMore]),
          [
            [20, 45, true],
            [20, 45, true],
            [5, 45, false]
          ]
        )
        const all = pages.flatMap((p) => symbols(p.items))
        assert.deepStrictEqual(
          all,
          ALPHAS.map((_, i) => `ALPHA${45 - i}`),
          "most liquid first across pages"
        )
        assert.strictEqual((yield* ok("/api/v1/search/tokens?q=alpha")).items.length, 20, "default limit 20")
        const browse = yield* ok("/api/v1/search/tokens?sort=newest&limit=2&chainId=31337")
        assert.deepStrictEqual(symbols(browse.items), ["ALPHA45", "ALPHA44"], "no q: everything, in sort order")
      })
    )

    it.effect("filters: chainId, graduated, launchpad; sort by liquidity", () =>
      Effect.gen(function* () {
        yield* loaded
        assert.deepStrictEqual(
          (yield* ok("/api/v1/search/tokens?q=pepe&chainId=8453")).items.map((h: any) => h.token.address),
          [BASE_PEPE.address]
        )
        assert.deepStrictEqual(symbols((yield* ok("/api/v1/search/tokens?q=emb&graduated=true")).items), ["EMBR"])
        assert.deepStrictEqual(symbols((yield* ok("/api/v1/search/tokens?q=emb&graduated=false")).items), ["EMBRS"])
        assert.deepStrictEqual(symbols((yield* ok("/api/v1/search/tokens?q=w&launchpad=false")).items), ["WETH"])
        const byLiquidity = yield* ok("/api/v1/search/tokens?q=moon&sort=liquidity")
        assert.deepStrictEqual(symbols(byLiquidity.items), ["MOONBAG", "MOON", "MOONCAT"])
        assert.strictEqual(
          (yield* ok(`/api/v1/search/pools?q=${EMBER.address}&graduated=true`)).items[0].pool.launchToken,
          EMBER.address
        )
        assert.strictEqual(
          PEP.address.length + MOON.address.length + T2024.address.length + MOONBAG.address.length,
          168
        )
      })
    )

    it.effect("claims (claimed, image) and admin hides reach the index within a poll, without an indexer event", () =>
      Effect.gen(function* () {
        yield* loaded
        const sql = yield* SqlClient.SqlClient
        const before = (yield* ok(`/api/v1/search/tokens?q=${PEPE.address}`)).items[0].token
        assert.deepStrictEqual([before.claimed, before.image], [false, null])
        const [user] =
          (yield* sql`INSERT INTO users (idp_did) VALUES ('wallet:search-test') RETURNING id`) as unknown as [
            { id: string }
          ]
        yield* sql`INSERT INTO token_metadata (chain_id, token_address, creator_id, creator_wallet, name, symbol, image, source)
                 VALUES (31337, ${PEPE.address}, ${user!.id}, '0x0000000900000000000000000000000000000001', 'Pepe', 'PEPE',
                         '/v1/images/abc.webp', 'claim')`
        yield* sql`INSERT INTO token_hides (chain_id, token_address, hidden_by) VALUES (31337, ${MOONCAT.address}, ${user!.id})`
        yield* sql`INSERT INTO token_admin_actions (admin_id, chain_id, token_address, action) VALUES (${user!.id}, 31337, ${MOONCAT.address}, 'hide')`
        const claimed = yield* ok(`/api/v1/search/tokens?q=${PEPE.address}`).pipe(
          Effect.repeat({
            until: (b): boolean => b.items[0].token.claimed === true,
            schedule: Schedule.spaced("50 millis")
          }),
          Effect.timeout("20 seconds")
        )
        assert.strictEqual(claimed.items[0].token.image, "/v1/images/abc.webp")
        assert.deepStrictEqual(
          symbols((yield* ok("/api/v1/search/tokens?q=moon")).items),
          ["MOON", "MOONBAG"],
          "hidden: MOONCAT"
        )
        assert.notInclude(
          poolAddresses((yield* ok("/api/v1/search/pools?q=moon")).items),
          MOONCAT.pool,
          "and its launch pool"
        )
        // Unhide: the row goes, the action is recorded; the token comes back.
        yield* sql`DELETE FROM token_hides WHERE token_address = ${MOONCAT.address}`
        yield* sql`INSERT INTO token_admin_actions (admin_id, chain_id, token_address, action) VALUES (${user!.id}, 31337, ${MOONCAT.address}, 'unhide')`
        yield* ok("/api/v1/search/tokens?q=moon").pipe(
          Effect.repeat({ until: (b): boolean => b.items.length === 3, schedule: Schedule.spaced("50 millis") }),
          Effect.timeout("20 seconds")
        )
      })
    )

    it.effect("bad parameters → 400 with a stable code", () =>
      Effect.gen(function* () {
        yield* loaded
        const cases: ReadonlyArray<readonly [string, string]> = [
          ["/api/v1/search", "INVALID_QUERY"],
          ["/api/v1/search?q=", "INVALID_QUERY"],
          [`/api/v1/search?q=${"x".repeat(201)}`, "INVALID_QUERY"],
          ["/api/v1/search/tokens?q=a&limit=0", "INVALID_QUERY"],
          ["/api/v1/search/tokens?q=a&limit=101", "INVALID_QUERY"],
          ["/api/v1/search/tokens?q=a&page=0", "INVALID_QUERY"],
          ["/api/v1/search/tokens?q=a&limit=abc", "INVALID_QUERY"],
          ["/api/v1/search/tokens?q=a&sort=best", "INVALID_QUERY"],
          ["/api/v1/search/pools?q=a&sort=marketCap", "INVALID_QUERY"],
          ["/api/v1/search/tokens?q=a&chainId=-1", "INVALID_QUERY"],
          ["/api/v1/search/tokens?q=a&graduated=yes", "INVALID_QUERY"],
          ["/api/v1/autocomplete?q=a&limit=21", "INVALID_QUERY"],
          ["/api/v1/search/tokens?q=a&limit=100&page=11", "PAGE_TOO_DEEP"]
        ]
        for (const [path, code] of cases) {
          const r = yield* get(path)
          assert.strictEqual(r.status, 400, path)
          assert.strictEqual(r.body.code, code, `${path}: ${JSON.stringify(r.body)}`)
          assert.isString(r.body.message)
        }
      })
    )
  }
)
