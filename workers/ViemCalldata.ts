import { createRequire } from "node:module"
import {
  type Abi,
  type AbiFunction,
  concatHex,
  encodeAbiParameters,
  encodePacked,
  type Hex,
  isAddress,
  parseAbiParameters,
  toFunctionSelector
} from "viem"
import type { CalldataChain, CalldataOptions, MethodParameters } from "./CalldataTypes.ts"
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from "./routing/math/TickMath.ts"
import type { QuoteResult, QuoteToken, RouteResult } from "./routing/types.ts"

/**
 * The calldata of `buildMethodParameters` (workers/Calldata.ts) encoded with viem from the routers' own ABIs, byte
 * for byte what `@uniswap/router-sdk` (SwapRouter02) and `@uniswap/universal-router-sdk` (UniversalRouter 2.0) make
 * of our v3 routes: the SDKs spend most of a quote's worker time in ethers v5's ABI coder and in JSBI fractions.
 * test/routing/CalldataEquality.test.ts compares the two on random routes.
 *
 * It answers only where it is sure the SDK would have succeeded with these bytes: every invariant the SDK checks on
 * the way (tokens, pools, routes, trade, amounts, slippage, addresses; PRICE_BOUNDS; the UniversalRouter's spot
 * output for exactIn) is checked here as strictly or more, and anything else returns undefined, for the SDK to
 * encode or to refuse with its own error. Native ETH in or out does not arise: the engine quotes ERC-20s (WETH).
 */

const require = createRequire(import.meta.url)
const abiOf = (path: string) => (require(path) as { abi: Abi }).abi
const functionOf = (abi: Abi, name: string, types: string) => {
  const item = abi.find(
    (x): x is AbiFunction => x.type === "function" && x.name === name && x.inputs.map((i) => i.type).join(",") === types
  )
  if (item === undefined) throw new Error(`no ${name}(${types}) in the router ABI`)
  return { inputs: item.inputs, selector: toFunctionSelector(item) }
}
type Encoder = ReturnType<typeof functionOf>
/** viem's encodeFunctionData, with the selector computed once instead of hashed on every call. */
const call = (f: Encoder, args: ReadonlyArray<unknown>): Hex =>
  concatHex([f.selector, encodeAbiParameters(f.inputs, args as Array<unknown>)])

const swapRouter02 = abiOf(
  "@uniswap/swap-router-contracts/artifacts/contracts/interfaces/ISwapRouter02.sol/ISwapRouter02.json"
)
const payments = abiOf(
  "@uniswap/swap-router-contracts/artifacts/contracts/interfaces/IPeripheryPaymentsWithFeeExtended.sol/IPeripheryPaymentsWithFeeExtended.json"
)
const universalRouter = abiOf("@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json")
const V02 = {
  exactInputSingle: functionOf(swapRouter02, "exactInputSingle", "tuple"),
  exactOutputSingle: functionOf(swapRouter02, "exactOutputSingle", "tuple"),
  exactInput: functionOf(swapRouter02, "exactInput", "tuple"),
  exactOutput: functionOf(swapRouter02, "exactOutput", "tuple"),
  multicall: functionOf(swapRouter02, "multicall", "uint256,bytes[]"),
  sweepToken: functionOf(payments, "sweepToken", "address,uint256,address")
}
const UR = {
  execute: functionOf(universalRouter, "execute", "bytes,bytes[],uint256"),
  // The command inputs as the router's Dispatcher decodes them (the SDK's COMMAND_DEFINITION for UR 2.0).
  v3SwapExactIn: { command: "00", params: parseAbiParameters("address, uint256, uint256, bytes, bool") },
  v3SwapExactOut: { command: "01", params: parseAbiParameters("address, uint256, uint256, bytes, bool") },
  sweep: { command: "04", params: parseAbiParameters("address, address, uint256") }
}

/** The SDKs' constants: the router itself as recipient (router-sdk ADDRESS_THIS, UR ROUTER_AS_RECIPIENT). */
const ROUTER = "0x0000000000000000000000000000000000000002"
const ZERO = "0x0000000000000000000000000000000000000000"
const MAX_UINT256 = (1n << 256n) - 1n
const Q192 = 1n << 192n

const inUint256 = (n: bigint) => n >= 0n && n <= MAX_UINT256

