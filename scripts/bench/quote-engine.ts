/**
 * Our side of `npm run bench:quotes`: the routing core (workers/routing, `makeRouter(snapshot, config)`) called
 * directly on the main thread, one quote at a time, after untimed warm-up quotes, so the figures are the engine's own
 * (no worker hop, no HTTP). The caller passes the quote routes' own settings (src/exchange-api/quotes/QuoteChains.ts
 * `routingConfigFor`), with the pool set's WETH and stablecoin as base tokens.
 */
import { makeRouter } from "../../workers/routing/index.ts"
import type { PoolSnapshot, QuoteRequest, RoutingConfig, RoutingOutcome } from "../../workers/routing/types.ts"

export interface TimedOutcome {
  readonly outcome: RoutingOutcome
  readonly latencyMs: number
}

export const timeQuotes = (
  snapshot: PoolSnapshot,
  config: RoutingConfig,
  requests: ReadonlyArray<QuoteRequest>,
  warmup: number
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
  xs.length === 0
    ? "n/a"
    : `p50 ${percentile(xs, 0.5).toFixed(2)} ms, p99 ${percentile(xs, 0.99).toFixed(2)} ms, max ${Math.max(...xs).toFixed(2)} ms (n=${xs.length})`
