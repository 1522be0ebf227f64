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
  readonly stablecoin: string | undefined
  readonly baseTokens: ReadonlySet<string>
  readonly tokens: Map<string, TokenInfo>
  readonly pools: Map<string, PoolInfo>
  /** NFT id → pool, for position-manager events of indexed pools. */
  readonly positions: Map<string, string>
  /**
   * The pool each token is priced through: a launched token through its launch pool, WETH through the first
   * stablecoin/WETH pool. Chosen once, when the pool is registered, so that prices do not depend on batch limits.
   */
  readonly refPool: Map<string, string>
  /**
   * The registry's current launch configuration, followed from its LaunchConfigUpdated events (the registry emits one
   * in its constructor). Null when the registry predates the start block: then the canonical check reads it by RPC.
   */
  launchConfig: LaunchConfig | null
}

export const emptyState = (
  weth: string,
  stablecoin: string | undefined,
  baseTokens: ReadonlyArray<string>
): ProjectionState => ({
  weth,
  stablecoin,
  baseTokens: new Set(baseTokens),
  tokens: new Map(),
  pools: new Map(),
  positions: new Map(),
  refPool: new Map(),
  launchConfig: null
})

/** The reference pool of WETH is a pool of exactly {stablecoin, WETH}. */
export const isUsdPool = (state: ProjectionState, token0: string, token1: string) =>
  state.stablecoin !== undefined &&
  ((token0 === state.stablecoin && token1 === state.weth) || (token1 === state.stablecoin && token0 === state.weth))

/** Registers a pool (and the reference-pool choice it implies) in the state. */
export const addPool = (state: ProjectionState, pool: PoolInfo, launchToken?: string) => {
  if (!state.pools.has(pool.address)) state.pools.set(pool.address, pool)
  if (launchToken !== undefined && !state.refPool.has(launchToken)) state.refPool.set(launchToken, pool.address)
  if (isUsdPool(state, pool.token0, pool.token1) && !state.refPool.has(state.weth))
    state.refPool.set(state.weth, pool.address)
}
