import { Context, Data } from "effect"
import type { PublicClient } from "viem"
import type { Deployments } from "./Deployments.ts"

/**
 * New heads announced over a WebSocket subscription (`eth_subscribe("newHeads")` on RPC_WS_URL), kept across drops:
 * the socket reconnects with backoff and subscribes again. Readers still poll over HTTP; an announcement only wakes
 * them early, so while the socket is down they run at their poll interval.
 */
export interface HeadAnnouncements {
  /** Calls `listener` with each announced head number until the returned function is called. */
  readonly listen: (listener: (head: bigint) => void) => () => void
  /** True while the subscription is live. */
  readonly live: () => boolean
}

/**
 * The chain the backend reads: a viem public client plus the contract addresses. The layer that provides it is
 * infrastructure (layers/Chain.ts): a local anvil devnet without `RPC_URL`, that chain with it.
 */
export interface ChainShape {
  readonly chainId: number
  /** The first RPC URL (the devnet's own, or RPC_URL's first). */
  readonly rpcUrl: string
  /** Every request URL of RPC_URL, in order (absent: `rpcUrl` alone). Log them through `redactUrl` only. */
  readonly rpcUrls?: ReadonlyArray<string> | undefined
  /**
   * Requests over HTTP when RPC_URL has an http(s) URL (several: viem's fallback, ranked by health), else over the
   * WebSocket of RPC_URL (layers/PublicClient.ts).
   */
  readonly publicClient: PublicClient
  /**
   * With several request URLs: one client per URL (`publicClient` is their fallback, which answers from whichever
   * ranks best). For reads that must come from a named source, e.g. confirming a deep reorg (src/indexer/loop/Rollback.ts).
   */
  readonly endpoints?: ReadonlyArray<RpcEndpoint> | undefined
  /** New heads over RPC_WS_URL (or RPC_URL's ws(s) URL); absent: readers poll alone. */
  readonly heads?: HeadAnnouncements | undefined
  readonly deployments: Deployments
  readonly mode: "devnet" | "external"
}

/** One RPC URL's own client; `name` is the URL redacted for logs (src/platform/RedactUrl.ts). */
export interface RpcEndpoint {
  readonly name: string
  readonly client: PublicClient
}

export class ChainError extends Data.TaggedError("ChainError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

export class Chain extends Context.Service<Chain, ChainShape>()("app/layers/Chain") {}
