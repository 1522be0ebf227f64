/**
 * The quote engine's constants that its contract (QuotesApi.ts) documents: the router's settings and the chains this
 * server recognises. Plain data, no imports: QuoteChains.ts builds each chain's routing config from them.
 */

/** Pools whose in-range liquidity is below this are not routed through (see ROUTING_SETTINGS). */
export const ROUTER_MIN_LIQUIDITY = 1n

/**
 * The router's settings on every chain (workers/routing/types.ts RoutingConfig; QuoteChains.ts routingConfigFor adds the base tokens): intermediate tokens WETH and the
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
} as const

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
