import { Data, Duration, Effect, Option } from "effect"
import { ChainReader } from "../fetch/ChainReader.ts"
import { IndexerConfig } from "../IndexerConfig.ts"
import { IndexerSource } from "../IndexerSource.ts"
import { type RollbackTarget, Store } from "../store/Store.ts"
import type { Step } from "./Decision.ts"
import type { Progress } from "./Progress.ts"
import { afterRollback, describeTarget, noRollback, repeatDelay, rollbackKey } from "./RepeatedRollback.ts"

/**
 * The chain replaced blocks below the kept hashes (deeper than FINALITY_DEPTH): the index and the chain disagree
 * below finality. Fatal: an operator decides (or, on the embedded devnet, the index is rebuilt; see IndexerSource).
 */
export class ReorgTooDeep extends Data.TaggedError("ReorgTooDeep")<{ readonly message: string }> {}

/** Applies a `Reorg` step: finds the common ancestor, rolls the tables back to it, reports it. */
export const makeRollbacks = (progress: Progress) =>
  Effect.gen(function* () {
    const source = yield* IndexerSource
    const settings = yield* IndexerConfig
    const reader = yield* ChainReader
    const store = yield* Store

    /**
     * Walks back from `from` comparing stored hashes with the chain's; the first match is the common ancestor. Past the
     * start block, every indexed block was replaced: back to before the start (nothing there to check a parent against).
     */
    const findAncestor = (from: bigint) =>
      Effect.gen(function* () {
        for (let n = from; n >= source.startBlock; n--) {
          const stored = yield* store.storedHash(n)
          if (Option.isNone(stored)) {
            if (!source.reindexOnDeepReorg) {
              return yield* new ReorgTooDeep({
                message: `reorg deeper than FINALITY_DEPTH (${settings.finalityDepth}) below block ${from}`
              })
            }
            yield* Effect.logWarning(
              `indexer: the chain no longer contains the indexed blocks below ${from}; re-indexing from the start block`
            )
            break
          }
          const remote = yield* reader.header(n)
          if (remote.hash === stored.value) return { _tag: "Block", header: remote } satisfies RollbackTarget
        }
        return { _tag: "BeforeStart", startBlock: source.startBlock } satisfies RollbackTarget
      })

    // A rollback repeated with nothing committed in between (the chain keeps disagreeing with the same block) waits
    // longer each time and says so in the status, instead of spinning.
    let history = noRollback
    const waitIfRepeated = (tip: bigint, target: RollbackTarget) =>
      Effect.suspend(() => {
        history = afterRollback(history, rollbackKey(tip, target))
        if (history.repeats === 0) return Effect.void
        const delay = repeatDelay(history.repeats)
        const message =
          `the rollback from ${tip} to ${describeTarget(target)} repeats without progress ` +
          `(${history.repeats + 1} times in a row): next attempt in ${Duration.format(delay)}`
        return Effect.logError(`indexer: ${message}`).pipe(
          Effect.andThen(progress.failed(message)),
          Effect.andThen(Effect.sleep(delay))
        )
      })

    return {
      apply: ({ from, tip }: Extract<Step, { _tag: "Reorg" }>) =>
        Effect.gen(function* () {
          const target: RollbackTarget = yield* findAncestor(from)
          yield* waitIfRepeated(tip, target)
          yield* Effect.logWarning(`indexer: reorg, rolling back from ${tip} to ${describeTarget(target)}`)
          const touched = yield* store.rollback(target)
          yield* progress.rolledBack(target, tip, touched)
        }),
      /** A batch was committed: the next rollback is not a repeat. */
      committed: Effect.sync(() => {
        history = noRollback
      })
    }
  })