/** One route walked as the SDK's v3 Route walks it: its tokens in order and its fees; undefined where it would refuse. */
const walk = (route: RouteResult, tokens: ReadonlyMap<string, QuoteToken>, seenPools: Set<string>) => {
  const known = (address: string) => {
    const t = tokens.get(address)
    return t !== undefined && Number.isInteger(t.decimals) && t.decimals >= 0 && t.decimals < 255 && isAddress(address)
  }
  const input = route.path[0]
  const output = route.path.at(-1)
  if (input === undefined || output === undefined || !known(input) || !known(output) || route.hops.length === 0)
    return undefined
  const path: Array<string> = [input.toLowerCase()]
  const fees: Array<number> = []
  // The spot price along the route (the pools' sqrt prices before the swap), for the UniversalRouter's price impact.
  let spotNumerator = 1n
  let spotDenominator = 1n
  for (const hop of route.hops) {
    if (!known(hop.tokenIn) || !known(hop.tokenOut)) return undefined
    const [a, b] = [hop.tokenIn.toLowerCase(), hop.tokenOut.toLowerCase()]
    const current = path.at(-1)!
    if (a === b || (current !== a && current !== b)) return undefined
    if (!Number.isInteger(hop.fee) || hop.fee < 0 || hop.fee >= 1_000_000) return undefined
    // The SDK's Pool: its price within its tick (PRICE_BOUNDS).
    const tick = hop.tickBefore
    if (!Number.isInteger(tick) || tick < MIN_TICK || tick + 1 > MAX_TICK) return undefined
    const sqrt = hop.sqrtPriceX96Before
    if (sqrt < getSqrtRatioAtTick(tick) || sqrt > getSqrtRatioAtTick(tick + 1)) return undefined
    // One pool per (token pair, fee) in the whole trade, as the SDK's POOLS_DUPLICATED asks.
    const pool = a < b ? `${a}:${b}:${hop.fee}` : `${b}:${a}:${hop.fee}`
    if (seenPools.has(pool)) return undefined
    seenPools.add(pool)
    const next = current === a ? b : a
    // token0Price = sqrt² / 2^192 (token0 → token1); the other way round its inverse.
    const zeroForOne = current < next
    spotNumerator *= zeroForOne ? sqrt * sqrt : Q192
    spotDenominator *= zeroForOne ? Q192 : sqrt * sqrt
    path.push(next)
    fees.push(hop.fee)
  }
  if (path.at(-1) !== output.toLowerCase()) return undefined
  return { path, fees, spotNumerator, spotDenominator }
}
type Walked = NonNullable<ReturnType<typeof walk>>

/** The v3 path bytes (token, fee, token, ...), reversed for exactOut as `encodeRouteToPath` does. */
const encodePath = ({ fees, path }: Walked, exactOut: boolean): Hex => {
  const types: Array<string> = ["address"]
  const values: Array<unknown> = [path[0]]
  fees.forEach((fee, i) => {
    types.push("uint24", "address")
    values.push(fee, path[i + 1])
  })
  return exactOut ? encodePacked(types.reverse(), values.reverse()) : encodePacked(types, values)
}

type Slippage = CalldataOptions["slippage"]
/** The SDK's Trade.minimumAmountOut (sdk-core Fraction arithmetic: out·(den−num)/den, truncating, clamped at 0). */
export const minimumAmountOut = (amountOut: bigint, { denominator, numerator }: Slippage) => {
  const bound = (amountOut * (denominator - numerator)) / denominator
  return bound > 0n ? bound : 0n
}
/** The SDK's Trade.maximumAmountIn: in·(den+num)/den, truncating. */
export const maximumAmountIn = (amountIn: bigint, { denominator, numerator }: Slippage) =>
  (amountIn * (denominator + numerator)) / denominator
/** Both SDKs: more than two exactIn routes are checked on their summed output (a sweep), after the router custodied it. */
const aggregatesOutput = (quote: QuoteResult) => quote.type === "exactIn" && quote.routes.length > 2

/**
 * The slippage bound the calldata enforces, from the same amounts it encodes: exactIn, the least the recipient
 * receives (the sweep's minimum of the summed output, or the sum of each route's amountOutMinimum); exactOut, the most
 * spent (the sum of each route's amountInMaximum). Per route, each truncated, so a split's bound can differ by a few
 * units from the trade-level formula applied to the total.
 */
export const slippageBound = (quote: QuoteResult, slippage: Slippage): bigint => {
  if (quote.type === "exactOut") return quote.routes.reduce((sum, r) => sum + maximumAmountIn(r.amountIn, slippage), 0n)
  if (aggregatesOutput(quote))
    return minimumAmountOut(
      quote.routes.reduce((sum, r) => sum + r.amountOut, 0n),
      slippage
    )
  return quote.routes.reduce((sum, r) => sum + minimumAmountOut(r.amountOut, slippage), 0n)
}

