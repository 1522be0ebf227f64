/**
 * `npm run indexer:reindex-from -- <block>`: after a confirmed reorg deeper than FINALITY_DEPTH (the indexer stopped,
 * see docs/OPERATIONS.md), rolls the indexed tables back to `<block>` as the chain has it now; the indexer's next start
 * indexes from the block after it. Reads RPC_URL, DEPLOYMENTS_FILE and DATABASE_URL as the app does; waits while an
 * indexer holds the writer lock.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer, Option } from "effect"
import { ChainLive } from "../layers/Chain.ts"
import { DatabaseLive } from "../layers/Sql.ts"
import { Chain } from "../src/platform/Chain.ts"
import { ChainReader } from "../src/indexer/fetch/ChainReader.ts"
import { IndexerConfig } from "../src/indexer/IndexerConfig.ts"
import { sourceFromChain } from "../src/indexer/IndexerLive.ts"
import { IndexerSource } from "../src/indexer/IndexerSource.ts"
import { reindexFrom } from "../src/indexer/loop/ReindexFrom.ts"
import { Store } from "../src/indexer/store/Store.ts"

const arg = process.argv[2]
if (arg === undefined || !/^\d+$/.test(arg) || process.env.RPC_URL === undefined) {
  console.error("usage: RPC_URL=… DATABASE_URL=… npm run indexer:reindex-from -- <block number>")
  process.exit(2)
}
const block = BigInt(arg)

const indexer = Layer.unwrap(
  Effect.map(Effect.service(Chain), (chain) => {
    const source = sourceFromChain(chain)
    return Layer.mergeAll(ChainReader.layer, Store.layer(source.chainId)).pipe(
      Layer.provideMerge(Layer.mergeAll(IndexerSource.make(source), IndexerConfig.layer(source.chainId)))
    )
  })
)

const program = reindexFrom(block).pipe(
  Effect.tap((kept) =>
    Effect.sync(() =>
      console.log(
        Option.match(kept, {
          onNone: () => `indexer:reindex-from: the index does not reach past block ${block}; nothing to undo`,
          onSome: (n) => `indexer:reindex-from: rolled back to block ${n}; start the indexer to index from ${n + 1n}`
        })
      )
    )
  )
)

program.pipe(
  Effect.provide(indexer.pipe(Layer.provide(ChainLive), Layer.provideMerge(DatabaseLive))),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
