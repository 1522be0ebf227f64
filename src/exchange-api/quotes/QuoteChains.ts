import type { Deployments } from "../../platform/Deployments.ts"
import type { Address, RoutingConfig } from "../../../workers/routing/types.ts"
import { ROUTING_SETTINGS } from "./RoutingSettings.ts"

/**
 * Per-chain routing settings of the quote engine, as code rather than configuration (a deployment decides them, not an
 * operator): what the router may route through and where
 * the calldata goes. Built from the chain's deployment record (src/platform/Deployments.ts), never from env vars.
 */
export interface QuoteChain {
  readonly chainId: number
  readonly wrappedNative: Address
  /** The deployment's stablecoin (USDT on the devnet). */
  readonly stablecoin: Address
  readonly swapRouter02: Address
  readonly universalRouter: Address
  /** Not the canonical Permit2 address on the devnet (src/platform/Deployments.ts): always from the deployment. */
  readonly permit2: Address
  readonly routing: RoutingConfig
}

const lower = (a: string) => a.toLowerCase() as Address

/**
 * The routing config of a chain whose wrapped native token and stablecoin are these, plus the chain's other
 * stablecoins (the base tokens).
 */
export const routingConfigFor = (
  wrappedNative: Address,
  stablecoin: Address,
  otherStablecoins: ReadonlyArray<Address> = []
): RoutingConfig => ({
  wrappedNative,
  baseTokens: [...new Set([wrappedNative, stablecoin, ...otherStablecoins])],
  ...ROUTING_SETTINGS
})

/** A chain's quote settings from its deployment record. */
export const quoteChainFrom = (deployments: Deployments): QuoteChain => {
  const c = deployments.contracts
  const weth = lower(c.weth9)
  const stable = lower(c.stablecoin)
  return {
    chainId: deployments.chainId,
    wrappedNative: weth,
    stablecoin: stable,
    swapRouter02: lower(c.swapRouter02),
    universalRouter: lower(c.universalRouter),
    permit2: lower(c.permit2),
    routing: routingConfigFor(
      weth,
      stable,
      (deployments.stablecoins ?? []).map((s) => lower(s.address))
    )
  }
}
