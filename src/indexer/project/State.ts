/**
 * What the projection needs to know about the chain so far, kept in memory between batches: the indexed tokens and
 * pools (which logs to fetch, how to price them), each pool's current price and reserves, and which pool each
 * position-manager NFT belongs to. It is loaded from the database at start, after a rollback and after any failed
 * batch (the projection mutates it while it builds rows, so a batch that does not commit leaves it stale).
 */
export interface TokenInfo {
  /** Null for a token without a readable `decimals()`: its amounts have no known scale, so it gets no prices. */
  readonly decimals: number | null
  readonly isLaunch: boolean
}

export interface PoolInfo {
  readonly address: string
  readonly token0: string
  readonly token1: string
  readonly fee: number
  sqrtPriceX96: bigint | null
  reserve0: bigint
  reserve1: bigint
  /** slot0's tick (null before Initialize) and the in-range liquidity: how deep the pool is at its price (Prices.ts). */
  tick: number | null
  liquidity: bigint
}

/** The registry's launch configuration (token-as-token0 view), as FireRegistry.LaunchConfigUpdated carries it. */
export interface LaunchConfig {
  readonly fee: number
  readonly tickLower: number
  readonly tickUpper: number
  readonly sqrtPriceX96: bigint
  readonly sqrtPriceX96Inverted: bigint
}

/** The canonical configuration as it appears in a pool (FireLaunch._poolConfig). */
export const poolConfigOf = (c: LaunchConfig, tokenIsToken0: boolean) =>
  tokenIsToken0
    ? { fee: c.fee, sqrtPriceX96: c.sqrtPriceX96, tickLower: c.tickLower, tickUpper: c.tickUpper }
    : { fee: c.fee, sqrtPriceX96: c.sqrtPriceX96Inverted, tickLower: -c.tickUpper, tickUpper: -c.tickLower }

export interface ProjectionState {
  readonly weth: string
  /** The USD anchors: stablecoin → peg (USD per token). */
  readonly stablecoins: ReadonlyMap<string, number>
  readonly baseTokens: ReadonlySet<string>
  readonly tokens: Map<string, TokenInfo>
  readonly pools: Map<string, PoolInfo>
  /** NFT id → pool, for position-manager events of indexed pools. */
  readonly positions: Map<string, string>
  /**
   * A launched token's launch pool: what prices it while no pool of it has liquidity at its price (a fresh launch's
   * single-sided position starts out of range).
   */
  readonly refPool: Map<string, string>
  /**
   * Per token, its pools whose other token is a base token: the candidates that price it (Prices.ts). Only those: WETH
   * has a pool with every launch, and is priced through its pools with stablecoins.
   */
  readonly pricingPools: Map<string, Array<string>>
  /**
   * The registry's current launch configuration, followed from its LaunchConfigUpdated events (the registry emits one
   * in its constructor). Null when the registry predates the start block: then the canonical check reads it by RPC.
   */
  launchConfig: LaunchConfig | null
}

export const emptyState = (
  weth: string,
  stablecoins: ReadonlyMap<string, number>,
  baseTokens: ReadonlyArray<string>
): ProjectionState => ({
  weth,
  stablecoins,
  baseTokens: new Set([...baseTokens, ...stablecoins.keys()]),
  tokens: new Map(),
  pools: new Map(),
  positions: new Map(),
  refPool: new Map(),
  pricingPools: new Map(),
  launchConfig: null
})

/** Registers a pool (as a pricing candidate of each token the other of which is a base token) in the state. */
export const addPool = (state: ProjectionState, pool: PoolInfo, launchToken?: string) => {
  if (state.pools.has(pool.address)) return
  state.pools.set(pool.address, pool)
  if (launchToken !== undefined && !state.refPool.has(launchToken)) state.refPool.set(launchToken, pool.address)
  for (const [token, other] of [
    [pool.token0, pool.token1],
    [pool.token1, pool.token0]
  ] as const) {
    if (!state.baseTokens.has(other)) continue
    const list = state.pricingPools.get(token)
    if (list === undefined) state.pricingPools.set(token, [pool.address])
    else list.push(pool.address)
  }
}
