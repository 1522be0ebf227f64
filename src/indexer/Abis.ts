import { type AbiEvent, getAbiItem, parseAbi, toEventSelector } from "viem"
import {
  FireGraduatorAbi,
  FireLaunchAbi,
  FireRegistryAbi,
  FireStreamAbi,
  FuelVaultAbi
} from "../../contracts/generated/index.ts"

/**
 * The events the indexer reads, grouped by the kind of contract that emits them. Uniswap's are written as
 * human-readable ABI (identical to the npm artifacts' entries) so that decoding is typed without loading JSON.
 */
const onlyEvents = (abi: ReadonlyArray<{ readonly type: string }>) =>
  abi.filter((item): item is AbiEvent => item.type === "event")

export const launchEvents = onlyEvents(FireLaunchAbi)
export const graduatorEvents = onlyEvents(FireGraduatorAbi)
export const fuelVaultEvents = onlyEvents(FuelVaultAbi)
export const streamEvents = onlyEvents(FireStreamAbi)
export const registryEvents = onlyEvents(FireRegistryAbi)

export const erc20Events = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"])

export const factoryEvents = parseAbi([
  "event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)"
])

export const poolEvents = parseAbi([
  "event Initialize(uint160 sqrtPriceX96, int24 tick)",
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Collect(address indexed owner, address recipient, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount0, uint128 amount1)"
])

export const positionManagerEvents = parseAbi([
  "event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
  "event DecreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
  "event Collect(uint256 indexed tokenId, address recipient, uint256 amount0, uint256 amount1)",
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)"
])

/** Reads used while indexing: the canonical configuration check and token metadata. */
export const readAbi = {
  canonicalPoolConfig: [getAbiItem({ abi: FireLaunchAbi, name: "canonicalPoolConfig" })],
  erc20: parseAbi([
    "function name() view returns (string)",
    "function symbol() view returns (string)",
    "function decimals() view returns (uint8)",
    "function totalSupply() view returns (uint256)"
  ])
} as const

export const topics = (events: ReadonlyArray<AbiEvent>) => events.map((e) => toEventSelector(e))
