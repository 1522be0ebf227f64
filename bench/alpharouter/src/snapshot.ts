/**
 * The plain-JSON input of the AlphaRouter baseline: the routing core's `PoolSnapshot` (workers/routing/types.ts) with
 * bigints written as decimal strings, plus the requests. Kept as its own copy of the shape (this package is installed
 * and type-checked apart from the main project, which must not depend on it).
 */

export interface TickJson {
  readonly index: number
  readonly liquidityNet: string
}

export interface PoolJson {
  readonly address: string
  readonly token0: string
  readonly token1: string
  readonly fee: number
  readonly tickSpacing: number
  readonly sqrtPriceX96: string
  readonly tick: number
  readonly liquidity: string
  readonly ticks: ReadonlyArray<TickJson>
}

export interface TokenJson {
  readonly address: string
  readonly decimals: number
  readonly symbol?: string
}

export interface SnapshotJson {
  readonly chainId: number
  readonly blockNumber: string
  readonly pools: ReadonlyArray<PoolJson>
  readonly tokens: ReadonlyArray<TokenJson>
}

export interface RequestJson {
  readonly tokenIn: string
  readonly tokenOut: string
  /** exactIn: amount of tokenIn; exactOut: amount of tokenOut (base units, decimal string). */
  readonly amount: string
  readonly type: "exactIn" | "exactOut"
}

/** Which of our addresses play the parts the SOR hard-codes for chain 1 (see remap.ts). */
export interface RolesJson {
  /** Our wrapped native token: becomes WETH9 of chain 1. */
  readonly wrappedNative: string
  /** Our USD stablecoin: becomes DAI (18 decimals) or USDC (6 decimals) of chain 1, for the SOR's gas-in-USD pool. */
  readonly usdToken: string
}

export interface RunInput {
  readonly snapshot: SnapshotJson
  readonly roles: RolesJson
  readonly requests: ReadonlyArray<RequestJson>
  readonly gasPriceWei: string
  /** Requests run (and not timed) first, to warm the JIT and the SOR's caches. */
  readonly warmup?: number
}

export interface RouteJson {
  readonly percent: number
  /** Our addresses (remapping undone), tokenIn first. */
  readonly path: ReadonlyArray<string>
  readonly pools: ReadonlyArray<string>
  /** exactIn: input of this route (its share of the amount); exactOut: its share of the output. */
  readonly amount: string
  /** exactIn: output of this route; exactOut: input of this route. */
  readonly quote: string
}

export interface TimingJson {
  /** Wall time of `AlphaRouter.route`. */
  readonly latencyMs: number
  /** Of which in the in-memory quoter (v3-sdk swap simulation), where the real SOR would wait on QuoterV2 multicalls. */
  readonly quoterMs: number
  readonly quoterCalls: number
  /** Route × amount quotes asked for (the SOR quotes every candidate route at every split percentage). */
  readonly quotesSimulated: number
}

export type ResultJson =
  | ({
      readonly ok: true
      /** exactIn: total output; exactOut: total input (base units). */
      readonly quote: string
      readonly quoteGasAdjusted: string
      readonly gasUseEstimate: string
      readonly routeString: string
      readonly routes: ReadonlyArray<RouteJson>
    } & TimingJson)
  | ({ readonly ok: false; readonly error: string } & TimingJson)
