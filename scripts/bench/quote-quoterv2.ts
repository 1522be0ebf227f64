/**
 * The QuoterV2 baseline of `npm run bench:quotes`: each route of a quote (ours, or AlphaRouter's when ours is not
 * there) asked of the devnet's QuoterV2 with one `eth_call` (`quoteExactInput` / `quoteExactOutput` over the packed
 * path), timed per call, and its answer compared with the router's figure for that route to the wei.
 */
import { encodePacked, parseAbi, type Address, type Hex } from "viem"
import type { Chain } from "../../test/contracts/chain.ts"
import type { TradeType } from "../../workers/routing/types.ts"

const quoterAbi = parseAbi([
  "function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)",
  "function quoteExactOutput(bytes path, uint256 amountOut) returns (uint256 amountIn, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)"
])

/** One route: tokens tokenIn … tokenOut, the fee of each hop, the exact amount and what the router said of it. */
export interface RouteCall {
  readonly tokens: ReadonlyArray<Address>
  readonly fees: ReadonlyArray<number>
  readonly type: TradeType
  /** exactIn: amount in; exactOut: amount out. */
  readonly amount: bigint
  /** The router's quote for this route: exactIn the output, exactOut the input. */
  readonly expected: bigint
}

/** Uniswap's packed path; exactOut paths run from tokenOut back to tokenIn. */
export const packPath = (tokens: ReadonlyArray<Address>, fees: ReadonlyArray<number>, reversed: boolean): Hex => {
  const t = reversed ? [...tokens].reverse() : [...tokens]
  const f = reversed ? [...fees].reverse() : [...fees]
  const types: Array<"address" | "uint24"> = []
  const values: Array<Address | number> = []
  t.forEach((token, i) => {
    types.push("address")
    values.push(token)
    if (i < f.length) {
      types.push("uint24")
      values.push(f[i]!)
    }
  })
  return encodePacked(types, values)
}

export interface QuoterOutcome {
  readonly call: RouteCall
  /** QuoterV2's figure, or null when it reverted. */
  readonly onChain: bigint | null
  readonly latencyMs: number
}

export const quoteRoutesOnChain = async (
  chain: Chain,
  quoter: Address,
  calls: ReadonlyArray<RouteCall>
): Promise<Array<QuoterOutcome>> => {
  const out: Array<QuoterOutcome> = []
  for (const call of calls) {
    const exactIn = call.type === "exactIn"
    const start = performance.now()
    let onChain: bigint | null = null
    try {
      const { result } = await chain.public.simulateContract({
        address: quoter,
        abi: quoterAbi,
        functionName: exactIn ? "quoteExactInput" : "quoteExactOutput",
        args: [packPath(call.tokens, call.fees, !exactIn), call.amount]
      })
      onChain = result[0]
    } catch {
      onChain = null
    }
    out.push({ call, onChain, latencyMs: performance.now() - start })
  }
  return out
}
