import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { type Address, getAddress, parseEther, zeroAddress } from "viem"
import { QUOTE_ERROR_STATUS, type QuoteErrorReason } from "../../src/exchange-api/quotes/QuoteError.ts"
import { CHANGES_CHANNEL, type ChangeMessage } from "../../src/indexer/IndexerChangeFeed.ts"
import { indexedHead } from "../exchange/support.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { balanceOf, buyWithWeth, createPool, deployToken } from "./chain.ts"
import { chainWith, exchange, query, QuoteServices } from "./support.ts"

/**
 * Every QuoteErrorReason of the spec, each produced for real, with its exact HTTP status and the `{ error, code }`
 * body. This deployment record has no UniversalRouter (a chain where it is not deployed), so universal calldata
 * cannot be generated (ROUTE_MISSING_METHOD_PARAMETERS). RPC_UNAVAILABLE and QUOTE_TIMEOUT have their own set-ups below.
 */
const chainId = 31337

const getQuote = (params: Record<string, string | number | boolean | undefined>) =>
  Effect.flatMap(AnvilChain, (chain) =>
    exchange(
      `/api/v1/quote?${query({ chainId, recipient: chain.accounts[0]!.address, amount: parseEther("1").toString(), ...params })}`
    )
  )

/** POST /api/v1/quote/open with the spec's body fields. */
const quoteOpen = (fields: Record<string, string>) =>
  exchange("/api/v1/quote/open", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ chainId, amount: parseEther("1").toString(), ...fields })
  })

const expectReason = (res: { status: number; body: any }, reason: QuoteErrorReason) => {
  assert.strictEqual(res.body.code, reason, JSON.stringify(res.body))
  assert.strictEqual(res.status, QUOTE_ERROR_STATUS[reason])
  assert.isString(res.body.error)
}

