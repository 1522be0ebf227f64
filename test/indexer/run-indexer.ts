/**
 * The indexer as its own process, for the crash test: `node test/indexer/run-indexer.ts` with DATABASE_URL, RPC_URL,
 * START_BLOCK, CONTRACTS (JSON of IndexedContracts) and the INDEXER_* settings in the environment. Runs until killed.
 */
import { Effect, Layer, Redacted } from "effect"
import { pgClientLayer } from "../../layers/Sql.ts"
import { IndexerConfig } from "../../src/indexer/IndexerConfig.ts"
import { IndexerServicesLive, runIndexer } from "../../src/indexer/Indexer.ts"
import { IndexerSource } from "../../src/indexer/IndexerSource.ts"
import { connect } from "../contracts/chain.ts"

const env = (name: string) => {
  const value = process.env[name]
  if (value === undefined) throw new Error(`${name} is not set`)
  return value
}
const chain = await connect(env("RPC_URL"))
const layer = IndexerServicesLive(31337).pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      IndexerSource.make({
        client: chain.public,
        chainId: 31337,
        startBlock: BigInt(env("START_BLOCK")),
        contracts: JSON.parse(env("CONTRACTS")),
        baseTokens: []
      }),
      IndexerConfig.layer(31337),
      pgClientLayer(Redacted.make(env("DATABASE_URL")), 4)
    )
  )
)
Effect.runFork(runIndexer.pipe(Effect.provide(layer), Effect.scoped))
