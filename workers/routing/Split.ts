/**
 * Split search, in the manner of the SOR's getBestSwapRoute: quote every candidate route at every multiple of the
 * split step (5 %, 10 %, ..., 100 % of the amount), then combine up to `maxSplits` of those quotes whose percentages
 * add up to 100 %, keeping the combination with the best gas-adjusted total.
 *
 * Legs of a split never share a pool. On chain the legs execute one after another, so a shared pool would quote the
 * second leg against a state the first leg already moved; excluding such pairs keeps every leg's quote exact.
 *
 * Bounds that keep it fast: routes are simulated at 100 % and at one step only while their upper bound (mid price
 * after fees, minimum gas: Bounds.ts) can still enter the best CANDIDATES; only those (a deep route wins at 100 %,
 * a cheap thin one at small shares) get the full table; no table at all when even a perfect split could not beat the
 * best single route; the combination search takes, per percentage, the TOP_PER_LEVEL best routes that do not
 * collide with the legs already chosen. The bounds are exact upper limits, so pruning never loses the best answer.
 */
import { spotRateAfterFees, valueBound } from "./Bounds.ts"
import { routeGas } from "./Gas.ts"
import { type Route, sharesPool } from "./Routes.ts"
import { type RouteSimulation, simulateExactIn, simulateExactOut } from "./Simulate.ts"
import type { TradeType } from "./types.ts"

const CANDIDATES = 4
const TOP_PER_LEVEL = 3

export interface Leg {
  readonly route: Route
  /** Share in steps (of `levels` in total). */
  readonly level: number
  readonly sim: RouteSimulation
  readonly gas: bigint
}

export interface SplitInput {
  readonly routes: ReadonlyArray<Route>
  readonly type: TradeType
  readonly amount: bigint
  readonly maxSplits: number
  readonly stepPercent: number
  /** Gas units → quote token (tokenOut for exactIn, tokenIn for exactOut); null ignores gas. */
  readonly gasCost: ((gas: bigint) => bigint) | null
}

export interface SplitPlan {
  readonly legs: ReadonlyArray<Leg>
  readonly levels: number
}

interface Entry {
  readonly sim: RouteSimulation
  readonly gas: bigint
  /** Higher is better: exactIn output − gas, exactOut −(input + gas). */
  readonly value: bigint
}

/** Indices of the non-null entries, best value first (ties: lower index first). */
const rank = (entries: ReadonlyArray<Entry | null>): Array<number> =>
  entries
    .map((_, i) => i)
    .filter((i) => entries[i] !== null)
    .sort((i, j) => {
      const a = entries[i]!.value
      const b = entries[j]!.value
      return a === b ? i - j : a > b ? -1 : 1
    })

export const levelsOf = (stepPercent: number) => Math.max(1, Math.round(100 / Math.max(1, stepPercent)))

export const findSplit = (input: SplitInput): SplitPlan | null => {
  const { routes, type, amount } = input
  const levels = levelsOf(input.stepPercent)
  const exactIn = type === "exactIn"
  const shareOf = (level: number) => (amount * BigInt(level)) / BigInt(levels)
  const entry = (route: Route, level: number): Entry | null => {
    const share = shareOf(level)
    const sim = exactIn ? simulateExactIn(route, share) : simulateExactOut(route, share)
    if (sim === null) return null
    const gas = routeGas(route.pools.length, sim.ticksCrossed)
    const cost = input.gasCost === null ? 0n : input.gasCost(gas)
    return { sim, gas, value: exactIn ? sim.amountOut - cost : -(sim.amountIn + cost) }
  }

  // Upper bounds on a route's value (Bounds.ts): routes that cannot beat the k-th best so far are not simulated.
  const rates = routes.map(spotRateAfterFees)
  const minGas = routes.map((r) => (input.gasCost === null ? 0 : Number(input.gasCost(routeGas(r.pools.length, 0)))))
  const bound = (i: number, level: number) => valueBound(exactIn, Number(shareOf(level)), rates[i]!, minGas[i]!)

  /** The k best routes at a share, best first, simulating in order of their bound until none can enter the top k. */
  const topAt = (level: number, k: number) => {
    const entries = new Map<number, Entry | null>()
    const top: Array<number> = []
    const order = routes.map((_, i) => [i, bound(i, level)] as const).sort((x, y) => y[1] - x[1])
    for (const [i, b] of order) {
      if (top.length === k && b <= Number(entries.get(top[k - 1]!)!.value)) break
      const e = entry(routes[i]!, level)
      entries.set(i, e)
      if (e === null) continue
      let at = top.length
      while (at > 0 && entries.get(top[at - 1]!)!.value < e.value) at--
      top.splice(at, 0, i)
      if (top.length > k) top.pop()
    }
    return { entries, top }
  }

  const full = topAt(levels, input.maxSplits > 1 ? CANDIDATES : 1)
  const bestSingle = full.top[0]
  if (bestSingle === undefined && (input.maxSplits <= 1 || levels === 1)) return null
  const single: SplitPlan | null = bestSingle === undefined
    ? null
    : { levels, legs: [{ route: routes[bestSingle]!, level: levels, ...full.entries.get(bestSingle)! }] }
  if (input.maxSplits <= 1 || levels === 1 || routes.length === 1) return single
  // No split can beat the single route if even perfect prices on the best route, less two legs' gas, do not.
  if (bestSingle !== undefined) {
    const [g1 = 0, g2 = 0] = [...minGas].sort((x, y) => x - y)
    if (valueBound(exactIn, Number(amount), Math.max(...rates), g1 + g2) <= Number(full.entries.get(bestSingle)!.value)) return single
  }

  const first = topAt(1, CANDIDATES)
  const chosen = [...new Set([...full.top, ...first.top])]
  // table[c][level] for the chosen routes; index 0 unused.
  const table = chosen.map((r) => {
    const row: Array<Entry | null> = new Array(levels + 1).fill(null)
    for (let level = 1; level <= levels; level++) {
      const known = level === levels ? full.entries.get(r) : level === 1 ? first.entries.get(r) : undefined
      row[level] = known === undefined ? entry(routes[r]!, level) : known
    }
    return row
  })
  const byLevel: Array<ReadonlyArray<number>> = [[]]
  for (let level = 1; level <= levels; level++) byLevel.push(rank(table.map((row) => row[level]!)))

  let best: { value: bigint; legs: Array<[number, number]> } | null = null
  const legs: Array<[number, number]> = []
  const search = (remaining: number, partsLeft: number, maxLevel: number, value: bigint) => {
    if (remaining === 0) {
      if (best === null || value > best.value) best = { value, legs: [...legs] }
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
        search(remaining - level, partsLeft - 1, level, value + table[c]![level]!.value)
        legs.pop()
      }
    }
  }
  search(levels, Math.min(input.maxSplits, chosen.length), levels, 0n)
  if (best === null) return single
  const plan: { value: bigint; legs: Array<[number, number]> } = best
  return {
    levels,
    legs: plan.legs.map(([c, level]) => ({ route: routes[chosen[c]!]!, level, ...table[c]![level]! }))
  }
}
