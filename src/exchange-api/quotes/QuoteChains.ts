import type { Deployments } from "../../platform/Deployments.ts"
import type { Address, RoutingConfig } from "../../../workers/routing/types.ts"

/**
 * Per-chain routing settings of the quote engine, as code (STYLE §6): what the router may route through and where
 * the calldata goes. Built from the chain's deployment record (src/platform/Deployments.ts), never from env vars.
 */
export interface QuoteChain {
  readonly chainId: number
  readonly wrappedNative: Address
  /** The deployment's stablecoin (USDT on the devnet). */
  readonly stablecoin: Address
  readonly swapRouter02: Address
  readonly universalRouter: Address
  /** Not the canonical Permit2 address on the devnet (FACTS): always from the deployment. */
  readonly permit2: Address
  readonly quoterV2: Address
  readonly routing: RoutingConfig
}

const lower = (a: string) => a.toLowerCase() as Address

/** Pools whose in-range liquidity is below this are not routed through (see ROUTING_SETTINGS). */
export const ROUTER_MIN_LIQUIDITY = 1n

/**
 * The router's settings on every chain (workers/routing/types.ts RoutingConfig): intermediate tokens WETH and the
 * stablecoin, plus per end of the trade the partner tokens of its 3 deepest pools ("connectors") and, for 3-hop
 * routes, the deepest partner of each connector (workers/routing/Routes.ts); up to 3 hops; splits over up to 3
 * routes in 5 % steps; 5 candidate pools per pair. The liquidity floor is 1: a pool with no in-range liquidity is
 * never a candidate (the same floor /api/v1/pools/admitted reports). The quote routes' OpenAPI description and
 * scripts/bench/quote-engine.ts read these too.
 */
export const ROUTING_SETTINGS = {
  maxHops: 3,
  maxSplits: 3,
  splitStepPercent: 5,
  poolsPerPair: 5,
  connectorsPerToken: 3,
  secondHopsPerConnector: 1,
  minLiquidity: ROUTER_MIN_LIQUIDITY
} as const satisfies Omit<RoutingConfig, "wrappedNative" | "baseTokens">

/** The routing config of a chain whose wrapped native token and stablecoin are these (the base tokens). */
export const routingConfigFor = (wrappedNative: Address, stablecoin: Address): RoutingConfig => ({
  wrappedNative,
  baseTokens: [wrappedNative, stablecoin],
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
    quoterV2: lower(c.quoterV2),
    routing: routingConfigFor(weth, stable)
  }
}

/**
 * EVM chain ids this server recognises. A recognised id that is not the server's chain is CHAIN_NOT_CONFIGURED
 * (valid, not enabled here); any other id is CHAIN_NOT_SUPPORTED.
 */
export const KNOWN_CHAINS: ReadonlyMap<number, string> = new Map([
  [1, "Ethereum"],
  [10, "OP Mainnet"],
  [56, "BNB Smart Chain"],
  [130, "Unichain"],
  [137, "Polygon"],
  [324, "zkSync Era"],
  [480, "World Chain"],
  [8453, "Base"],
  [42161, "Arbitrum One"],
  [42220, "Celo"],
  [43114, "Avalanche C-Chain"],
  [81457, "Blast"],
  [7777777, "Zora"],
  [11155111, "Sepolia"],
  [84532, "Base Sepolia"],
  [1301, "Unichain Sepolia"],
  [31337, "Anvil devnet"]
])
