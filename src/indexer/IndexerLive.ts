import { Layer } from "effect"
import type { Address, PublicClient } from "viem"
import { IndexerConfig } from "./IndexerConfig.ts"
import { Indexer, indexerServices } from "./Indexer.ts"
import { IndexerSource } from "./IndexerSource.ts"

/** What the indexer needs from the process's chain (the `Chain` service has this shape). */
export interface ChainLike {
  readonly chainId: number
  readonly mode?: "devnet" | "external"
  readonly publicClient: PublicClient
  readonly deployments: {
    readonly startBlock: number
    readonly contracts: {
      readonly weth9: Address
      readonly factory: Address
      readonly positionManager: Address
      readonly fireRegistry: Address
      readonly fireLaunch: Address
      readonly fireGraduator: Address
      readonly fuelVault: Address
      readonly fireStream: Address
      readonly stablecoin?: Address | undefined
    }
  }
}

export const sourceFromChain = (chain: ChainLike): IndexerSource["Service"] => {
  const c = chain.deployments.contracts
  return {
    client: chain.publicClient,
    chainId: chain.chainId,
    startBlock: BigInt(chain.deployments.startBlock),
    contracts: {
      factory: c.factory,
      positionManager: c.positionManager,
      weth: c.weth9,
      fireRegistry: c.fireRegistry,
      fireLaunch: c.fireLaunch,
      fireGraduator: c.fireGraduator,
      fuelVault: c.fuelVault,
      fireStream: c.fireStream,
      stablecoin: c.stablecoin
    },
    baseTokens: [],
    reindexOnDeepReorg: chain.mode === "devnet"
  }
}

/**
 * The running indexer of a process (the `indexer` service): the fiber plus the services readers use
 * (IndexerStatus, IndexerEvents). Settings from FINALITY_DEPTH and INDEXER_*.
 */
export const IndexerLive = (source: IndexerSource["Service"]) =>
  Indexer.layerFiber.pipe(
    Layer.provideMerge(indexerServices(source.chainId)),
    Layer.provideMerge(Layer.mergeAll(IndexerSource.make(source), IndexerConfig.layerConfig(source.chainId)))
  )
