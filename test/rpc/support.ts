import { Effect, Layer, Option } from "effect"
import type { Hash } from "viem"
import { inject } from "vitest"
import { type ChainSettings, makeChain } from "../../layers/Chain.ts"
import { defaultIndexerSettings, IndexerConfig, type IndexerSettings } from "../../src/indexer/IndexerConfig.ts"
import { Indexer, IndexerServicesLive } from "../../src/indexer/Indexer.ts"
import { sourceFromChain } from "../../src/indexer/IndexerLive.ts"
import { IndexerSource } from "../../src/indexer/IndexerSource.ts"
import type { Chain } from "../../src/platform/Chain.ts"
import type { AnvilChainShape } from "../support/AnvilChain.ts"
import { type RpcFaults, type RpcProxy, startRpcProxy } from "../support/RpcProxy.ts"

/** A fault-injecting proxy (test/support/RpcProxy.ts) in front of the file's anvil, closed with the scope. */
export const scopedProxy = (anvil: AnvilChainShape, faults: RpcFaults = {}) =>
  Effect.acquireRelease(
    Effect.promise(() => startRpcProxy(anvil.rpcUrl, faults)),
    (p) => Effect.promise(() => p.close())
  )

/**
 * The app's `Chain` as layers/Chain.ts builds it for RPC_URL (and RPC_WS_URL), over the seeded devnet's deployments
 * file: the same code path as production, with the proxies' URLs.
 */
export const externalChain = (settings: {
  readonly rpcUrl: string
  readonly rpcWsUrl?: string
  readonly rpcTimeoutMs?: number
  readonly rpcRankIntervalMs?: number
}) =>
  makeChain({
    rpcUrl: Option.some(settings.rpcUrl),
    rpcWsUrl: Option.fromUndefinedOr(settings.rpcWsUrl),
    deploymentsFile: Option.some(inject("devnetDeploymentsFile")),
    devnetPort: 0,
    dataDir: "/nonexistent",
    rpcTimeoutMs: settings.rpcTimeoutMs,
    rpcRankIntervalMs: settings.rpcRankIntervalMs
  } satisfies ChainSettings)

/** The indexer fiber reading `chain` (its client and its announced heads), with test settings. */
export const indexerOf = (chain: Chain["Service"], overrides: Partial<IndexerSettings> = {}) =>
  Indexer.layer.pipe(
    Layer.provideMerge(IndexerServicesLive(chain.chainId)),
    Layer.provideMerge(
      Layer.mergeAll(
        IndexerSource.make(sourceFromChain(chain)),
        IndexerConfig.layerWith({ ...defaultIndexerSettings(chain.chainId), finalityDepth: 2, ...overrides })
      )
    )
  )

/** A plain ETH transfer on the devnet (one new block), sent straight to anvil, not through a proxy. */
export const transfer = (anvil: AnvilChainShape): Promise<{ hash: Hash; blockNumber: bigint }> =>
  anvil.sender
    .send(anvil.accounts[5]!, { to: anvil.accounts[6]!.address, value: 1n })
    .then((r) => ({ hash: r.transactionHash, blockNumber: r.blockNumber }))

export type { RpcProxy }
