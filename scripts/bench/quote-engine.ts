/**
 * Our side of `npm run bench:quotes`: the routing core (workers/routing, `makeRouter(snapshot, config)`) called
 * directly on the main thread, one quote at a time, after untimed warm-up quotes, so the figures are the engine's own
 * (no worker hop, no HTTP). The routing core (and its pool generator) are loaded by path at run time, so that this
 * harness ran (and reported the engine as missing) before the routing branch had landed.
 */
import type { Address, MakeRouter, PoolSnapshot, QuoteRequest, RoutingConfig, RoutingOutcome } from "../../workers/routing/types.ts"

export const loadEngine = async (): Promise<MakeRouter | null> => {
  const path = "../../workers/routing/index.ts"
  try {
    const m = (await import(path)) as { makeRouter?: MakeRouter }
    return m.makeRouter ?? null
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_MODULE_NOT_FOUND") return null
    throw e
  }
}

/** The routing core's pool generator (workers/routing/testing/generatePools.ts), or null before it has landed. */
export const loadGenerator = async (): Promise<{
  generateUniverse: (seed: number, count: number) => { snapshot: PoolSnapshot }
  GENERATED_WETH: Address
  GENERATED_USDC: Address
} | null> => {
  const path = "../../workers/routing/testing/generatePools.ts"
  try {
    return await import(path)
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_MODULE_NOT_FOUND") return null
    throw e
  }
}

/**
 * The settings the quote routes use (src/domain/QuoteChains.ts `quoteChainFrom`): WETH and the stablecoin as bases,
 * 3 hops, splits over up to 3 routes in 5 % steps, 5 candidate pools per pair, no pool without in-range liquidity.
 */
export const benchConfig = (weth: Address, stable: Address): RoutingConfig => ({
  wrappedNative: weth,
  baseTokens: [weth, stable],
  maxHops: 3,
  maxSplits: 3,
  splitStepPercent: 5,
  poolsPerPair: 5,
  minLiquidity: 1n
})

export interface TimedOutcome {
  readonly outcome: RoutingOutcome
  readonly latencyMs: number
}

export const timeQuotes = (
  makeRouter: MakeRouter, snapshot: PoolSnapshot, config: RoutingConfig, requests: ReadonlyArray<QuoteRequest>, warmup: number
): { buildMs: number; results: Array<TimedOutcome> } => {
  const t0 = performance.now()
  const router = makeRouter(snapshot, config)
  const buildMs = performance.now() - t0
  for (let i = 0; i < warmup && requests.length > 0; i++) router.quote(requests[i % requests.length]!)
  const results = requests.map((r) => {
    const start = performance.now()
    const outcome = router.quote(r)
    return { outcome, latencyMs: performance.now() - start }
  })
  return { buildMs, results }
}

export const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  if (xs.length === 0) return Number.NaN
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}

export const summary = (xs: ReadonlyArray<number>) =>
  xs.length === 0 ? "n/a" : `p50 ${percentile(xs, 0.5).toFixed(2)} ms, p99 ${percentile(xs, 0.99).toFixed(2)} ms, max ${Math.max(...xs).toFixed(2)} ms (n=${xs.length})`
