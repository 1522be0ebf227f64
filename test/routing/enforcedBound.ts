import { createRequire } from "node:module"
import { type Abi, decodeAbiParameters, decodeFunctionData, type Hex, parseAbiParameters } from "viem"
import type { RouterType } from "../../workers/CalldataTypes.ts"

/**
 * The slippage bound a quote's calldata enforces, decoded with the routers' own ABIs (for test/routing/SlippageBound
 * and test/quotes/QuoteExecution, which compare it with the quote's minimumAmountOut / maximumAmountIn).
 */

const require = createRequire(import.meta.url)
const abiOf = (path: string) => (require(path) as { abi: Abi }).abi
const swapRouter02 = [
  ...abiOf("@uniswap/swap-router-contracts/artifacts/contracts/interfaces/ISwapRouter02.sol/ISwapRouter02.json"),
  ...abiOf(
    "@uniswap/swap-router-contracts/artifacts/contracts/interfaces/IPeripheryPaymentsWithFeeExtended.sol/IPeripheryPaymentsWithFeeExtended.json"
  )
]
const universalRouter = abiOf("@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json")
const swapParams = parseAbiParameters("address, uint256, uint256, bytes, bool")

/** exactIn: the sweep's minimum if there is one, else the sum of amountOutMinimum; exactOut: the sum of amountInMaximum. */
export const enforcedBound = (routerType: RouterType, calldata: Hex): bigint => {
  const minimums: Array<bigint> = []
  const maximums: Array<bigint> = []
  let sweep: bigint | undefined
  if (routerType === "swap-router-02") {
    const multicall = decodeFunctionData({ abi: swapRouter02, data: calldata })
    for (const inner of multicall.args![1] as ReadonlyArray<Hex>) {
      const { args, functionName } = decodeFunctionData({ abi: swapRouter02, data: inner })
      const p = args![0] as any
      if (functionName === "sweepToken") sweep = args![1] as bigint
      else if (functionName.startsWith("exactInput")) minimums.push(p.amountOutMinimum)
      else maximums.push(p.amountInMaximum)
    }
  } else {
    const { args } = decodeFunctionData({ abi: universalRouter, data: calldata })
    const [commands, inputs] = args as unknown as [Hex, ReadonlyArray<Hex>]
    inputs.forEach((input, i) => {
      const command = commands.slice(2 + 2 * i, 4 + 2 * i)
      if (command === "04") sweep = decodeAbiParameters(parseAbiParameters("address, address, uint256"), input)[2]
      else {
        const [, , bound] = decodeAbiParameters(swapParams, input)
        ;(command === "00" ? minimums : maximums).push(bound)
      }
    })
  }
  if (maximums.length > 0) return maximums.reduce((a, b) => a + b, 0n)
  return sweep ?? minimums.reduce((a, b) => a + b, 0n)
}
