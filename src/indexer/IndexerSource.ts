import { Context, Layer } from "effect"
import type { Address, PublicClient } from "viem"
import type { HeadAnnouncements, RpcEndpoint } from "../platform/Chain.ts"

/**
 * The contracts the indexer follows. Pools and launched tokens are discovered from their events. The launchpad's five
 * are absent on a chain without it: then only the DEX (pools among the base tokens) is indexed.
 */
export interface IndexedContracts {
  readonly factory: Address
  readonly positionManager: Address
  readonly weth: Address
  readonly fireRegistry?: Address | undefined
  readonly fireLaunch?: Address | undefined
  readonly fireGraduator?: Address | undefined
  readonly fuelVault?: Address | undefined
  readonly fireStream?: Address | undefined
  /** The USD reference: pools of (stablecoin, weth) price WETH in USD; absent → every USD value is null. */
  readonly stablecoin?: Address | undefined
}

/**
 * Where the indexer reads from: a viem public client of one chain, where to start and what to follow.
 * A plain service so that the composition root wires it from `Chain` (deployments file + RPC) and tests from an
 * anvil they start themselves.
 */
export class IndexerSource extends Context.Service<
  IndexerSource,
  {
    readonly client: PublicClient
    /**
     * With several RPC URLs, each one's own client (`client` is their fallback). A mismatch below the kept hashes is
     * believed only when two of them agree on it (loop/Rollback.ts): one node on a stale fork cannot stop the indexer.
     */
    readonly endpoints?: ReadonlyArray<RpcEndpoint> | undefined
    /** New heads announced over a WebSocket (the chain's `heads`): the indexer wakes on them between polls. */
    readonly heads?: HeadAnnouncements | undefined
    readonly chainId: number
    readonly startBlock: bigint
    readonly contracts: IndexedContracts
    /**
     * Tokens whose pools with each other are indexed too (the base pairs, e.g. stablecoin/WETH), and which get a
     * `tokens` row. WETH and the stablecoin are always included.
     */
    readonly baseTokens: ReadonlyArray<Address>
    /**
     * The USD anchors: each stablecoin at its peg (USD per token). `contracts.stablecoin` is one at $1 unless listed
     * here with another peg. Stablecoins are base tokens.
     */
    readonly stablecoins?: ReadonlyArray<{ readonly address: Address; readonly pegUsd: number }> | undefined
    /** Pools that existed before the start block and are tracked from it (read over RPC, then followed). */
    readonly trackedPools?: TrackedPools | undefined
    /** Multicall3, which batches the reads of the tracked pools (the canonical address when absent). */
    readonly multicall3?: Address | undefined
    /**
     * A reorg deeper than the kept block hashes normally stops the indexer (the index and a real chain disagree below
     * finality: an operator decides). On the embedded devnet it is routine — a killed process restarts the chain from
     * its last saved state — so there the index is rebuilt from the start block instead.
     */
    readonly reindexOnDeepReorg?: boolean
  }
>()("app/indexer/IndexerSource") {
  static readonly make = (source: IndexerSource["Service"]) => Layer.succeed(IndexerSource, source)
}

/** Which pools are tracked from the start besides those the launchpad's events bring. */
export interface TrackedPools {
  /** By address. */
  readonly addresses: ReadonlyArray<Address>
  /** Every pool among the base tokens, found with the factory's getPool over `feeTiers`. */
  readonly amongBaseTokens: boolean
  readonly feeTiers: ReadonlyArray<number>
}

/** The base tokens of a source, lowercased and deduplicated (WETH and the stablecoin first, then the stablecoins). */
export const baseTokensOf = (source: IndexerSource["Service"]): ReadonlyArray<string> => {
  const all = [
    source.contracts.weth,
    source.contracts.stablecoin,
    ...(source.stablecoins ?? []).map((s) => s.address),
    ...source.baseTokens
  ]
  return [...new Set(all.flatMap((a) => (a === undefined ? [] : [a.toLowerCase()])))]
}

/** Stablecoin → peg (USD per token), lowercased: `contracts.stablecoin` at $1 unless listed with another peg. */
export const stablecoinsOf = (source: IndexerSource["Service"]): ReadonlyMap<string, number> => {
  const pegs = new Map<string, number>()
  if (source.contracts.stablecoin !== undefined) pegs.set(source.contracts.stablecoin.toLowerCase(), 1)
  for (const s of source.stablecoins ?? []) pegs.set(s.address.toLowerCase(), s.pegUsd)
  return pegs
}
