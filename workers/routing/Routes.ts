/**
 * Candidate routes between two tokens: every path of 1..maxHops pools whose intermediate tokens are configured base
 * tokens (WETH, a stablecoin, ...), each hop using one of the pair's candidate pools. Tokens never repeat along a
 * path (no cycles), so no pool repeats either. The list is memoised per pair for the current block.
 */
import type { PoolGraph } from "./Graph.ts"
import type { Address, PoolState, RoutingConfig } from "./types.ts"

export interface Route {
  /** Tokens along the path: tokenIn, ..., tokenOut. */
  readonly path: ReadonlyArray<Address>
  readonly pools: ReadonlyArray<PoolState>
  /** Per hop: whether it sells token0 for token1. */
  readonly zeroForOne: ReadonlyArray<boolean>
}

const makeRoute = (path: ReadonlyArray<Address>, pools: ReadonlyArray<PoolState>): Route => ({
  path,
  pools,
  zeroForOne: pools.map((pool, i) => pool.token0 === path[i])
})

/** Cartesian product of the candidate pools of consecutive pairs along a token path. */
const expand = (graph: PoolGraph, path: ReadonlyArray<Address>, out: Array<Route>): void => {
  const options = path.slice(1).map((token, i) => graph.pairPools(path[i]!, token))
  if (options.some((o) => o.length === 0)) return
  const walk = (i: number, chosen: Array<PoolState>) => {
    if (i === options.length) {
      out.push(makeRoute(path, [...chosen]))
      return
    }
    for (const pool of options[i]!) {
      chosen.push(pool)
      walk(i + 1, chosen)
      chosen.pop()
    }
  }
  walk(0, [])
}

export const candidateRoutes = (
  graph: PoolGraph,
  config: RoutingConfig,
  tokenIn: Address,
  tokenOut: Address
): ReadonlyArray<Route> => {
  const key = `routes|${tokenIn}|${tokenOut}`
  const cached = graph.memo.get(key) as ReadonlyArray<Route> | undefined
  if (cached !== undefined) return cached
  const bases = [...new Set(config.baseTokens)].filter((b) => b !== tokenIn && b !== tokenOut)
  const routes: Array<Route> = []
  if (tokenIn !== tokenOut) {
    expand(graph, [tokenIn, tokenOut], routes)
    if (config.maxHops >= 2) for (const b of bases) expand(graph, [tokenIn, b, tokenOut], routes)
    if (config.maxHops >= 3) {
      for (const b1 of bases) for (const b2 of bases) if (b1 !== b2) expand(graph, [tokenIn, b1, b2, tokenOut], routes)
    }
  }
  graph.memo.set(key, routes)
  return routes
}

/** Whether two routes share a pool (a split never uses one pool in two legs: see Split.ts). */
export const sharesPool = (a: Route, b: Route): boolean => {
  for (const p of a.pools) for (const q of b.pools) if (p === q) return true
  return false
}
