/**
 * The routing core's contract: plain data in, plain data out (no Effect, no I/O), so that it runs the same inside a
 * Piscina worker, on the main thread (`RouteFinder.layerInline`) and in tests. Amounts, prices and liquidity are
 * bigints; addresses are lowercase 0x-strings. `workers/protocol.ts` encodes these for the structured-clone boundary.
 */

export type Address = `0x${string}`

/** An initialized tick of a pool, as the indexer stores it. */
export interface TickState {
  readonly index: number
  readonly liquidityNet: bigint
}

/** One Uniswap v3 pool as the router sees it: enough to simulate any swap exactly. */
export interface PoolState {
  readonly address: Address
  readonly token0: Address
  readonly token1: Address
  /** Fee in hundredths of a bip (500 = 0.05 %). */
  readonly fee: number
  readonly tickSpacing: number
  readonly sqrtPriceX96: bigint
  readonly tick: number
  readonly liquidity: bigint
  /** Initialized ticks, sorted ascending by index. */
  readonly ticks: ReadonlyArray<TickState>
}

export interface TokenInfo {
  readonly address: Address
  readonly decimals: number
  readonly symbol?: string
}

/** A token as a quote and its calldata use it: its symbol always known (read on chain when the index has none). */
export interface QuoteToken {
  readonly address: Address
  readonly decimals: number
  readonly symbol: string
}

/** What the workers hold: every pool of one chain at one block. Replaced (or patched by `PoolDelta`) after each indexer commit. */
export interface PoolSnapshot {
  readonly chainId: number
  readonly blockNumber: bigint
  readonly pools: ReadonlyArray<PoolState>
  readonly tokens: ReadonlyArray<TokenInfo>
}

/** The pools changed by one indexer batch (full states; a removed pool is absent from `pools` and listed in `removed`). */
export interface PoolDelta {
  readonly chainId: number
  readonly blockNumber: bigint
  readonly pools: ReadonlyArray<PoolState>
  readonly removed: ReadonlyArray<Address>
  /** The tokens of `pools` (new ones appear with the first pool that holds them: a launch after start-up). */
  readonly tokens?: ReadonlyArray<TokenInfo> | undefined
}

/** Per-chain routing settings (code, not env: see src/platform). */
export interface RoutingConfig {
  /** Wrapped native token (WETH); gas is paid in it. */
  readonly wrappedNative: Address
  /** Intermediate tokens always tried for 2- and 3-hop routes (WETH, a stablecoin, ...). */
  readonly baseTokens: ReadonlyArray<Address>
  /**
   * Non-base intermediates ("connectors", Routes.ts): from each end of the trade, the partner tokens of its deepest
   * pools, at most this many per end (0: base tokens only). Depth = the pool's in-range reserve of the end token.
   */
  readonly connectorsPerToken: number
  /** For 3-hop routes: per connector, the partner tokens of its deepest pools, at most this many (0: none). */
  readonly secondHopsPerConnector: number
  readonly maxHops: 1 | 2 | 3
  /** Largest number of routes in a split (1 = no splitting). */
  readonly maxSplits: number
  /** Granularity of the split search in percent (e.g. 5 → splits in multiples of 5 %). */
  readonly splitStepPercent: number
  /** Candidate pools kept per token pair, ranked by liquidity. */
  readonly poolsPerPair: number
  /** Pools whose in-range liquidity is below this are ignored. */
  readonly minLiquidity: bigint
}

export type TradeType = "exactIn" | "exactOut"

export interface QuoteRequest {
  readonly tokenIn: Address
  readonly tokenOut: Address
  /** exactIn: amount of tokenIn; exactOut: amount of tokenOut (base units). */
  readonly amount: bigint
  readonly type: TradeType
  /** Gas price in wei of the native token, to weigh gas against output. */
  readonly gasPriceWei: bigint
  /** Override of `RoutingConfig.maxSplits` for this request (e.g. 1 to disable splitting). */
  readonly maxSplits?: number
}

export interface HopResult {
  readonly pool: Address
  readonly tokenIn: Address
  readonly tokenOut: Address
  readonly fee: number
  /** Pool state before the swap (what the quote was computed against). */
  readonly sqrtPriceX96Before: bigint
  readonly sqrtPriceX96After: bigint
  readonly liquidity: bigint
  readonly tickBefore: number
  readonly ticksCrossed: number
  readonly amountIn: bigint
  readonly amountOut: bigint
}

/** One path of the trade with its share of the amount. */
export interface RouteResult {
  /** Share of the request's amount, in percent (100 without a split). */
  readonly percent: number
  /** Tokens along the path: tokenIn, ..., tokenOut. */
  readonly path: ReadonlyArray<Address>
  readonly hops: ReadonlyArray<HopResult>
  readonly amountIn: bigint
  readonly amountOut: bigint
  readonly gasEstimate: bigint
}

export interface QuoteResult {
  readonly type: TradeType
  readonly routes: ReadonlyArray<RouteResult>
  /** Totals over the routes. exactIn: amountIn = request amount; exactOut: amountOut = request amount. */
  readonly amountIn: bigint
  readonly amountOut: bigint
  readonly gasEstimate: bigint
  /** Gas cost in wei and expressed in the quote token (tokenOut for exactIn, tokenIn for exactOut); null without a WETH path. */
  readonly gasCostWei: bigint
  readonly gasCostInQuoteToken: bigint | null
  /**
   * Units of the quote token per wei of the native token at the graph's WETH mid price (Price.nativeRate): how
   * gasCostInQuoteToken was converted, so a cost known only after routing (an OP-stack chain's L1 data fee, which
   * depends on the calldata) is converted alike (addGasCost). Null without a WETH path.
   */
  readonly gasRate: { readonly num: bigint; readonly den: bigint } | null
  /** exactIn: amountOut − gas in tokenOut; exactOut: amountIn + gas in tokenIn. */
  readonly quoteGasAdjusted: bigint
  /** Price impact in parts per million of the mid price (1,000,000 = 100 %). */
  readonly priceImpactPpm: number
  readonly blockNumber: bigint
}

/** Failures are data (the worker boundary carries them as such). */
export type RoutingFailure =
  | { readonly _tag: "NoPoolsAvailable" }
  | { readonly _tag: "NoRoute" }
  | { readonly _tag: "InsufficientLiquidity" }

export type RoutingOutcome = { readonly _tag: "Found"; readonly quote: QuoteResult } | RoutingFailure

/**
 * The routing core's entry point, implemented in `workers/routing/index.ts` as `makeRouter(snapshot, config)`:
 * builds the pool graph once, then answers quotes and absorbs deltas (a pool's new state replaces the old one).
 */
export interface Router {
  readonly blockNumber: () => bigint
  readonly apply: (delta: PoolDelta) => void
  readonly quote: (request: QuoteRequest) => RoutingOutcome
}
export type MakeRouter = (snapshot: PoolSnapshot, config: RoutingConfig) => Router