/** The calldata, or undefined where the SDK is to decide (see above). */
export const encodeWithViem = (
  chain: CalldataChain,
  quote: QuoteResult,
  tokens: ReadonlyMap<string, QuoteToken>,
  options: CalldataOptions
): MethodParameters | undefined => {
  const { denominator, numerator } = options.slippage
  if (!Number.isSafeInteger(chain.chainId) || numerator < 0n || denominator <= 0n) return undefined
  if (!isAddress(options.recipient) || !inUint256(options.deadline) || quote.routes.length === 0) return undefined
  const router = options.routerType === "swap-router-02" ? chain.swapRouter02 : chain.universalRouter
  if (router === ZERO) return undefined
  const minimumOut = (amount: bigint) =>
    quote.type === "exactIn" ? minimumAmountOut(amount, options.slippage) : amount
  const maximumIn = (amount: bigint) => (quote.type === "exactIn" ? amount : maximumAmountIn(amount, options.slippage))

  const seenPools = new Set<string>()
  const walked: Array<Walked> = []
  let totalIn = 0n
  let totalOut = 0n
  for (const route of quote.routes) {
    const w = walk(route, tokens, seenPools)
    if (w === undefined || !inUint256(route.amountIn) || !inUint256(route.amountOut)) return undefined
    if (!inUint256(maximumIn(route.amountIn))) return undefined
    if (walked.length > 0 && (w.path[0] !== walked[0]!.path[0] || w.path.at(-1) !== walked[0]!.path.at(-1)))
      return undefined
    walked.push(w)
    totalIn += route.amountIn
    totalOut += route.amountOut
  }
  if (!inUint256(totalIn) || !inUint256(totalOut) || !inUint256(maximumIn(totalIn))) return undefined

  const exactOut = quote.type === "exactOut"
  const aggregated = aggregatesOutput(quote)
  const outputToken = quote.routes[0]!.path.at(-1)!

  if (options.routerType === "swap-router-02") {
    const recipient = aggregated ? ROUTER : options.recipient
    const calls = quote.routes.map((route, i) => {
      const w = walked[i]!
      const amountIn = maximumIn(route.amountIn)
      const amountOut = minimumOut(route.amountOut)
      if (w.fees.length === 1) {
        const single = { tokenIn: w.path[0], tokenOut: w.path[1], fee: w.fees[0], recipient, sqrtPriceLimitX96: 0n }
        return exactOut
          ? call(V02.exactOutputSingle, [{ ...single, amountOut, amountInMaximum: amountIn }])
          : call(V02.exactInputSingle, [{ ...single, amountIn, amountOutMinimum: aggregated ? 0n : amountOut }])
      }
      const path = encodePath(w, exactOut)
      return exactOut
        ? call(V02.exactOutput, [{ path, recipient, amountOut, amountInMaximum: amountIn }])
        : call(V02.exactInput, [{ path, recipient, amountIn, amountOutMinimum: aggregated ? 0n : amountOut }])
    })
    if (aggregated) calls.push(call(V02.sweepToken, [outputToken, minimumOut(totalOut), options.recipient]))
    return { calldata: call(V02.multicall, [options.deadline, calls]), value: "0x00", to: router }
  }

  // UniversalRouter, exactIn: the SDK computes the trade's price impact (whether a partial fill is a risk), which
  // refuses a spot output above 2^256 - 1; this bound is at least the spot output, so below it the SDK cannot refuse.
  if (!exactOut) {
    let spotBound = 0n
    quote.routes.forEach((route, i) => {
      spotBound += (route.amountIn * walked[i]!.spotNumerator) / walked[i]!.spotDenominator + 1n
    })
    if (spotBound > MAX_UINT256) return undefined
  }
  const payerIsUser = !options.useRouterBalance
  let commands = "0x"
  const inputs: Array<Hex> = []
  quote.routes.forEach((route, i) => {
    const path = encodePath(walked[i]!, exactOut)
    const command = exactOut ? UR.v3SwapExactOut : UR.v3SwapExactIn
    const amounts = exactOut
      ? [route.amountOut, maximumIn(route.amountIn)]
      : [route.amountIn, aggregated ? 0n : minimumOut(route.amountOut)]
    commands += command.command
    inputs.push(
      encodeAbiParameters(command.params, [
        aggregated ? ROUTER : options.recipient,
        ...amounts,
        path,
        payerIsUser
      ] as never)
    )
  })
  if (aggregated) {
    commands += UR.sweep.command
    inputs.push(encodeAbiParameters(UR.sweep.params, [outputToken, options.recipient, minimumOut(totalOut)]))
  }
  return { calldata: call(UR.execute, [commands, inputs, options.deadline]), value: "0x00", to: router }
}
