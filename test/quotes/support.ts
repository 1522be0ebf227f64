import { assert } from "@effect/vitest"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer } from "effect"
import { type Address, encodeFunctionData, parseAbi } from "viem"
import { servicesLayer } from "../../layers/App.ts"
import { Chain } from "../../src/platform/Chain.ts"
import type { Deployments } from "../../src/platform/Deployments.ts"
import { makePublicClient } from "../../layers/PublicClient.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { Listening } from "../../src/platform/http/Serve.ts"
import { QuoteConfig, type QuoteSettings } from "../../src/exchange-api/quotes/QuoteConfig.ts"
import { defaultRateLimitSettings } from "../../src/platform/ratelimit/RateLimitConfig.ts"
import { RateLimitConfig } from "../../src/platform/ratelimit/RateLimiter.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { baseUrl, fetchJson, testSettings } from "../support/TestServer.ts"

/** Exchange + indexer (as `npm start` runs them) over a fresh database and anvil, with the given quote settings. */
export const QuoteServices = (
  quote: Partial<QuoteSettings> = {},
  chainLayer: Layer.Layer<Chain | AnvilChain> = AnvilChain.chainLayer,
  services: ReadonlyArray<"exchange" | "indexer"> = ["exchange", "indexer"]
) =>
  servicesLayer(services).pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        AppConfig.layerWith(testSettings()),
        Listening.layer,
        RateLimitConfig.layerWith({ ...defaultRateLimitSettings, store: "memory" }),
        // QUOTE_OPEN is on here (no keys, embedded devnet): its per-IP window (60 a minute by default) is one no test
        // means to reach unless it sets its own.
        QuoteConfig.layerWith({ workers: 1, openRateLimit: { limit: 1_000_000, windowSeconds: 60 }, ...quote })
      )
    ),
    Layer.provideMerge(Layer.mergeAll(TestDatabase, chainLayer)),
    Layer.provideMerge(NodeServices.layer)
  )

export const exchange = (path: string, init?: RequestInit) =>
  Effect.flatMap(baseUrl("exchange"), (base) => fetchJson(`${base}${path}`, init))

export const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  exchange(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body)
  })

export const query = (params: Record<string, string | number | boolean | undefined>) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]]))
  ).toString()

export const quoterAbi = parseAbi([
  "function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)",
  "function quoteExactOutput(bytes path, uint256 amountOut) returns (uint256 amountIn, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)"
])
export const erc20 = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function approve(address, uint256) returns (bool)",
  "function transfer(address, uint256) returns (bool)"
])
export const wethAbi = parseAbi(["function deposit() payable", "function balanceOf(address) view returns (uint256)"])
export const permit2Abi = parseAbi([
  "function approve(address token, address spender, uint160 amount, uint48 expiration)"
])

/** Uniswap v3 path bytes: token (20) fee (3) token ... (reversed for exactOut, as QuoterV2 expects). */
export const encodePath = (tokens: ReadonlyArray<string>, fees: ReadonlyArray<number>) =>
  ("0x" +
    tokens
      .map((t, i) => t.slice(2).toLowerCase() + (i < fees.length ? fees[i]!.toString(16).padStart(6, "0") : ""))
      .join("")) as `0x${string}`

/** QuoterV2 on the route of one quoted path (eth_call at the latest block). */
export const quoterAmount = (
  quoter: Address,
  type: "exactIn" | "exactOut",
  route: ReadonlyArray<any>,
  amount: bigint
) =>
  Effect.gen(function* () {
    const chain = yield* AnvilChain
    const tokens = [route[0].tokenIn.address, ...route.map((h: any) => h.tokenOut.address)]
    const fees = route.map((h: any) => h.fee)
    const path = type === "exactIn" ? encodePath(tokens, fees) : encodePath([...tokens].reverse(), [...fees].reverse())
    const data = encodeFunctionData({
      abi: quoterAbi,
      functionName: type === "exactIn" ? "quoteExactInput" : "quoteExactOutput",
      args: [path, amount]
    })
    const { data: out } = yield* Effect.promise(() => chain.publicClient.call({ to: quoter, data }))
    return BigInt(out!.slice(0, 66))
  })

/**
 * Each route of a quote against QuoterV2 on its own path and amount; the totals are the routes' sums. Returns how many
 * routes were compared (0 for a split whose routes share a pool, which QuoterV2 cannot check).
 */
export const matchesQuoter = (body: any, quoter: `0x${string}`) =>
  Effect.gen(function* () {
    const pools = body.route.flatMap((r: any) => r.map((h: any) => h.address))
    // Routes of a split that share a pool are simulated one after the other: QuoterV2 can only check disjoint ones.
    const disjoint = new Set(pools).size === pools.length
    let sumIn = 0n
    let sumOut = 0n
    for (const route of body.route) {
      const amountIn = BigInt(route[0].amountIn)
      const amountOut = BigInt(route.at(-1).amountOut)
      sumIn += amountIn
      sumOut += amountOut
      if (!disjoint) continue
      if (body.type === "exactIn")
        assert.strictEqual(yield* quoterAmount(quoter, "exactIn", route, amountIn), amountOut, body.routeString)
      else assert.strictEqual(yield* quoterAmount(quoter, "exactOut", route, amountOut), amountIn, body.routeString)
    }
    assert.strictEqual(sumIn.toString(), body.amountIn)
    assert.strictEqual(sumOut.toString(), body.amountOut)
    assert.strictEqual(body.type === "exactIn" ? body.amountIn : body.amountOut, body.amount)
    return disjoint ? (body.route.length as number) : 0
  })

/** The app's Chain over the file's anvil, with a changed deployment record and/or another RPC URL for the app. */
export const chainWith = (options: {
  readonly contracts?: Partial<Deployments["contracts"]>
  readonly rpcUrl?: string
}) =>
  Layer.effect(
    Chain,
    Effect.map(AnvilChain, (chain) =>
      Chain.of({
        chainId: chain.chainId,
        rpcUrl: options.rpcUrl ?? chain.rpcUrl,
        publicClient:
          options.rpcUrl === undefined ? chain.publicClient : makePublicClient(chain.chainId, options.rpcUrl),
        deployments: { ...chain.deployments, contracts: { ...chain.deployments.contracts, ...options.contracts } },
        mode: "devnet"
      })
    )
  ).pipe(Layer.provideMerge(AnvilChain.layer))
