import { createRequire } from "node:module"
import type * as SdkCore from "@uniswap/sdk-core"
import type * as RouterSdk from "@uniswap/router-sdk"
import type * as UniversalSdk from "@uniswap/universal-router-sdk"
import type * as V3Sdk from "@uniswap/v3-sdk"
import type { CalldataChain, CalldataOptions, MethodParameters } from "./CalldataTypes.ts"
import type { QuoteResult, QuoteToken } from "./routing/types.ts"
import { encodeWithViem } from "./ViemCalldata.ts"

export { slippageBound } from "./ViemCalldata.ts"

// The SDKs are CommonJS; loaded through createRequire from ESM (the way they import under Node here), on first use:
// they cost about a second of CPU, which process start-up should not wait for (route-finder worker threads load them
// while importing workers/route-finder.ts; inline, the first quote does).
const require = createRequire(import.meta.url)
let sdks:
  | { core: typeof SdkCore; v3: typeof V3Sdk; routerSdk: typeof RouterSdk; universal: typeof UniversalSdk }
  | undefined
export const loadSdks = () => {
  if (sdks !== undefined) return sdks
  sdks = {
    core: require("@uniswap/sdk-core") as typeof SdkCore,
    v3: require("@uniswap/v3-sdk") as typeof V3Sdk,
    routerSdk: require("@uniswap/router-sdk") as typeof RouterSdk,
    universal: require("@uniswap/universal-router-sdk") as typeof UniversalSdk
  }
  memoizePoolAddresses(sdks.v3)
  return sdks
}

/**
 * Every trade the SDKs build checks its pools for duplicates by their CREATE2 address (`Pool.getAddress`: a
 * keccak-256 each time, a quarter of a quote's calldata encoding in a profile of the route-finder workers). The
 * address is a pure function of its arguments, so it is remembered per (tokens, fee, overrides); one copy of
 * v3-sdk is installed, so the SDKs that build trades share this one.
 */
const memoizePoolAddresses = (v3: typeof V3Sdk) => {
  const compute = v3.Pool.getAddress.bind(v3.Pool)
  const known = new Map<string, string>()
  v3.Pool.getAddress = (tokenA, tokenB, fee, initCodeHashManualOverride, factoryAddressOverride) => {
    const key = `${tokenA.address}:${tokenB.address}:${fee}:${initCodeHashManualOverride ?? ""}:${factoryAddressOverride ?? ""}`
    let address = known.get(key)
    if (address === undefined) {
      address = compute(tokenA, tokenB, fee, initCodeHashManualOverride, factoryAddressOverride)
      if (known.size > 100_000) known.clear()
      known.set(key, address)
    }
    return address
  }
}

export type { CalldataChain, CalldataOptions, MethodParameters, RouterType } from "./CalldataTypes.ts"

/**
 * SDK tokens by chain, address, decimals and symbol. `new Token` checksums its address (a keccak-256 in ethers), which
 * was the largest single cost of a quote's calldata under load; a token's identity never changes, so each is built
 * once. Bounded: the registry's tokens of the configured chains.
 */
const sdkTokens = new Map<string, SdkCore.Token>()
const sdkToken = (chainId: number, address: string, t: QuoteToken) => {
  const key = `${chainId}:${address}:${t.decimals}:${t.symbol}`
  let token = sdkTokens.get(key)
  if (token === undefined) {
    token = new (loadSdks().core.Token)(chainId, address, t.decimals, t.symbol)
    if (sdkTokens.size > 100_000) sdkTokens.clear()
    sdkTokens.set(key, token)
  }
  return token
}

/**
 * The routing core's result as SDK objects: one v3 Route per RouteResult (a split is several routes of one trade),
 * pools at the state the quote was computed against, amounts exactly as quoted (unchecked trade: the SDK does not
 * simulate again, our engine already did and equals the chain).
 */
const toRoutes = (chainId: number, quote: QuoteResult, tokens: ReadonlyMap<string, QuoteToken>) => {
  const { core, v3 } = loadSdks()
  const token = (address: string) => {
    const t = tokens.get(address)
    if (t === undefined) throw new Error(`no decimals for token ${address} of the route`)
    return sdkToken(chainId, address, t)
  }
  return quote.routes.map((r) => {
    const pools = r.hops.map(
      (h) =>
        new v3.Pool(
          token(h.tokenIn),
          token(h.tokenOut),
          h.fee,
          h.sqrtPriceX96Before.toString(),
          h.liquidity.toString(),
          h.tickBefore
        )
    )
    const input = token(r.path[0]!)
    const output = token(r.path.at(-1)!)
    return {
      pools,
      input,
      output,
      inputAmount: core.CurrencyAmount.fromRawAmount(input, r.amountIn.toString()),
      outputAmount: core.CurrencyAmount.fromRawAmount(output, r.amountOut.toString())
    }
  })
}

