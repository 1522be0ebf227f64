import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { Allowlist } from "../../src/exchange-api/quotes/Allowlist.ts"
import { hashKey, PartnerKeys } from "../../src/exchange-api/quotes/PartnerKeys.ts"
import { indexedHead } from "../exchange/support.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { exchange, postJson, query, QuoteServices } from "./support.ts"

/**
 * Partner keys (spec "Authentication") and the allowlist (spec "Quotes", POST rules) on all four quote routes:
 * missing / invalid / revoked key → 401 `Invalid API key`; the key never read from Authorization; keys stored as
 * sha256 only; per-key rate limits; admin-created keys and revocation; POST /quote enforces the allowlist,
 * /quote/open does not; GET /quote/tokens lists it.
 */
const chainId = 31337
const configured = "fq_config_key_for_partner_acme_0123456789"

const routes = (c: { weth9: string; stablecoin: string }, recipient: string) => {
  const body = {
    chainId,
    tokenInAddress: c.weth9,
    tokenOutAddress: c.stablecoin,
    amount: "1000000000000000",
    recipient
  }
  return [
    (h: Record<string, string>) =>
      exchange(`/api/v1/quote?${query({ ...body, chainId: String(chainId) })}`, { headers: h }),
    (h: Record<string, string>) => postJson("/api/v1/quote", body, h),
    (h: Record<string, string>) => postJson("/api/v1/quote/open", body, h),
    (h: Record<string, string>) => exchange(`/api/v1/quote/tokens?chainId=${chainId}`, { headers: h })
  ] as const
}

/**
 * What each route answers once a key is accepted, in `routes` order. POST /quote applies the allowlist after the key,
 * so its TOKEN_NOT_PERMITTED proves the key passed (an unconfigured allowlist permits no token at all).
 */
const passed = (c: { weth9: string; stablecoin: string }, allowlisted: ReadonlyArray<string>) => {
  const quoted = (res: { status: number; body: any }) => {
    assert.strictEqual(res.status, 200, JSON.stringify(res.body))
    assert.strictEqual(res.body.chainId, chainId)
    assert.isTrue(BigInt(res.body.amountOut) > 0n, JSON.stringify(res.body))
  }
  const offList = [c.weth9, c.stablecoin].map((a) => a.toLowerCase()).filter((a) => !allowlisted.includes(a))
  return [
    quoted,
    (res: { status: number; body: any }) => {
      assert.strictEqual(res.status, 400, JSON.stringify(res.body))
      assert.strictEqual(res.body.code, "TOKEN_NOT_PERMITTED")
      assert.deepStrictEqual(res.body.details, { addresses: offList })
    },
    quoted,
    (res: { status: number; body: any }) => {
      assert.strictEqual(res.status, 200, JSON.stringify(res.body))
      assert.deepStrictEqual(
        res.body.tokens.map((t: { address: string }) => t.address),
        allowlisted
      )
    }
  ] as const
}

/** Quotes read the indexed pools: wait (bounded) until the quote engine routes the pair, i.e. GET /quote stops 404ing. */
const quotable = (c: { weth9: string; stablecoin: string }, headers: Record<string, string>) =>
  Effect.andThen(
    indexedHead,
    exchange(
      `/api/v1/quote?${query({ chainId, tokenInAddress: c.weth9, tokenOutAddress: c.stablecoin, amount: "1000000000000000" })}`,
      { headers }
    ).pipe(
      Effect.repeat({ until: (r) => r.status !== 404, schedule: Schedule.spaced("50 millis") }),
      Effect.timeout("30 seconds")
    )
  )

