import { Context, Data } from "effect"
import type { PublicClient } from "viem"
import type { Deployments } from "./Deployments.ts"

/**
 * The chain the backend reads: a viem public client plus the contract addresses. The layer that provides it is
 * infrastructure (layers/Chain.ts): a local anvil devnet without `RPC_URL`, that chain with it.
 */
export interface ChainShape {
  readonly chainId: number
  readonly rpcUrl: string
  /** HTTP transport, or WebSocket when the URL is ws(s)://. */
  readonly publicClient: PublicClient
  readonly deployments: Deployments
  readonly mode: "devnet" | "external"
}

export class ChainError extends Data.TaggedError("ChainError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

export class Chain extends Context.Service<Chain, ChainShape>()("app/layers/Chain") {}
