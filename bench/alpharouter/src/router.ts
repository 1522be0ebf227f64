/**
 * AlphaRouter over a snapshot, with no network: chain 1 pretended (see remap.ts), every provider in memory
 * (providers.ts), V3 only (no V2, V4 or mixed routes), no route cache, no calldata (no swapConfig, so no simulation).
 * The routing settings are the SOR's own defaults for chain 1 (pool selection, up to 3 hops, up to 7 splits in 5 %
 * steps): the baseline is AlphaRouter as Uniswap configures it, not tuned to our pools.
 */
import { createRequire } from "node:module"
import type { AlphaRouter as AlphaRouterT, RouteWithValidQuote, SwapRoute } from "@uniswap/smart-order-router"
import { CHAIN_ID, makeRemap } from "./remap.ts"
import { buildWorld, poolKey } from "./pools.ts"
import {
  type QuoterClock,
  emptyV2PoolProvider,
  emptyV4PoolProvider,
  gasPriceProvider,
  poolProvider,
  quoteProvider,
  subgraphProvider,
  tokenPropertiesProvider,
  tokenProvider,
  tokenValidatorProvider
} from "./providers.ts"
import type { RequestJson, ResultJson, RolesJson, RouteJson, SnapshotJson } from "./snapshot.ts"

const require = createRequire(import.meta.url)
const sor = require("@uniswap/smart-order-router") as typeof import("@uniswap/smart-order-router")
const core = require("@uniswap/sdk-core") as typeof import("@uniswap/sdk-core")
const routerSdk = require("@uniswap/router-sdk") as typeof import("@uniswap/router-sdk")
const { providers } = require("ethers") as typeof import("ethers")

/** An ethers provider that refuses every call: if any SOR path still reached for the chain, the run would say so. */
class NoRpcProvider extends providers.StaticJsonRpcProvider {
  constructor() {
    super("http://127.0.0.1:9", { chainId: CHAIN_ID, name: "mainnet" })
  }
  override send(method: string): Promise<never> {
    if (process.env.ALPHA_DEBUG) console.error(new Error(`rpc ${method}`).stack)
    return Promise.reject(new Error(`AlphaRouter baseline made an RPC call: ${method}`))
  }
}

export interface AlphaBaseline {
  readonly quote: (request: RequestJson) => Promise<ResultJson>
  readonly pools: number
  readonly skipped: number
}

export const makeAlphaBaseline = (snapshot: SnapshotJson, roles: RolesJson, gasPriceWei: bigint): AlphaBaseline => {
  const remap = makeRemap(roles, snapshot.tokens)
  const world = buildWorld(snapshot, remap, roles)
  const blockNumber = Number(snapshot.blockNumber)
  const clock: QuoterClock = { ms: 0, calls: 0, quotes: 0 }
  const router: AlphaRouterT = new sor.AlphaRouter({
    chainId: CHAIN_ID,
    provider: new NoRpcProvider(),
    v3PoolProvider: poolProvider(world),
    v3SubgraphProvider: subgraphProvider(world),
    onChainQuoteProvider: quoteProvider(world, remap, blockNumber, clock),
    tokenProvider: tokenProvider(world),
    gasPriceProvider: gasPriceProvider(gasPriceWei),
    tokenPropertiesProvider,
    tokenValidatorProvider,
    v2PoolProvider: emptyV2PoolProvider,
    v4PoolProvider: emptyV4PoolProvider,
    v2Supported: [],
    v4Supported: [],
    mixedSupported: []
  })
  const ourPool = (p: { token0: { address: string }; token1: { address: string }; fee: number }) =>
    world.byKey.get(poolKey(p.token0.address, p.token1.address, p.fee))?.ours.address ?? "?"
  const routeOf = (r: RouteWithValidQuote): RouteJson => {
    const route = r.route as unknown as {
      pools: Array<{ token0: { address: string }; token1: { address: string }; fee: number }>
      tokenPath: Array<{ address: string }>
    }
    return {
      percent: r.percent,
      path: route.tokenPath.map((t) => remap.toOurs(t.address)),
      pools: route.pools.map(ourPool),
      amount: r.amount.quotient.toString(),
      quote: r.quote.quotient.toString()
    }
  }
  const quote = async (request: RequestJson): Promise<ResultJson> => {
    const tokenIn = world.tokens.get(remap.toSor(request.tokenIn))
    const tokenOut = world.tokens.get(remap.toSor(request.tokenOut))
    Object.assign(clock, { ms: 0, calls: 0, quotes: 0 })
    const start = performance.now()
    const timing = () => ({
      latencyMs: performance.now() - start,
      quoterMs: clock.ms,
      quoterCalls: clock.calls,
      quotesSimulated: clock.quotes
    })
    try {
      if (tokenIn === undefined || tokenOut === undefined) throw new Error("token not in the snapshot")
      const exactIn = request.type === "exactIn"
      const amount = core.CurrencyAmount.fromRawAmount(exactIn ? tokenIn : tokenOut, request.amount)
      const swap: SwapRoute | null = await router.route(
        amount,
        exactIn ? tokenOut : tokenIn,
        exactIn ? core.TradeType.EXACT_INPUT : core.TradeType.EXACT_OUTPUT,
        undefined,
        { blockNumber, protocols: [routerSdk.Protocol.V3], useCachedRoutes: false, writeToCachedRoutes: false }
      )
      const t = timing()
      if (swap === null) return { ok: false, error: "no route", ...t }
      return {
        ok: true,
        quote: swap.quote.quotient.toString(),
        quoteGasAdjusted: swap.quoteGasAdjusted.quotient.toString(),
        gasUseEstimate: swap.estimatedGasUsed.toString(),
        routeString: sor.routeAmountsToString(swap.route),
        routes: swap.route.map(routeOf),
        ...t
      }
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e), ...timing() }
    }
  }
  return { quote, pools: world.byKey.size, skipped: world.skipped }
}