layer(
  QuoteServices({
    apiKeys: [{ partner: "acme", key: configured }],
    allowlist: new Map([[chainId, ["0x5fbdb2315678afecb367f032d93f642f64180aa3"]]]),
    rateLimit: { limit: 1000, windowSeconds: 60 },
    timeoutMs: 5000,
    // The admin side below is another PartnerKeys over the same table (as `npm run quote-admin` is another
    // process): the server's copy refreshes on every request here, so changes show at once.
    keysRefreshMs: 0
  }),
  { timeout: "120 seconds", excludeTestServices: true }
)("partner keys and allowlist", (it) => {
  it.effect("missing, invalid, Bearer-only → 401 Invalid API key on every quote route; the configured key passes", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const c = chain.deployments.contracts
      yield* quotable(c, { "x-api-key": configured })
      const expected = passed(c, ["0x5fbdb2315678afecb367f032d93f642f64180aa3"])
      for (const [i, route] of routes(c, chain.accounts[0]!.address).entries()) {
        for (const headers of [
          {},
          { "x-api-key": "nope" },
          { authorization: `Bearer ${configured}` },
          { "x-api-key": "" }
        ] as Array<Record<string, string>>) {
          const res = yield* route(headers)
          assert.strictEqual(res.status, 401, JSON.stringify(headers))
          assert.strictEqual(res.body.error, "Invalid API key")
          assert.strictEqual(res.body.code, "INVALID_API_KEY")
        }
        const ok = yield* route({ "x-api-key": configured })
        expected[i]!(ok)
        assert.strictEqual(ok.headers.get("ratelimit-limit"), "1000")
      }
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ keyHash: string; partner: string }>`SELECT key_hash, partner FROM quote_partner_keys`
      assert.deepStrictEqual(
        rows.map((r) => [r.keyHash, r.partner]),
        [[hashKey(configured), "acme"]]
      )
      const dump = JSON.stringify(yield* sql`SELECT * FROM quote_partner_keys`)
      assert.notInclude(dump, configured.slice(10))
    })
  )

  it.effect("admin keys: created for a partner with their own limit (429 past it), revoked → 401", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const keys = yield* PartnerKeys
      const { key, keyHash } = yield* keys.create("globex", { limit: 2, windowSeconds: 60 })
      assert.strictEqual(keyHash, hashKey(key))
      const tokens = routes(chain.deployments.contracts, chain.accounts[0]!.address)[3]
      assert.strictEqual((yield* tokens({ "x-api-key": key })).status, 200)
      const second = yield* tokens({ "x-api-key": key })
      assert.strictEqual(second.status, 200)
      assert.strictEqual(second.headers.get("ratelimit-remaining"), "0")
      const third = yield* tokens({ "x-api-key": key })
      assert.strictEqual(third.status, 429)
      assert.strictEqual(third.body.code, "RATE_LIMITED")
      // Another key has its own window.
      assert.strictEqual((yield* tokens({ "x-api-key": configured })).status, 200)
      assert.strictEqual(yield* keys.revoke(key.slice(0, 10)), 1)
      assert.strictEqual((yield* tokens({ "x-api-key": key })).status, 401)
      const listed = yield* keys.list
      assert.isNotNull(listed.find((r) => r.partner === "globex")!.revokedAt)
    }).pipe(Effect.provide(PartnerKeys.layer))
  )

  it.effect(
    "allowlist: POST /quote rejects off-list tokens with details.addresses; /quote/open quotes them; /quote/tokens lists it",
    () =>
      Effect.gen(function* () {
        // Quotes, token symbols and /pools/admitted read the indexed pools: wait until the indexer has the head.
        yield* indexedHead
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        const h = { "x-api-key": configured }
        // …and until the quote engine holds the indexed pool state (its token symbols come from it).
        yield* exchange(`/api/v1/quote/tokens?chainId=${chainId}`, { headers: h }).pipe(
          Effect.repeat({
            until: (r) => r.body.tokens?.[0]?.symbol === "WETH",
            schedule: Schedule.spaced("50 millis")
          }),
          Effect.timeout("30 seconds")
        )
        const body = {
          chainId,
          tokenInAddress: c.weth9,
          tokenOutAddress: c.stablecoin,
          amount: "1000000000000000",
          recipient: chain.accounts[0]!.address
        }
        const off = yield* postJson("/api/v1/quote", body, h)
        assert.strictEqual(off.status, 400)
        assert.strictEqual(off.body.error, "Token not permitted by allowlist")
        assert.deepStrictEqual(off.body.details, { addresses: [c.stablecoin.toLowerCase()] })
        const open = yield* postJson("/api/v1/quote/open", body, h)
        assert.strictEqual(open.status, 200, JSON.stringify(open.body))
        assert.isFalse(open.body.meta.allowlistApplied)
        assert.isUndefined(open.body.methodParameters)
        const listed = yield* exchange(`/api/v1/quote/tokens?chainId=${chainId}`, { headers: h })
        assert.deepStrictEqual(listed.body, {
          chainId,
          tokens: [{ address: c.weth9.toLowerCase(), symbol: "WETH", decimals: 18 }]
        })
        assert.strictEqual((yield* exchange("/api/v1/quote/tokens", { headers: h })).status, 400)
        assert.strictEqual(
          (yield* exchange("/api/v1/quote/tokens?chainId=1", { headers: h })).body.code,
          "CHAIN_NOT_CONFIGURED"
        )
        // /pools/admitted applies the same list: the WETH/USDT pool is out while USDT is off it.
        const admitted = () =>
          exchange(`/api/v1/pools/admitted?tokenA=${c.weth9}&tokenB=${c.stablecoin}`).pipe(
            Effect.map((r) => r.body.pools[0])
          )
        const out = yield* admitted()
        assert.isFalse(out.admitted)
        assert.deepStrictEqual(out.reasons, ["a token is not on the quote allowlist"])
        // Admin adds the stablecoin: POST /quote now answers, with allowlistApplied; the pool is admitted.
        const allowlist = yield* Allowlist
        yield* allowlist.add(chainId, [c.stablecoin])
        assert.isTrue((yield* admitted()).admitted)
        const on = yield* postJson("/api/v1/quote", body, h)
        assert.strictEqual(on.status, 200, JSON.stringify(on.body))
        assert.isTrue(on.body.meta.allowlistApplied)
        assert.match(on.body.transaction.callData, /^0x/u)
        assert.strictEqual(yield* allowlist.remove(chainId, [c.stablecoin]), 1)
        assert.strictEqual((yield* postJson("/api/v1/quote", body, h)).status, 400)
      }).pipe(Effect.provide(Allowlist.layer))
  )
})