layer(QuoteServices({ timeoutMs: 5000 }, chainWith({ contracts: { universalRouter: zeroAddress } })), {
  timeout: "180 seconds",
  excludeTestServices: true
})("quote errors", (it) => {
  it.effect("input reasons: chain, addresses, amounts", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const c = chain.deployments.contracts
      const pair = { tokenInAddress: c.weth9, tokenOutAddress: c.stablecoin }
      expectReason(yield* getQuote({ ...pair, chainId: "1" }), "CHAIN_NOT_CONFIGURED")
      expectReason(yield* getQuote({ ...pair, chainId: "8453" }), "CHAIN_NOT_CONFIGURED")
      expectReason(yield* getQuote({ ...pair, chainId: "999999" }), "CHAIN_NOT_SUPPORTED")
      expectReason(yield* getQuote({ ...pair, chainId: "mainnet" }), "CHAIN_NOT_SUPPORTED")
      expectReason(yield* getQuote({ ...pair, tokenInAddress: "0x12" }), "INVALID_TOKEN_ADDRESS")
      expectReason(yield* getQuote({ ...pair, tokenOutAddress: "weth" }), "INVALID_TOKEN_ADDRESS")
      expectReason(
        yield* getQuote({ ...pair, tokenOutAddress: c.weth9.toUpperCase().replace("0X", "0x") }),
        "INVALID_TOKEN_ADDRESS"
      )
      for (const amount of ["abc", "0", "-5", "1.5", "1e18", (1n << 256n).toString()]) {
        expectReason(yield* getQuote({ ...pair, amount }), "INVALID_AMOUNT")
      }
      // The threshold: QUOTE_MIN_AMOUNT (1000 base units by default).
      const small = yield* getQuote({ ...pair, amount: "999" })
      expectReason(small, "AMOUNT_TOO_SMALL")
      assert.strictEqual(small.body.details.minimum, "1000")
      // The other branch of the threshold: an exactIn amount at the minimum that buys nothing.
      yield* indexedHead
      const launch = chain.deployments.launches.find((l) => l.canonical)!
      expectReason(
        yield* getQuote({ tokenInAddress: launch.token, tokenOutAddress: c.weth9, amount: "1000" }),
        "AMOUNT_TOO_SMALL"
      )
      // Schema-level failures keep the generic code (not a QuoteErrorReason).
      const noRecipient = yield* exchange(`/api/v1/quote?${query({ chainId, ...pair, amount: "1000000" })}`)
      assert.strictEqual(noRecipient.status, 400)
      assert.strictEqual(noRecipient.body.code, "INVALID_QUERY")
      // A recipient in any case, even a mixed-case one with a wrong EIP-55 checksum, is taken as its lowercase form and
      // the calldata carries its checksummed form (the SDK threw on a bad checksum: a 500 found by npm run fuzz).
      const account = chain.accounts[0]!.address
      const flipAt = [...account].findIndex((ch, i) => i > 1 && /[a-fA-F]/.test(ch))
      const flipped =
        account[flipAt] === account[flipAt]!.toLowerCase()
          ? account[flipAt]!.toUpperCase()
          : account[flipAt]!.toLowerCase()
      const typo = `${account.slice(0, flipAt)}${flipped}${account.slice(flipAt + 1)}`
      assert.notStrictEqual(getAddress(typo.toLowerCase()), typo)
      const calldataOf = (body: any) => JSON.stringify(body).toLowerCase()
      const reference = yield* getQuote({ ...pair, recipient: account })
      assert.strictEqual(reference.status, 200, JSON.stringify(reference.body))
      assert.include(calldataOf(reference.body), account.slice(2).toLowerCase())
      for (const recipient of [typo, account.toLowerCase(), `0x${account.slice(2).toUpperCase()}`]) {
        const ok = yield* getQuote({ ...pair, recipient })
        assert.strictEqual(ok.status, 200, `${recipient}: ${JSON.stringify(ok.body)}`)
        assert.include(calldataOf(ok.body), account.slice(2).toLowerCase())
        const open = yield* quoteOpen({ ...pair, recipient, sender: recipient })
        assert.strictEqual(open.status, 200, `${recipient}: ${JSON.stringify(open.body)}`)
      }
      const routerBalance = yield* getQuote({ ...pair, useRouterBalance: true })
      assert.strictEqual(routerBalance.status, 400)
      assert.strictEqual(routerBalance.body.code, "ROUTER_BALANCE_NEEDS_UNIVERSAL")
    })
  )

  it.effect(
    "token reasons: no contract → TOKEN_NOT_FOUND; a contract without decimals() → TOKEN_DECIMALS_FETCH_FAILED",
    () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        expectReason(
          yield* getQuote({ tokenInAddress: "0x000000000000000000000000000000000000dEaD", tokenOutAddress: c.weth9 }),
          "TOKEN_NOT_FOUND"
        )
        expectReason(
          yield* getQuote({ tokenInAddress: c.weth9, tokenOutAddress: chain.accounts[3]!.address }),
          "TOKEN_NOT_FOUND"
        )
        expectReason(
          yield* getQuote({ tokenInAddress: c.factory, tokenOutAddress: c.weth9 }),
          "TOKEN_DECIMALS_FETCH_FAILED"
        )
        expectReason(
          yield* getQuote({ tokenInAddress: c.weth9, tokenOutAddress: c.positionManager }),
          "TOKEN_DECIMALS_FETCH_FAILED"
        )
      })
  )

  it.effect(
    "routing reasons: NO_POOLS_AVAILABLE, NO_ROUTE, INSUFFICIENT_LIQUIDITY, ROUTE_MISSING_METHOD_PARAMETERS",
    () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        const account = chain.accounts[6]!
        const [embr, cndr] = chain.deployments.launches.filter((l) => l.canonical)
        // A fresh ERC-20 with no pool at all.
        const lonely = yield* deployToken(account, "LONE")
        // Two fresh tokens, each in a pool with a different launch token: X–EMBR–WETH–CNDR–Y is 4 hops, over the limit of 3.
        const x = yield* deployToken(account, "XX")
        const y = yield* deployToken(account, "YY")
        yield* buyWithWeth(account, embr!.token, embr!.fee, parseEther("1"))
        yield* buyWithWeth(account, cndr!.token, cndr!.fee, parseEther("1"))
        yield* createPool(account, x, embr!.token, (yield* balanceOf(embr!.token, account.address)) / 2n)
        yield* createPool(account, y, cndr!.token, (yield* balanceOf(cndr!.token, account.address)) / 2n)
        const head = yield* indexedHead
        const fresh = (params: Record<string, string>) =>
          getQuote(params).pipe(
            Effect.repeat({
              until: (r) => r.body.code !== "NO_POOLS_AVAILABLE" || Number(r.body.blockNumber ?? head) >= head,
              times: 1
            }),
            Effect.delay("200 millis")
          )
        expectReason(yield* getQuote({ tokenInAddress: lonely, tokenOutAddress: c.weth9 }), "NO_POOLS_AVAILABLE")
        expectReason(yield* getQuote({ tokenInAddress: c.stablecoin, tokenOutAddress: lonely }), "NO_POOLS_AVAILABLE")
        const noRoute = yield* fresh({ tokenInAddress: x, tokenOutAddress: y }).pipe(
          Effect.repeat({
            until: (r) => r.body.code === "NO_ROUTE",
            schedule: Schedule.spaced("100 millis"),
            times: 50
          })
        )
        expectReason(noRoute, "NO_ROUTE")
        // Each fresh token does route to its launch token (the pools are indexed and live).
        assert.strictEqual(
          (yield* getQuote({ tokenInAddress: x, tokenOutAddress: embr!.token, amount: "1000000000" })).status,
          200
        )
        // More USDT than the USDT/WETH pool holds.
        expectReason(
          yield* getQuote({
            tokenInAddress: c.weth9,
            tokenOutAddress: c.stablecoin,
            amount: parseEther("1000000000").toString(),
            type: "exactOut"
          }),
          "INSUFFICIENT_LIQUIDITY"
        )
        // A route exists, but this chain's deployment has no UniversalRouter: calldata cannot be generated.
        const ok = yield* getQuote({ tokenInAddress: c.weth9, tokenOutAddress: c.stablecoin })
        assert.strictEqual(ok.status, 200)
        expectReason(
          yield* getQuote({ tokenInAddress: c.weth9, tokenOutAddress: c.stablecoin, routerType: "universal" }),
          "ROUTE_MISSING_METHOD_PARAMETERS"
        )
        void (x as Address)
      })
  )

  it.effect(
    "ROUTE_BUILD_FAILED: corrupt indexed pool state (a price below MIN_SQRT_RATIO), loaded by a full reload, cannot be built into a route",
    () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        const sql = yield* SqlClient.SqlClient
        const launch = chain.deployments.launches.filter((l) => l.canonical)[2]!
        yield* Effect.promise(() => chain.mine(1))
        const head = yield* indexedHead
        yield* sql`UPDATE pool_states SET sqrt_price_x96 = 1 WHERE chain_id = ${chainId} AND pool = ${launch.pool.toLowerCase()}`
        // A batch of an indexer in another process whose pool list did not fit in the NOTIFY payload
        // (src/indexer/IndexerChangeFeed.ts): PoolSync reloads every pool from the tables, the corrupt one included.
        const unnamed: ChangeMessage = {
          kind: "batch",
          origin: "another-process",
          chainId,
          fromBlock: String(head),
          toBlock: String(head),
          pools: 200,
          tokens: 0,
          status: { phase: "live", eventsPerSecond: 0, reorgs: 0, lastError: null, head: String(head) },
          at: Date.now()
        }
        yield* sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${JSON.stringify(unnamed)})`
        const res = yield* getQuote({
          tokenInAddress: c.weth9,
          tokenOutAddress: launch.token,
          amount: parseEther("0.01").toString()
        }).pipe(
          Effect.repeat({
            until: (r) => r.body.code === "ROUTE_BUILD_FAILED",
            schedule: Schedule.spaced("100 millis"),
            times: 100
          })
        )
        expectReason(res, "ROUTE_BUILD_FAILED")
      })
  )
})

layer(QuoteServices({}, chainWith({ rpcUrl: "http://127.0.0.1:9" }), ["exchange"]), {
  timeout: "120 seconds",
  excludeTestServices: true
})("quote errors: RPC down", (it) => {
  it.effect(
    "RPC_UNAVAILABLE: token facts cannot be read (nothing indexed, the RPC refuses connections) → 503 with Retry-After",
    () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        const pair = { tokenInAddress: c.weth9, tokenOutAddress: c.stablecoin }
        const open = yield* getQuote(pair)
        expectReason(open, "RPC_UNAVAILABLE")
        assert.strictEqual(open.headers.get("retry-after"), "1")
        assert.strictEqual(open.body.details.retryAfterSeconds, 1)
        // The partner-less POST route maps the same failure the same way.
        const posted = yield* quoteOpen({ ...pair, recipient: chain.accounts[0]!.address })
        expectReason(posted, "RPC_UNAVAILABLE")
        assert.strictEqual(posted.headers.get("retry-after"), "1")
      })
  )
})

layer(QuoteServices({ timeoutMs: 1, workers: 1 }), { timeout: "120 seconds", excludeTestServices: true })(
  "quote errors: timeout",
  (it) => {
    it.effect("QUOTE_TIMEOUT: with a 1 ms budget, quotes queued behind others on one worker thread are cancelled", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        yield* indexedHead
        const launches = chain.deployments.launches.filter((l) => l.canonical)
        const results = yield* Effect.forEach(
          Array.from({ length: 40 }, (_, i) => i),
          (i) =>
            getQuote({
              tokenInAddress: launches[i % launches.length]!.token,
              tokenOutAddress: c.stablecoin,
              type: i % 2 === 0 ? "exactIn" : "exactOut",
              amount: "1000000000000000"
            }),
          { concurrency: "unbounded" }
        )
        const codes = results.map((r) => (r.status === 200 ? "OK" : r.body.code))
        assert.include(codes, "QUOTE_TIMEOUT")
        for (const r of results) if (r.status !== 200) expectReason(r, "QUOTE_TIMEOUT")
      })
    )
  }
)
