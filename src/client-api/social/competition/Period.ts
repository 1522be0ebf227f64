/**
 * Competition periods. `week`: the current ISO week in UTC, Monday 00:00 to the next Monday 00:00 (the board restarts
 * every Monday). `all`: everything indexed so far. Windows are half-open [startsAt, endsAt) over block timestamps.
 */
export const PERIODS = ["week", "all"] as const
export type PeriodName = (typeof PERIODS)[number]

export interface PeriodWindow {
  readonly period: PeriodName
  readonly startsAt: Date | null
  readonly endsAt: Date | null
}

const DAY = 86_400_000

export const windowOf = (period: PeriodName, now: Date): PeriodWindow => {
  if (period === "all") return { period, startsAt: null, endsAt: null }
  const midnight = Math.floor(now.getTime() / DAY) * DAY
  const sinceMonday = (new Date(midnight).getUTCDay() + 6) % 7
  const start = midnight - sinceMonday * DAY
  return { period, startsAt: new Date(start), endsAt: new Date(start + 7 * DAY) }
}

export const PERIOD_RULES =
  "Periods: `week` = the current ISO week in UTC (Monday 00:00 to next Monday 00:00, by block time); `all` = everything " +
  "indexed. Boards: `volume` = Σ USD size of swaps (amount_usd at the swap) by the Swap event's recipient, swaps whose " +
  "recipient is one of the deployment's contracts (routers handing output on) not attributed; `fuelGiven` = Σ wei of " +
  "FuelGiven by giver; `yaps` = comments written by the wallet's user. Ties: lower address first. Precomputed every " +
  "COMPETITION_REFRESH_SECONDS (default 60) from the indexed tables; `computedAt`/`indexedBlock` say as of when."
