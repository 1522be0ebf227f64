import { Effect, Layer } from "effect"
import { type Chain as ChainService, Chain } from "../../src/platform/Chain.ts"
import { defaultIndexerSettings, IndexerConfig, type IndexerSettings } from "../../src/indexer/IndexerConfig.ts"
import { Indexer, IndexerServicesLive } from "../../src/indexer/Indexer.ts"
import { sourceFromChain } from "../../src/indexer/IndexerLive.ts"
import { indexerScopeConfig, withScope } from "../../src/indexer/IndexerScope.ts"
import { IndexerSource } from "../../src/indexer/IndexerSource.ts"
import {
  deployMainnetShaped,
  type MainnetShaped,
  type MainnetShapedOptions
} from "../../scripts/devnet/mainnet-shaped.ts"
import { type AnvilChainShape, startAnvilChain } from "./AnvilChain.ts"

/**
 * The mainnet-shaped devnet (scripts/devnet/mainnet-shaped.ts) on a bare anvil of the test's own: a market of WETH,
 * stablecoins and pools that predates the launchpad, then the launchpad and a few launches. Stopped with the scope.
 */
export interface MainnetShapedChain {
  readonly chain: AnvilChainShape
  readonly scenario: MainnetShaped
}

export const scopedMainnetShaped = (options: MainnetShapedOptions = {}) =>
  Effect.gen(function* () {
    const chain = yield* Effect.acquireRelease(
      Effect.promise(() => startAnvilChain({ state: "empty" })),
      (c) => Effect.promise(c.stop)
    )
    const scenario = yield* Effect.promise(() => deployMainnetShaped(chain.rpcUrl, chain.chainId, options))
    return { chain, scenario } satisfies MainnetShapedChain
  })

/** The app's `Chain` service over the scenario (mode "devnet"). */
export const chainOf = ({ chain, scenario }: MainnetShapedChain): ChainService["Service"] =>
  Chain.of({
    chainId: chain.chainId,
    rpcUrl: chain.rpcUrl,
    publicClient: chain.publicClient,
    deployments: scenario.deployments,
    mode: "devnet"
  })

/** The indexer fiber over the scenario, with its deployments' scope (as the app wires it) and fast test settings. */
export const mainnetShapedIndexer = (m: MainnetShapedChain, overrides: Partial<IndexerSettings> = {}) =>
  Indexer.layer.pipe(
    Layer.provideMerge(IndexerServicesLive(m.chain.chainId)),
    Layer.provideMerge(
      Layer.mergeAll(
        Layer.effect(
          IndexerSource,
          Effect.map(indexerScopeConfig(m.scenario.deployments), (scope) =>
            IndexerSource.of(withScope(sourceFromChain(chainOf(m)), scope))
          )
        ),
        IndexerConfig.layerWith({
          ...defaultIndexerSettings(m.chain.chainId),
          finalityDepth: 32,
          pollIntervalMs: 50,
          ...overrides
        })
      )
    )
  )
