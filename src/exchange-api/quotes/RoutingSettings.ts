/**
 * The quote engine's constants that its contract (QuotesApi.ts) documents: the router's settings and the chains this
 * server recognises, with their profiles. Plain data, no imports: QuoteChains.ts builds each chain's routing config from them.
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
 * What the quote engine knows of a chain, the one place per-chain settings live (keyed by chain id):
 * - `name`: for CHAIN_NOT_CONFIGURED messages;
 * - `opStack`: an OP-stack rollup, whose transactions also pay an L1 data fee read from the GasPriceOracle predeploy
 *   (L1DataFee.ts); the quotes count it in `gasUseEstimateQuote`. QUOTE_OP_STACK overrides it for the served chain.
 */
export interface ChainProfile {
  readonly name: string
  readonly opStack: boolean
}

/**
 * The chains this server recognises. A recognised id that is not the server's chain is CHAIN_NOT_CONFIGURED (valid,
 * not enabled here); any other id is CHAIN_NOT_SUPPORTED. opStack: the Superchain members of this list (OP Mainnet,
 * Base, Unichain, World Chain, Zora and the Sepolias); Blast is a fork with its own fee rules and is left out.
 */
export const CHAIN_PROFILES: ReadonlyMap<number, ChainProfile> = new Map([
  [1, { name: "Ethereum", opStack: false }],
  [10, { name: "OP Mainnet", opStack: true }],
  [56, { name: "BNB Smart Chain", opStack: false }],
  [130, { name: "Unichain", opStack: true }],
  [137, { name: "Polygon", opStack: false }],
  [324, { name: "zkSync Era", opStack: false }],
  [480, { name: "World Chain", opStack: true }],
  [8453, { name: "Base", opStack: true }],
  [42161, { name: "Arbitrum One", opStack: false }],
  [42220, { name: "Celo", opStack: false }],
  [43114, { name: "Avalanche C-Chain", opStack: false }],
  [81457, { name: "Blast", opStack: false }],
  [7777777, { name: "Zora", opStack: true }],
  [11155111, { name: "Sepolia", opStack: false }],
  [84532, { name: "Base Sepolia", opStack: true }],
  [1301, { name: "Unichain Sepolia", opStack: true }],
  [31337, { name: "Anvil devnet", opStack: false }]
])

/** The profile of a chain; an unknown chain is not an OP-stack chain (QUOTE_OP_STACK can say otherwise). */
export const chainProfileOf = (chainId: number): ChainProfile =>
  CHAIN_PROFILES.get(chainId) ?? { name: `chain ${chainId}`, opStack: false }

/** Names of the recognised chains (CHAIN_PROFILES). */
export const KNOWN_CHAINS: ReadonlyMap<number, string> = new Map(
  [...CHAIN_PROFILES].map(([id, profile]) => [id, profile.name])
)
