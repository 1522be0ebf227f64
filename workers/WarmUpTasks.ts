/**
 * Synthetic tasks that take a route-finder thread through every path a real block takes (workers/route-finder.ts
 * runs them once at thread start, on an engine of their own): a full state load, quotes (1 to 3 hops, splits, both
 * trade types), deltas caught up through `Stale` (`Deltas`), and a pushed delta's decode. The first real delta after
 * a load otherwise paid for compiling the delta Schema's decoder and the graph's `apply`: 13–17 ms of the first
 * quote after the first block at 100,000 pools, against 0.8–0.9 ms for the next ones (docs/BENCHMARKS.md,
 * "Quote engine at scale"). Six pools among four tokens around tick 0, deep enough for every split level to fill.
 */
import type { VersionedDelta, WorkerTask } from "./protocol.ts"
import { getSqrtRatioAtTick } from "./routing/math/TickMath.ts"
import type { Address, PoolState, QuoteRequest, RoutingConfig, TokenInfo } from "./routing/types.ts"

const at = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`
const [weth, stable, tokenX, tokenY, tokenZ] = [0xb01, 0xb02, 0xb03, 0xb04, 0xb05].map(at) as [
  Address,
  Address,
  Address,
  Address,
  Address
]
const CHAIN_ID = 1

/** A pool at `tick` with two positions around it (±10 and ±100 spacings), token0 < token1 as on chain. */
const pool = (n: number, a: Address, b: Address, fee: number, tickSpacing: number, tick: number): PoolState => {
  const [token0, token1] = a < b ? [a, b] : [b, a]
  const near = 10n ** 21n
  const far = 10n ** 20n
  return {
    address: at(0xc00 + n),
    token0,
    token1,
    fee,
    tickSpacing,
    sqrtPriceX96: getSqrtRatioAtTick(tick),
    tick,
    liquidity: near + far,
    ticks: [
      { index: -100 * tickSpacing, liquidityNet: far },
      { index: -10 * tickSpacing, liquidityNet: near },
      { index: 10 * tickSpacing, liquidityNet: -near },
      { index: 100 * tickSpacing, liquidityNet: -far }
    ]
  }
}

const pools: ReadonlyArray<PoolState> = [
  pool(1, weth, tokenX, 3000, 60, 0),
  pool(2, weth, tokenX, 500, 10, 0),
  pool(3, weth, stable, 500, 10, 0),
  pool(4, stable, tokenY, 3000, 60, 0),
  pool(5, tokenX, tokenY, 10000, 200, 0),
  pool(6, tokenY, tokenZ, 3000, 60, 0)
]

const tokens: ReadonlyArray<TokenInfo> = [weth, stable, tokenX, tokenY, tokenZ].map((address) => ({
  address,
  decimals: 18,
  symbol: "W"
}))

const config: RoutingConfig = {
  wrappedNative: weth,
  baseTokens: [weth, stable],
  connectorsPerToken: 2,
  secondHopsPerConnector: 1,
  maxHops: 3,
  maxSplits: 3,
  splitStepPercent: 5,
  poolsPerPair: 2,
  minLiquidity: 1n
}

/** Version `version`'s delta: a swap moved pool 1, pool 5 was removed (or came back), a new position in pool 4. */
const deltaTo = (version: number): VersionedDelta => {
  const moved = pool(1, weth, tokenX, 3000, 60, version % 2 === 0 ? 0 : 60)
  const widened = { ...pools[3]!, ticks: [...pools[3]!.ticks, { index: 200 * 60, liquidityNet: 0n }] }
  return {
    version,
    delta: {
      chainId: CHAIN_ID,
      blockNumber: BigInt(version + 1),
      pools: version % 2 === 0 ? [moved, widened, pools[4]!] : [moved, widened],
      removed: version % 2 === 0 ? [] : [pools[4]!.address],
      tokens: version % 2 === 0 ? [tokens[2]!] : []
    }
  }
}

const requests: ReadonlyArray<QuoteRequest> = [
  { tokenIn: weth, tokenOut: tokenX, amount: 2n * 10n ** 19n, type: "exactIn", gasPriceWei: 10n ** 9n },
  { tokenIn: tokenZ, tokenOut: weth, amount: 10n ** 18n, type: "exactOut", gasPriceWei: 10n ** 9n },
  { tokenIn: tokenX, tokenOut: tokenZ, amount: 10n ** 19n, type: "exactIn", gasPriceWei: 10n ** 9n }
]

/**
 * The tasks of one warm-up round, in order, for a fresh engine: a full load at version 0 and quotes on it, then
 * two deltas caught up at once and quotes on them.
 */
export const warmUpTasks = (): ReadonlyArray<WorkerTask> => {
  const snapshot = { chainId: CHAIN_ID, blockNumber: 1n, pools, tokens }
  const task = (version: number, sync: WorkerTask["sync"], request: QuoteRequest): WorkerTask => ({
    version,
    sync,
    request,
    calldata: null
  })
  return [
    task(0, { _tag: "Full", snapshot, config }, requests[0]!),
    task(0, null, requests[1]!),
    task(2, { _tag: "Deltas", deltas: [deltaTo(1), deltaTo(2)] }, requests[2]!),
    task(2, null, requests[0]!),
    task(2, null, requests[1]!)
  ]
}

/** A pushed delta as the main thread posts it (workers/DeltaPush.ts), for its decoder. */
export const warmUpPushedDelta = (): VersionedDelta => deltaTo(3)
