import { Schema } from "effect"

/**
 * Where the contracts of a chain live: written by the devnet deploy (`$DATA_DIR/devnet/deployments.json`) or
 * supplied for another chain through `DEPLOYMENTS_FILE`. Decoded with this schema whenever it is read.
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

export const DeployedContracts = Schema.Struct({
  // Uniswap v3 (npm artifacts)
  weth9: Address,
  factory: Address,
  positionManager: Address,
  positionDescriptor: Schema.optional(Address),
  swapRouter02: Address,
  quoterV2: Address,
  tickLens: Address,
  multicall3: Address,
  /** Built from universal-router 1.6.0's Permit2: not the canonical address, always read it from here. */
  permit2: Address,
  universalRouter: Address,
  // the launchpad (contracts/)
  fireRegistry: Address,
  fireLaunch: Address,
  fireGraduator: Address,
  fuelVault: Address,
  fireStream: Address,
  /** A test stablecoin (USDT, 18 decimals) with a pool against WETH, so multi-hop routes exist. */
  stablecoin: Address
})
export type DeployedContracts = typeof DeployedContracts.Type

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
  /** The block of the first deployment: indexers start here. */
  startBlock: BlockNumber,
  /** The RPC URL the file was written for (informational; RPC_URL decides where the app connects). */
  rpcUrl: Schema.optional(Schema.String),
  contracts: DeployedContracts,
  /** keccak256 of the UniswapV3Pool creation code of this factory: computes pool addresses (CREATE2). */
  poolInitCodeHash: Bytes32,
  launches: Schema.Array(SeededLaunch),
  pools: Schema.optional(Schema.Array(SeededPool))
})
export type Deployments = typeof Deployments.Type
