import { Effect, Layer } from "effect"
import type { Address, PublicClient } from "viem"
import type { HeadAnnouncements, RpcEndpoint } from "../platform/Chain.ts"
import { IndexerConfig } from "./IndexerConfig.ts"
import { Indexer, IndexerServicesLive } from "./Indexer.ts"
import { indexerScopeConfig, type ScopeDefaults, withScope } from "./IndexerScope.ts"
import { IndexerSource } from "./IndexerSource.ts"

/** What the indexer needs from the process's chain (the `Chain` service has this shape). */
export interface ChainLike {
  readonly chainId: number
  readonly mode?: "devnet" | "external"
  readonly publicClient: PublicClient
  readonly endpoints?: ReadonlyArray<RpcEndpoint> | undefined
  readonly heads?: HeadAnnouncements | undefined
  readonly deployments: {
    readonly startBlock: number
    readonly contracts: {
      readonly weth9: Address
      readonly factory: Address
      readonly positionManager: Address
      readonly stablecoin?: Address | undefined
      readonly multicall3?: Address | undefined
    }
    readonly launchpad?:
      | {
          readonly fireRegistry: Address
          readonly fireLaunch: Address
          readonly fireGraduator: Address
          readonly fuelVault: Address
          readonly fireStream: Address
        }
      | undefined
    readonly stablecoins?:
      | ReadonlyArray<{ readonly address: Address; readonly pegUsd?: number | undefined }>
      | undefined
    readonly indexing?: ScopeDefaults["indexing"]
  }
}

export const sourceFromChain = (chain: ChainLike): IndexerSource["Service"] => {
  const c = chain.deployments.contracts
  const launchpad = chain.deployments.launchpad
  return {
    client: chain.publicClient,
    endpoints: chain.endpoints,
    heads: chain.heads,
    chainId: chain.chainId,
    startBlock: BigInt(chain.deployments.startBlock),
    contracts: {
      factory: c.factory,
      positionManager: c.positionManager,
      weth: c.weth9,
      fireRegistry: launchpad?.fireRegistry,
      fireLaunch: launchpad?.fireLaunch,
      fireGraduator: launchpad?.fireGraduator,
      fuelVault: launchpad?.fuelVault,
      fireStream: launchpad?.fireStream,
      stablecoin: c.stablecoin
    },
    baseTokens: [],
    stablecoins: (chain.deployments.stablecoins ?? []).map((s) => ({ address: s.address, pegUsd: s.pegUsd ?? 1 })),
    multicall3: c.multicall3,
    reindexOnDeepReorg: chain.mode === "devnet"
  }
}

/**
 * The running indexer of a process (the `indexer` service): the fiber plus the services readers use
 * (IndexerStatus, IndexerEvents). Settings from FINALITY_DEPTH and INDEXER_*; the scope (base tokens, stablecoins,
 * tracked pools) from the deployments record with its INDEXER_* overrides (IndexerScope.ts).
 */
export const IndexerLive = (source: IndexerSource["Service"], scope: ScopeDefaults = {}) =>
  Indexer.layer.pipe(
    Layer.provideMerge(IndexerServicesLive(source.chainId)),
    Layer.provideMerge(
      Layer.mergeAll(
        Layer.effect(
          IndexerSource,
          Effect.map(indexerScopeConfig(scope), (s) => IndexerSource.of(withScope(source, s)))
        ),
        IndexerConfig.layer(source.chainId)
      )
    )
  )
