/**
 * Split search, in the manner of the SOR's getBestSwapRoute: estimate every candidate route at every multiple of the
 * split step (5 %, 10 %, ..., 100 % of the amount), then combine up to `maxSplits` of those estimates whose shares add
 * up to 100 %, keeping the combination with the best gas-adjusted total. The search runs on floating-point swap
 * estimates (math/Estimate.ts, within ~1e-12 of the exact amounts); Quote.ts then simulates the chosen legs, and the
 * best single route, exactly, and keeps whichever is better — every reported amount is exact.
 *
 * Legs of a split never share a pool. On chain the legs execute one after another, so a shared pool would quote the
 * second leg against a state the first leg already moved; excluding such pairs keeps every leg's quote exact.
 *
 * Bounds: every route is estimated at 100 % and at one step; only the best CANDIDATES of each (a deep route wins at
 * 100 %, a cheap thin one at small shares), plus the best CANDIDATES at one step that share no pool with the best
 * full route, get the full table; no table at all when even perfect prices on the best
 * route, less two legs' gas, could not beat the best single route (Bounds.ts); the combination search takes, per
 * share, the TOP_PER_LEVEL best routes that do not collide with the legs already chosen.
 */
import { spotRateAfterFees, valueBound } from "./Bounds.ts"
import { routeGas } from "./Gas.ts"
import { estimateSwap } from "./math/Estimate.ts"
import { type Route, sharesPool } from "./Routes.ts"
import type { TradeType } from "./types.ts"

const CANDIDATES = 4
const TOP_PER_LEVEL = 3

export interface SplitInput {
  readonly routes: ReadonlyArray<Route>
  readonly type: TradeType
  readonly amount: bigint
  readonly maxSplits: number
  readonly stepPercent: number
  /** Quote-token units per gas unit (tokenOut for exactIn, tokenIn for exactOut); 0 ignores gas. */
  readonly gasCostPerGas: number
}

export interface PlannedLeg {
  readonly route: Route
  /** Share in steps (of `levels` in total). */
  readonly level: number
}

export interface SplitPlan {
  readonly levels: number
  /** The best combination found (possibly a single leg), and the best single route; null when nothing fills. */
  readonly best: ReadonlyArray<PlannedLeg> | null
  readonly single: Route | null
}

export const levelsOf = (stepPercent: number) => Math.max(1, Math.round(100 / Math.max(1, stepPercent)))

/** Estimated input (exactIn) or output (exactOut) carried through the route; null if a hop runs dry. */
const estimateRoute = (route: Route, exactIn: boolean, amount: number): { amount: number; ticks: number } | null => {
  let carried = amount
  let ticks = 0
  const n = route.pools.length
  for (let k = 0; k < n; k++) {
    const i = exactIn ? k : n - 1 - k
    const e = estimateSwap(route.pools[i]!, route.zeroForOne[i]!, exactIn, carried)
    if (e === null) return null
    carried = e.amount
    ticks += e.ticksCrossed
  }
  return { amount: carried, ticks }
}

export const findSplit = (input: SplitInput): SplitPlan => {
  const { routes, type } = input
  const levels = levelsOf(input.stepPercent)
  const exactIn = type === "exactIn"
  const amount = Number(input.amount)
  /** Higher is better: exactIn output − gas, exactOut −(input + gas); null when the share cannot fill. */
  const value = (r: number, level: number): number | null => {
    const route = routes[r]!
    const e = estimateRoute(route, exactIn, (amount * level) / levels)
    if (e === null) return null
    const gas = Number(routeGas(route.pools.length, e.ticks)) * input.gasCostPerGas
    return exactIn ? e.amount - gas : -(e.amount + gas)
  }
  const rank = (values: ReadonlyArray<number | null>) =>
    values
      .map((_, i) => i)
      .filter((i) => values[i] !== null)
      .sort((i, j) => values[j]! - values[i]! || i - j)

  const full = routes.map((_, r) => value(r, levels))
  const fullRank = rank(full)
  const single = fullRank[0] === undefined ? null : routes[fullRank[0]]!
  const alone = single === null ? null : [{ route: single, level: levels }]
  if (input.maxSplits <= 1 || levels === 1 || routes.length === 1) return { levels, best: alone, single }
  // No split can beat the single route if even perfect prices on the best route, less two legs' gas, do not.
  if (single !== null) {
    const minGas = routes.map((r) => Number(routeGas(r.pools.length, 0)) * input.gasCostPerGas).sort((x, y) => x - y)
    const ceiling = valueBound(exactIn, amount, Math.max(...routes.map(spotRateAfterFees)), minGas[0]! + minGas[1]!)
    if (ceiling <= full[fullRank[0]!]!) return { levels, best: alone, single }
  }

  const first = routes.map((_, r) => value(r, 1))
  const firstRank = rank(first)
  // The best routes at one step are often the best full route's siblings (other fee tiers of a hop), which share a
  // pool with it and so cannot be split against it: also take the best ones that avoid its pools.
  const apart = single === null ? [] : firstRank.filter((r) => !sharesPool(routes[r]!, single)).slice(0, CANDIDATES)
  const chosen = [...new Set([...fullRank.slice(0, CANDIDATES), ...firstRank.slice(0, CANDIDATES), ...apart])]
  // table[c][level] for the chosen routes; index 0 unused.
  const table = chosen.map((r) => {
    const row: Array<number | null> = new Array(levels + 1).fill(null)
    for (let level = 1; level <= levels; level++)
      row[level] = level === levels ? full[r]! : level === 1 ? first[r]! : value(r, level)
    return row
  })
  const byLevel: Array<ReadonlyArray<number>> = [[]]
  for (let level = 1; level <= levels; level++) byLevel.push(rank(table.map((row) => row[level]!)))

  let best: { value: number; legs: Array<[number, number]> } | null = null
  const legs: Array<[number, number]> = []
  const search = (remaining: number, partsLeft: number, maxLevel: number, total: number) => {
    if (remaining === 0) {
      if (best === null || total > best.value) best = { value: total, legs: [...legs] }
      return
    }
    if (partsLeft === 0) return
    // Legs in non-increasing share order, so each combination is visited once (up to equal shares).
    for (let level = Math.min(remaining, maxLevel); level >= Math.ceil(remaining / partsLeft); level--) {
      let taken = 0
      for (const c of byLevel[level]!) {
        if (taken === TOP_PER_LEVEL) break
        if (legs.some(([other]) => other === c || sharesPool(routes[chosen[other]!]!, routes[chosen[c]!]!))) continue
        taken++
        legs.push([c, level])
        search(remaining - level, partsLeft - 1, level, total + table[c]![level]!)
        legs.pop()
      }
    }
  }
  search(levels, Math.min(input.maxSplits, chosen.length), levels, 0)
  if (best === null) return { levels, best: alone, single }
  const plan: { value: number; legs: Array<[number, number]> } = best
  return { levels, best: plan.legs.map(([c, level]) => ({ route: routes[chosen[c]!]!, level })), single }
}
