import { Effect, Option } from "effect"
import { ChainReader } from "../fetch/ChainReader.ts"
import { IndexerConfig } from "../IndexerConfig.ts"
import { Store } from "../store/Store.ts"

/**
 * The operator's way out of a confirmed reorg deeper than FINALITY_DEPTH (docs/OPERATIONS.md): the indexed tables are
 * rolled back to `block` as the chain has it now (the events above it deleted, the derived tables recomputed from the
 * events left, the checkpoint on the chain's header of `block`), so that the next start indexes from `block + 1`. It
 * takes the writer lock first: it waits while an indexer runs. Answers the block kept, or none when the index does
 * not reach past `block` (nothing to undo).
 */
export const reindexFrom = (block: bigint) =>
  Effect.gen(function* () {
    const store = yield* Store
    const reader = yield* ChainReader
    const settings = yield* IndexerConfig
    yield* store.lock(
      settings.lockKey,
      Effect.logInfo("reindex: an indexer holds the writer lock; waiting (stop the indexer service)")
    )
    const checkpoint = yield* store.checkpoint
    if (Option.isNone(checkpoint) || checkpoint.value.blockNumber <= block) return Option.none<bigint>()
    const header = yield* reader.header(block)
    yield* store.rollback({ _tag: "Block", header })
    return Option.some(header.number)
  }).pipe(Effect.scoped)
