import { Duration } from "effect"
import { type RollbackTarget, rollbackKeeps } from "../store/Store.ts"

/**
 * The last rollback and how many times in a row it was repeated with nothing committed in between. A rollback that
 * makes no progress (the chain keeps disagreeing with the same block) would otherwise be retried at once, forever.
 */
export interface RollbackHistory {
  readonly last: string | null
  readonly repeats: number
}

export const noRollback: RollbackHistory = { last: null, repeats: 0 }

/** What makes two rollbacks identical: the tip they start from and where they end. */
export const rollbackKey = (tip: bigint, target: RollbackTarget): string =>
  `${tip}>${target._tag === "Block" ? `${target.header.number}:${target.header.hash}` : `before ${target.startBlock}`}`

/** The history after a rollback (a commit resets it to `noRollback`). */
export const afterRollback = (history: RollbackHistory, key: string): RollbackHistory =>
  history.last === key ? { last: key, repeats: history.repeats + 1 } : { last: key, repeats: 0 }

const firstDelay = Duration.seconds(1)
const maxDelay = Duration.minutes(1)

/** The wait before a repeated rollback: 1 s, 2 s, 4 s … at most a minute; none before a first one. */
export const repeatDelay = (repeats: number): Duration.Duration =>
  repeats <= 0 ? Duration.zero : Duration.min(Duration.times(firstDelay, 2 ** Math.min(repeats - 1, 16)), maxDelay)

/** For logs and the status: "block 41" or "before the start block 1". */
export const describeTarget = (target: RollbackTarget): string =>
  target._tag === "Block" ? `block ${rollbackKeeps(target)}` : `before the start block ${target.startBlock}`