/** The SDK refused the route itself (its pools, tokens or amounts), before any calldata: → 500 ROUTE_BUILD_FAILED. */
export class RouteBuildError extends Error {}

const building = <A>(f: () => A): A => {
  try {
    return f()
  } catch (e) {
    throw new RouteBuildError(e instanceof Error ? e.message : String(e))
  }
}

/**
 * Calldata for SwapRouter02 (a multicall with deadline) or the UniversalRouter (V3_SWAP_EXACT_IN/OUT commands; Permit2
 * pulls the input by default, `useRouterBalance` spends what the router already holds): encoded with viem
 * (workers/ViemCalldata.ts), byte-identical to the Uniswap SDKs, which encode (or refuse) whatever that encoder is not
 * sure of. Throws when the SDK cannot encode the trade.
 */
export const buildMethodParameters = (
  chain: CalldataChain,
  quote: QuoteResult,
  tokens: ReadonlyMap<string, QuoteToken>,
  options: CalldataOptions
): MethodParameters =>
  (options.encoder === "sdk" ? undefined : encodeWithViem(chain, quote, tokens, options)) ??
  buildMethodParametersWithSdk(chain, quote, tokens, options)

/**
 * The same through the SDKs (`@uniswap/router-sdk` SwapRouter.swapCallParameters for SwapRouter02,
 * `@uniswap/universal-router-sdk` for the UniversalRouter): the reference the viem encoder is tested against, and
 * its fallback.
 */
export const buildMethodParametersWithSdk = (
  chain: CalldataChain,
  quote: QuoteResult,
  tokens: ReadonlyMap<string, QuoteToken>,
  options: CalldataOptions
): MethodParameters => {
  const { core, v3, routerSdk, universal } = loadSdks()
  const routes = building(() => toRoutes(chain.chainId, quote, tokens))
  const tradeType = quote.type === "exactIn" ? core.TradeType.EXACT_INPUT : core.TradeType.EXACT_OUTPUT
  const slippageTolerance = new core.Percent(
    options.slippage.numerator.toString(),
    options.slippage.denominator.toString()
  )
  if (options.routerType === "swap-router-02") {
    if (chain.swapRouter02 === ZERO) throw new Error("no SwapRouter02 in this chain's deployment")
    const trade = building(() =>
      v3.Trade.createUncheckedTradeWithMultipleRoutes({
        routes: routes.map((r) => ({
          route: new v3.Route(r.pools, r.input, r.output),
          inputAmount: r.inputAmount,
          outputAmount: r.outputAmount
        })),
        tradeType
      })
    )
    const params = routerSdk.SwapRouter.swapCallParameters(trade as any, {
      slippageTolerance,
      recipient: options.recipient,
      deadlineOrPreviousBlockhash: options.deadline.toString()
    })
    return { calldata: params.calldata as `0x${string}`, value: params.value as `0x${string}`, to: chain.swapRouter02 }
  }
  if (chain.universalRouter === ZERO) throw new Error("no UniversalRouter in this chain's deployment")
  const trade = building(
    () =>
      new routerSdk.Trade({
        v2Routes: [],
        v3Routes: routes.map((r) => ({
          routev3: new v3.Route(r.pools, r.input, r.output),
          inputAmount: r.inputAmount,
          outputAmount: r.outputAmount
        })),
        v4Routes: [],
        tradeType
      } as any)
  )
  const params = universal.SwapRouter.swapCallParameters(trade as any, {
    slippageTolerance,
    recipient: options.recipient,
    deadlineOrPreviousBlockhash: options.deadline.toString(),
    useRouterBalance: options.useRouterBalance,
    urVersion: universal.UniversalRouterVersion.V2_0
  })
  return { calldata: params.calldata as `0x${string}`, value: params.value as `0x${string}`, to: chain.universalRouter }
}

const ZERO = "0x0000000000000000000000000000000000000000"
