import type { Address } from "./routing/types.ts"

export type RouterType = "swap-router-02" | "universal"

export interface CalldataOptions {
  readonly routerType: RouterType
  /** Slippage as a fraction numerator / denominator (50 bps = 50 / 10000). */
  readonly slippage: { readonly numerator: bigint; readonly denominator: bigint }
  readonly recipient: `0x${string}`
  /** Unix seconds. */
  readonly deadline: bigint
  /** Universal only: the router pays from its own balance (payerIsUser = false) instead of Permit2. */
  readonly useRouterBalance: boolean
  /** `sdk`: encode through the Uniswap SDKs even where viem would (QUOTE_CALLDATA_ENCODER); default viem. */
  readonly encoder?: "viem" | "sdk" | undefined
}

export interface MethodParameters {
  readonly calldata: `0x${string}`
  readonly value: `0x${string}`
  readonly to: `0x${string}`
}

/** Where a chain's calldata goes (a subset of the quote engine's QuoteChain, src/exchange-api/quotes/QuoteChains.ts). */
export interface CalldataChain {
  readonly chainId: number
  readonly swapRouter02: Address
  readonly universalRouter: Address
}