layer(
  // Waiting for the pair to be quotable polls GET /quote: a window no test reaches.
  QuoteServices({ openWithoutKeys: true, openRateLimit: { limit: 100_000, windowSeconds: 60 } }),
  { timeout: "120 seconds", excludeTestServices: true }
)("no partner key configured, QUOTE_OPEN on (the embedded devnet's default)", (it) => {
  it.effect("every quote route passes without a key (local development)", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const c = chain.deployments.contracts
      yield* quotable(c, {})
      const expected = passed(c, [])
      for (const [i, route] of routes(c, chain.accounts[0]!.address).entries()) {
        expected[i]!(yield* route({}))
      }
    })
  )
})

/** Issue 23 M2: revoking the only key (the leak procedure of docs/SECURITY.md) must not open the routes to everyone. */
layer(QuoteServices({ openWithoutKeys: false, keysRefreshMs: 0 }, undefined, ["exchange"]), {
  timeout: "120 seconds",
  excludeTestServices: true
})("no partner key active, QUOTE_OPEN off (production's default)", (it) => {
  it.effect(
    "every quote route fails closed: 401 INVALID_API_KEY, before a key exists and after the only one is revoked",
    () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const keys = yield* PartnerKeys
        const all = routes(chain.deployments.contracts, chain.accounts[0]!.address)
        const refusedEverywhere = Effect.gen(function* () {
          for (const route of all) {
            const res = yield* route({})
            assert.strictEqual(res.status, 401, JSON.stringify(res.body))
            assert.strictEqual(res.body.code, "INVALID_API_KEY")
          }
        })
        yield* refusedEverywhere
        const { key } = yield* keys.create("initech")
        assert.strictEqual((yield* all[3]({ "x-api-key": key })).status, 200)
        assert.strictEqual(yield* keys.revoke(key.slice(0, 10)), 1)
        yield* refusedEverywhere
      }).pipe(Effect.provide(PartnerKeys.layerPassive))
  )
})

layer(
  QuoteServices({ openWithoutKeys: true, openRateLimit: { limit: 2, windowSeconds: 600 } }, undefined, ["exchange"]),
  { timeout: "120 seconds", excludeTestServices: true }
)("no partner key active, QUOTE_OPEN on", (it) => {
  it.effect("open routes are limited per client IP (QUOTE_OPEN_RATE_LIMIT): 429 past it", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const tokens = routes(chain.deployments.contracts, chain.accounts[0]!.address)[3]
      const first = yield* tokens({})
      assert.strictEqual(first.status, 200, JSON.stringify(first.body))
      assert.strictEqual(first.headers.get("ratelimit-limit"), "2")
      assert.strictEqual((yield* tokens({})).status, 200)
      const third = yield* tokens({})
      assert.strictEqual(third.status, 429, JSON.stringify(third.body))
      assert.strictEqual(third.body.code, "RATE_LIMITED")
    })
  )
})
