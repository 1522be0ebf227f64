import { Layer } from "effect"
import type { PublicClient } from "viem"
import { ChainReader } from "../../src/indexer/fetch/ChainReader.ts"
import { defaultIndexerSettings, IndexerConfig, type IndexerSettings } from "../../src/indexer/IndexerConfig.ts"
import { IndexerSource } from "../../src/indexer/IndexerSource.ts"

/** The zero address: every contract of the fake source, and the address the unit tests ask logs of. */
export const zero = "0x0000000000000000000000000000000000000000" as const

/**
 * The fetch stage (ChainReader) over a fake client on chain 1, no contracts (every address zero), with the default
 * indexer settings of chain 1 and `settings` over them: for unit tests of the reader's range and retry behaviour.
 */
export const readerOver = (client: PublicClient, settings: Partial<IndexerSettings> = {}) =>
  ChainReader.layer.pipe(
    Layer.provide(
      Layer.mergeAll(
        IndexerSource.make({
          client,
          chainId: 1,
          startBlock: 0n,
          baseTokens: [],
          contracts: {
            factory: zero,
            positionManager: zero,
            weth: zero,
            fireRegistry: zero,
            fireLaunch: zero,
            fireGraduator: zero,
            fuelVault: zero,
            fireStream: zero
          }
        }),
        IndexerConfig.layerWith({ ...defaultIndexerSettings(1), ...settings })
      )
    )
  )
