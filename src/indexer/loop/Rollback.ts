import { Data, Duration, Effect, Option } from "effect"
import { ChainReader } from "../fetch/ChainReader.ts"
import { IndexerConfig } from "../IndexerConfig.ts"
import { IndexerSource } from "../IndexerSource.ts"
import { type RollbackTarget, Store } from "../store/Store.ts"
import type { Step } from "./Decision.ts"
import type { Progress } from "./Progress.ts"
import { judgeEndpoints, type Verdict } from "./ReorgConfirm.ts"
import { afterRollback, describeTarget, noRollback, repeatDelay, rollbackKey } from "./RepeatedRollback.ts"

/**
 * The chain replaced blocks below the kept hashes (deeper than FINALITY_DEPTH), confirmed by a second read (one RPC
 * URL) or by two RPC endpoints that agree (several, ReorgConfirm.ts): the index and the chain disagree below finality. Fatal: an operator decides (docs/OPERATIONS.md, "Reorg deeper than
 * FINALITY_DEPTH"), or, on the embedded devnet, the index is rebuilt (see IndexerSource).
 */
export class ReorgTooDeep extends Data.TaggedError("ReorgTooDeep")<{ readonly message: string }> {}

/** The walk back found no common ancestor among the kept hashes, but the confirming reads did not agree with it. */
interface Unconfirmed {
  readonly _tag: "Unconfirmed"
  readonly why: string
}

/** The wait before the second read: INDEXER_REORG_CONFIRM_MS, doubled per unconfirmed one in a row, at most 5 min. */
export const confirmDelay = (confirmMs: number, unconfirmedInARow: number): Duration.Duration =>
  Duration.millis(Math.min(300_000, confirmMs * 2 ** Math.min(unconfirmedInARow, 10)))

/** Applies a `Reorg` step: finds the common ancestor, rolls the tables back to it, reports it. */
export const makeRollbacks = (progress: Progress) =>
  Effect.gen(function* () {
    const source = yield* IndexerSource
    const settings = yield* IndexerConfig
    const reader = yield* ChainReader
    const store = yield* Store
    let unconfirmedInARow = 0

    /** The second look at block `number`, indexed as `indexed`: each endpoint when there are several, else a reread. */
    const confirm = (number: bigint, indexed: string, delay: Duration.Duration) =>
      (source.endpoints?.length ?? 0) >= 2
        ? Effect.map(reader.hashAtEachEndpoint(number), (answers) => judgeEndpoints(number, indexed, answers))
        : Effect.map(
            reader.header(number),
            (again): Verdict =>
              again.hash === indexed
                ? { _tag: "Unconfirmed", why: `block ${number} read again is the one indexed` }
                : {
                    _tag: "Confirmed",
                    seen: `indexed ${indexed}, the chain has ${again.hash}, read twice ${Duration.format(delay)} apart`
                  }
          )

    /**
     * Every kept hash down to `deepest` differs from the chain's answers: a reorg deeper than FINALITY_DEPTH, or
     * answers from a node that is not on the chain (a load balancer's node on a stale fork, a flaky answer). Only a
     * later read tells them apart: `deepest` is read again after `confirmDelay` — with one RPC URL from it again, with
     * several from each endpoint directly (ReorgConfirm.ts: two must agree on another block, none may have the
     * indexed one). If the read does not confirm it, the first answers were wrong and there is nothing to undo: wait,
     * the next step reads again. Otherwise stop (or, on the embedded devnet, re-index from the start block).
     */
    const beyondKept = (from: bigint, deepest: { readonly number: bigint; readonly hash: string } | undefined) =>
      Effect.gen(function* () {
        let seen = "no kept hash to compare"
        if (deepest !== undefined) {
          const delay = confirmDelay(settings.reorgConfirmMs, unconfirmedInARow)
          yield* Effect.logWarning(
            `indexer: the chain's block ${deepest.number} is not the one indexed, deeper than FINALITY_DEPTH ` +
              `(${settings.finalityDepth}); reading it again in ${Duration.format(delay)} to confirm`
          )
          yield* Effect.sleep(delay)
          const verdict = yield* confirm(deepest.number, deepest.hash, delay)
          if (verdict._tag === "Unconfirmed") {
            unconfirmedInARow++
            return { _tag: "Unconfirmed", why: verdict.why } satisfies Unconfirmed
          }
          seen = verdict.seen
        }
        if (!source.reindexOnDeepReorg) {
          return yield* new ReorgTooDeep({
            message:
              `reorg deeper than FINALITY_DEPTH (${settings.finalityDepth}) below block ${from} ` +
              `(block ${deepest?.number ?? from}: ${seen}); the indexer stopped: see docs/OPERATIONS.md, ` +
              `"Reorg deeper than FINALITY_DEPTH"`
          })
        }
        yield* Effect.logWarning(
          `indexer: the chain no longer contains the indexed blocks below ${from}; re-indexing from the start block`
        )
        return { _tag: "BeforeStart", startBlock: source.startBlock } satisfies RollbackTarget
      })

    /**
     * The block below the oldest kept one, when the chain still has it: the kept block's parent hash names it. A block
     * committed as final (FINALITY_DEPTH below the head of its batch) keeps no hash of its own, yet a reorg of exactly
     * FINALITY_DEPTH blocks forks right there: it replaces only blocks that were not final.
     */
    const parentOfOldestKept = (oldest: bigint) =>
      Effect.gen(function* () {
        const parent = yield* store.storedParentHash(oldest)
        if (Option.isNone(parent)) return Option.none<RollbackTarget>()
        const remote = yield* reader.header(oldest - 1n)
        return remote.hash === parent.value
          ? Option.some<RollbackTarget>({ _tag: "Block", header: remote })
          : Option.none<RollbackTarget>()
      })

    /**
     * Walks back from `from` comparing stored hashes with the chain's; the first match is the common ancestor, or the
     * block the oldest kept one names as its parent. Past the start block, every indexed block was replaced: back to
     * before the start (nothing there to check a parent against).
     */
    const findAncestor = (from: bigint) =>
      Effect.gen(function* () {
        let deepest: { readonly number: bigint; readonly hash: string } | undefined
        for (let n = from; n >= source.startBlock; n--) {
          const stored = yield* store.storedHash(n)
          if (Option.isNone(stored)) {
            const parent = deepest === undefined ? Option.none() : yield* parentOfOldestKept(deepest.number)
            return Option.isSome(parent) ? parent.value : yield* beyondKept(from, deepest)
          }
          const remote = yield* reader.header(n)
          if (remote.hash === stored.value) return { _tag: "Block", header: remote } satisfies RollbackTarget
          deepest = { number: n, hash: stored.value }
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
          const found = yield* findAncestor(from)
          if (found._tag === "Unconfirmed") {
            const message =
              `a reorg deeper than FINALITY_DEPTH below block ${from} was not confirmed (${found.why}): ` +
              "answers from a node behind or on another fork, waited out"
            return yield* Effect.logWarning(`indexer: ${message}`).pipe(Effect.andThen(progress.failed(message)))
          }
          const target: RollbackTarget = found
          yield* waitIfRepeated(tip, target)
          yield* Effect.logWarning(`indexer: reorg, rolling back from ${tip} to ${describeTarget(target)}`)
          const touched = yield* store.rollback(target)
          yield* progress.rolledBack(target, tip, touched)
        }),
      /** A batch was committed: the next rollback is not a repeat. */
      committed: Effect.sync(() => {
        history = noRollback
        unconfirmedInARow = 0
      })
    }
  })
