import { Effect, Schema } from "effect"

/**
 * Where the contracts of a chain live: written by the devnet deploy (`$DATA_DIR/devnet/deployments.json`), by
 * `npm run deploy:launchpad`, or checked in for a public chain (deployments/ethereum.json, deployments/base.json) and
 * selected with `DEPLOYMENTS_FILE`. Decoded with this schema whenever it is read.
 */

const hexOf = (bytes: number) =>
  Schema.TemplateLiteral(["0x", Schema.String]).check(
    Schema.isPattern(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`), {
      message: `expected 0x and ${bytes * 2} hex digits`
    })
  )

export const Address = hexOf(20).annotate({ description: "EVM address, 0x + 40 hex digits (any case)" })
export const Bytes32 = hexOf(32).annotate({ description: "32 bytes, 0x + 64 hex digits" })
const BlockNumber = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** The DEX side: Uniswap v3, its routers, WETH and the USD reference. Every deployment has these. */
export const DeployedContracts = Schema.Struct({
  weth9: Address,
  factory: Address,
  positionManager: Address,
  positionDescriptor: Schema.optional(Address),
  swapRouter02: Address,
  /** Not read by the app (quotes are computed off-chain); kept for tools that compare with the chain's quoter. */
  quoterV2: Schema.optional(Address),
  /** Not read by the app yet; recorded for reading a pool's initialized ticks in one call. */
  tickLens: Schema.optional(Address),
  /** Not read by the app yet; recorded for batching reads (the same address on most chains). */
  multicall3: Schema.optional(Address),
  /** On the devnet built from universal-router 1.6.0's Permit2, not the canonical address: always read it from here. */
  permit2: Address,
  universalRouter: Address,
  /**
   * The stablecoin USD values are derived from (priced at $1 against WETH): USDC on Ethereum and Base, a test USDT
   * (18 decimals) on the devnet.
   */
  stablecoin: Address
})
export type DeployedContracts = typeof DeployedContracts.Type

/** The launchpad (contracts/), absent on a chain where it is not deployed: launch features then answer 503. */
export const LaunchpadContracts = Schema.Struct({
  fireRegistry: Address,
  fireLaunch: Address,
  fireGraduator: Address,
  fuelVault: Address,
  fireStream: Address,
  /** The block of the launchpad's first deployment transaction (informational; `startBlock` decides indexing). */
  deployedAtBlock: Schema.optional(BlockNumber)
})
export type LaunchpadContracts = typeof LaunchpadContracts.Type

/** Another stablecoin of the chain: a routing connector (base token) besides WETH and `contracts.stablecoin`. */
export const KnownStablecoin = Schema.Struct({
  symbol: Schema.String,
  address: Address,
  /** Its USD value (default 1): USD prices start from every stablecoin at its peg. */
  pegUsd: Schema.optional(Schema.Number.check(Schema.isGreaterThan(0)))
})
export type KnownStablecoin = typeof KnownStablecoin.Type

/**
 * What the indexer tracks besides the launchpad's pools (env overrides: INDEXER_BASE_TOKENS, INDEXER_POOLS,
 * INDEXER_POOLS_AMONG_BASE_TOKENS, INDEXER_FEE_TIERS; src/indexer/IndexerScope.ts). Tracked pools that exist before the
 * start block are read from the chain at the block before it (slot0, liquidity, ticks, balances), then followed.
 */
export const IndexingScope = Schema.Struct({
  /** Routing connectors and indexed base tokens besides WETH and the stablecoins (e.g. WBTC). */
  baseTokens: Schema.optional(Schema.Array(Address)),
  /** Pools tracked from the start, by address. */
  pools: Schema.optional(Schema.Array(Address)),
  /** Also track every pool among the base tokens (found with the factory's getPool over `feeTiers`). */
  poolsAmongBaseTokens: Schema.optional(Schema.Boolean),
  /** The fee tiers `poolsAmongBaseTokens` looks at (default 100, 500, 3000, 10000). */
  feeTiers: Schema.optional(Schema.Array(Schema.Int.check(Schema.isGreaterThan(0))))
})
export type IndexingScope = typeof IndexingScope.Type

/** One launch seeded on the devnet (FireLaunch `Ignited`). */
export const SeededLaunch = Schema.Struct({
  token: Address,
  pool: Address,
  creator: Address,
  name: Schema.String,
  symbol: Schema.String,
  canonical: Schema.Boolean,
  fee: Schema.Int,
  graduated: Schema.Boolean,
  blockNumber: BlockNumber
})
export type SeededLaunch = typeof SeededLaunch.Type

/** A Uniswap v3 pool created by the seed (launch pools and the stablecoin pool), in factory token order. */
export const SeededPool = Schema.Struct({
  address: Address,
  token0: Address,
  token1: Address,
  fee: Schema.Int
})
export type SeededPool = typeof SeededPool.Type

export const Deployments = Schema.Struct({
  chainId: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  /** The block the indexer starts from (the launchpad's deployment block when it is deployed). */
  startBlock: BlockNumber,
  /** The RPC URL the file was written for (informational; RPC_URL decides where the app connects). */
  rpcUrl: Schema.optional(Schema.String),
  contracts: DeployedContracts,
  launchpad: Schema.optional(LaunchpadContracts),
  /** The chain's other main stablecoins (e.g. USDT, DAI): routing connectors and indexed base tokens. */
  stablecoins: Schema.optional(Schema.Array(KnownStablecoin)),
  /** Base tokens and pools tracked from the start block. */
  indexing: Schema.optional(IndexingScope),
  /** Devnet only: the launches its seed made (scripts and tests use them); may be left out (then none). */
  launches: Schema.Array(SeededLaunch).pipe(Schema.withDecodingDefaultKey(Effect.succeed([]))),
  /** Devnet only: the pools its seed made. */
  pools: Schema.optional(Schema.Array(SeededPool))
})
export type Deployments = typeof Deployments.Type

/**
 * A deployment record with every address zero and no launches: for a process or test that needs the record's shape
 * but no contracts (a call to one of them fails loudly).
 */
export const emptyDeployments = (chainId: number): Deployments => {
  const zero = "0x0000000000000000000000000000000000000000" as const
  return {
    chainId,
    startBlock: 0,
    contracts: {
      weth9: zero,
      factory: zero,
      positionManager: zero,
      swapRouter02: zero,
      quoterV2: zero,
      tickLens: zero,
      multicall3: zero,
      permit2: zero,
      universalRouter: zero,
      stablecoin: zero
    },
    launchpad: { fireRegistry: zero, fireLaunch: zero, fireGraduator: zero, fuelVault: zero, fireStream: zero },
    launches: []
  }
}

/** Every contract address of a deployment, launchpad included (for "is this one of ours" checks). */
export const deploymentAddresses = (deployments: Deployments): ReadonlyArray<string> => [
  ...Object.values(deployments.contracts).filter((a) => a !== undefined),
  ...(deployments.launchpad === undefined
    ? []
    : [
        deployments.launchpad.fireRegistry,
        deployments.launchpad.fireLaunch,
        deployments.launchpad.fireGraduator,
        deployments.launchpad.fuelVault,
        deployments.launchpad.fireStream
      ])
]

/** The launchpad of a deployment that must have one (the devnet, scripts and tests built on it). Throws otherwise. */
export const launchpadOf = (deployments: Deployments): LaunchpadContracts => {
  if (deployments.launchpad === undefined) {
    throw new Error(`chain ${deployments.chainId}: the deployments record has no launchpad (run deploy:launchpad)`)
  }
  return deployments.launchpad
}
