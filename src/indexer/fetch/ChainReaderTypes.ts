import type { Effect } from "effect"
import { type Abi, type Address, type Hex, hexToBigInt, hexToNumber } from "viem"
import type { RpcError } from "./RpcError.ts"

/** A log as the pipeline carries it: hex fields parsed, addresses lowercased. */
export interface RawLog {
  readonly address: string
  readonly topics: ReadonlyArray<Hex>
  readonly data: Hex
  readonly blockNumber: bigint
  readonly blockHash: string
  readonly logIndex: number
  readonly transactionHash: string
  /** Present when the node includes it (anvil, recent geth/reth); otherwise filled from the block header. */
  readonly blockTimestamp?: bigint | undefined
}

/** eth_getLogs `topics`: per position, the values any of which matches, or null for any value. */
export type TopicFilter = ReadonlyArray<ReadonlyArray<Hex> | null>

export interface BlockHeader {
  readonly number: bigint
  readonly hash: string
  readonly parentHash: string
  readonly timestamp: bigint
  /** The header's logsBloom, when read from the chain (tests may build headers without it). */
  readonly logsBloom?: Hex | undefined
}

export interface TokenMetadata {
  readonly name: string
  readonly symbol: string
  /** Null when the token has no readable `decimals()` (optional in ERC-20). */
  readonly decimals: number | null
  readonly totalSupply: bigint
}

/** A view call for `multicall`. */
export interface ViewCall {
  readonly address: Address
  readonly abi: Abi
  readonly functionName: string
  readonly args?: ReadonlyArray<unknown>
}

export type ViewResult =
  | { readonly status: "success"; readonly result: unknown }
  | { readonly status: "failure"; readonly error: unknown }

export interface CanonicalPoolConfig {
  readonly fee: number
  readonly sqrtPriceX96: bigint
  readonly tickLower: number
  readonly tickUpper: number
}

/**
 * How the reader's parts call the node (ChainReader.ts builds both over its client and rate limit): `request` sends
 * one JSON-RPC request, `read` runs one viem action and retries its retryable failures (RpcError.ts).
 */
export type RpcRequest = <A>(method: string, params: ReadonlyArray<unknown>) => Effect.Effect<A, RpcError>
export type RpcRead = <A>(method: string, f: () => Promise<A>) => Effect.Effect<A, RpcError>

/** A log as eth_getLogs answers it. */
export interface RpcLog {
  address: string
  topics: Array<Hex>
  data: Hex
  blockNumber: Hex
  blockHash: string
  logIndex: Hex
  transactionHash: string
  blockTimestamp?: Hex
}

export const toRawLog = (l: RpcLog): RawLog => ({
  address: l.address.toLowerCase(),
  topics: l.topics,
  data: l.data,
  blockNumber: hexToBigInt(l.blockNumber),
  blockHash: l.blockHash.toLowerCase(),
  logIndex: hexToNumber(l.logIndex),
  transactionHash: l.transactionHash.toLowerCase(),
  blockTimestamp: l.blockTimestamp === undefined ? undefined : hexToBigInt(l.blockTimestamp)
})
