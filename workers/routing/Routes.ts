/**
 * Candidate routes between two tokens: paths of 1..maxHops pools, each hop using one of its pair's candidate pools
 * (Graph.pairPools). The intermediate tokens are
 *  - the configured base tokens (WETH, a stablecoin, ...), always;
 *  - connectors: from each end of the trade, the partner tokens of its deepest pools, at most `connectorsPerToken`
 *    per end (bases and the two ends do not count). A launch token paired with another launch token, or a token
 *    whose liquidity sits against anything but the bases, is then routed through that partner;
 *  - second hops (3-hop routes only): per connector, the partners of its deepest pools, at most
 *    `secondHopsPerConnector`.
 * This is the SOR's candidate pool selection in spirit (its top pools by TVL touching tokenIn and tokenOut, their
 * second hops, the direct pools and the base pools), ranked by in-range depth (Graph.deepestPartners) rather than
 * subgraph TVL, and kept as token paths so that each pair still gets its best `poolsPerPair` pools.
 *
 * Shapes: 2 hops in → m → out, m a base or a connector of either end; 3 hops in → a → b → out, a from tokenIn's side
 * (a base, a connector of tokenIn, a second hop of tokenOut's connectors), b from tokenOut's side (a base, a
 * connector of tokenOut, a second hop of tokenIn's connectors). With B bases, C connectors and S second hops that is
 * at most B + 2C two-hop and (B + C + C·S)² three-hop token paths, each expanded to ≤ poolsPerPair^hops routes; most
 * token paths have a missing pair and cost a map lookup. Tokens never repeat along a path (no cycles), so no pool
 * repeats either. The list is memoised per pair for the current block.
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

/** Cartesian product of the candidate pools of consecutive pairs along a token path (none if a pair has no pool). */
const expand = (graph: PoolGraph, path: ReadonlyArray<Address>, out: Array<Route>): void => {
  const options: Array<ReadonlyArray<PoolState>> = []
  for (let i = 0; i + 1 < path.length; i++) {
    const pools = graph.pairPools(path[i]!, path[i + 1]!)
    if (pools.length === 0) return
    options.push(pools)
  }
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

export interface Intermediates {
  /** The middle token of 2-hop routes. */
  readonly middle: ReadonlyArray<Address>
  /** 3-hop routes in → a → b → out: candidates for a (tokenIn's side) and for b (tokenOut's side). */
  readonly first: ReadonlyArray<Address>
  readonly second: ReadonlyArray<Address>
  /** The connectors alone (for tests and diagnostics): of tokenIn, of tokenOut, and their second hops. */
  readonly connectors: {
    readonly in: ReadonlyArray<Address>
    readonly out: ReadonlyArray<Address>
    readonly secondIn: ReadonlyArray<Address>
    readonly secondOut: ReadonlyArray<Address>
  }
}

export const intermediates = (
  graph: PoolGraph,
  config: RoutingConfig,
  tokenIn: Address,
  tokenOut: Address
): Intermediates => {
  const bases = [...new Set(config.baseTokens)]
  const skip = new Set<Address>([...bases, tokenIn, tokenOut])
  // deepestPartners keeps one ranking per token and limit: one limit per count keeps one list per token.
  const partners = (token: Address, count: number) =>
    count <= 0
      ? []
      : graph
          .deepestPartners(token, count + bases.length + 2)
          .filter((t) => !skip.has(t))
          .slice(0, count)
  const cIn = partners(tokenIn, config.connectorsPerToken)
  const cOut = partners(tokenOut, config.connectorsPerToken)
  const secondOf = (connectors: ReadonlyArray<Address>) =>
    config.maxHops < 3 ? [] : [...new Set(connectors.flatMap((c) => partners(c, config.secondHopsPerConnector)))]
  const sIn = secondOf(cIn)
  const sOut = secondOf(cOut)
  const inner = (...groups: Array<ReadonlyArray<Address>>) =>
    [...new Set(groups.flat())].filter((t) => t !== tokenIn && t !== tokenOut)
  return {
    middle: inner(bases, cIn, cOut),
    first: inner(bases, cIn, sOut),
    second: inner(bases, cOut, sIn),
    connectors: { in: cIn, out: cOut, secondIn: sIn, secondOut: sOut }
  }
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
  const routes: Array<Route> = []
  if (tokenIn !== tokenOut) {
    expand(graph, [tokenIn, tokenOut], routes)
    if (config.maxHops >= 2) {
      const { middle, first, second } = intermediates(graph, config, tokenIn, tokenOut)
      for (const m of middle) expand(graph, [tokenIn, m, tokenOut], routes)
      if (config.maxHops >= 3) {
        for (const a of first) {
          if (graph.pairPools(tokenIn, a).length === 0) continue
          for (const b of second) if (a !== b) expand(graph, [tokenIn, a, b, tokenOut], routes)
        }
      }
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
