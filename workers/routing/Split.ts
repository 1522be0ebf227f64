/**
 * Split search, in the manner of the SOR's getBestSwapRoute: quote every candidate route at every multiple of the
 * split step (5 %, 10 %, ..., 100 % of the amount), then combine up to `maxSplits` of those quotes whose percentages
 * add up to 100 %, keeping the combination with the best gas-adjusted total.
 *
 * Legs of a split never share a pool. On chain the legs execute one after another, so a shared pool would quote the
 * second leg against a state the first leg already moved; excluding such pairs keeps every leg's quote exact.
 *
 * Bounds that keep it fast: all routes are quoted at 100 % and at one step; only the best CANDIDATES of each
 * (a deep route wins at 100 %, a cheap thin one at small shares) get the full table; the combination search takes,
 * per percentage, the TOP_PER_LEVEL best routes that do not collide with the legs already chosen.
 */
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

export const levelsOf = (stepPercent: number) => Math.max(1, Math.round(100 / Math.max(1, stepPercent)))

export const findSplit = (input: SplitInput): SplitPlan | null => {
  const { routes, type, amount } = input
  const levels = levelsOf(input.stepPercent)
  const exactIn = type === "exactIn"
  const entry = (route: Route, level: number): Entry | null => {
    const share = (amount * BigInt(level)) / BigInt(levels)
    const sim = exactIn ? simulateExactIn(route, share) : simulateExactOut(route, share)
    if (sim === null) return null
    const gas = routeGas(route.pools.length, sim.ticksCrossed)
    const cost = input.gasCost === null ? 0n : input.gasCost(gas)
    return { sim, gas, value: exactIn ? sim.amountOut - cost : -(sim.amountIn + cost) }
  }
  const better = (a: Entry | null, b: Entry | null) => (a === null ? false : b === null ? true : a.value > b.value)
  const rank = (entries: ReadonlyArray<Entry | null>) =>
    entries.map((_, i) => i).filter((i) => entries[i] !== null).sort((i, j) => (better(entries[i]!, entries[j]!) ? -1 : better(entries[j]!, entries[i]!) ? 1 : i - j))

  const full = routes.map((r) => entry(r, levels))
  const splitting = input.maxSplits > 1 && levels > 1 && routes.length > 1
  if (!splitting) {
    const best = rank(full)[0]
    return best === undefined ? null : { levels, legs: [{ route: routes[best]!, level: levels, ...full[best]! }] }
  }

  const first = routes.map((r) => entry(r, 1))
  const chosen = [...new Set([...rank(full).slice(0, CANDIDATES), ...rank(first).slice(0, CANDIDATES)])]
  // table[c][level] for the chosen routes; index 0 unused.
  const table = chosen.map((r) => {
    const row: Array<Entry | null> = new Array(levels + 1).fill(null)
    row[1] = first[r]!
    row[levels] = full[r]!
    for (let level = 2; level < levels; level++) row[level] = entry(routes[r]!, level)
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
  if (best === null) return null
  const plan: { value: bigint; legs: Array<[number, number]> } = best
  return {
    levels,
    legs: plan.legs.map(([c, level]) => ({ route: routes[chosen[c]!]!, level, ...table[c]![level]! }))
  }
}
