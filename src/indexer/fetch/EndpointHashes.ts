import { Effect } from "effect"
import { type Hex, numberToHex } from "viem"
import type { RpcEndpoint } from "../../platform/Chain.ts"
import { rpcCall, type RpcError, rpcRetry } from "./RpcError.ts"

/** One RPC endpoint's answer for a block number: its hash, `null` when it has no such block, or why it did not answer. */
export type EndpointHash =
  | { readonly endpoint: string; readonly hash: string | null }
  | { readonly endpoint: string; readonly failure: string }

/**
 * Block `number`'s hash as each endpoint has it, asked of each one directly (not through the fallback, which answers
 * from whichever ranks best). An endpoint that keeps failing (a few retries) is reported as such, not waited for.
 */
export const hashesAtEachEndpoint = (
  endpoints: ReadonlyArray<RpcEndpoint>,
  number: bigint,
  paced: <A>(effect: Effect.Effect<A, RpcError>) => Effect.Effect<A, RpcError>
): Effect.Effect<ReadonlyArray<EndpointHash>> =>
  Effect.forEach(
    endpoints,
    ({ name, client }) =>
      rpcRetry(
        paced(
          rpcCall(
            "eth_getBlockByNumber",
            () =>
              client.request({
                method: "eth_getBlockByNumber",
                params: [numberToHex(number), false]
              } as never) as Promise<{ hash: Hex } | null>
          )
        ),
        3
      ).pipe(
        Effect.map(
          (block): EndpointHash => ({ endpoint: name, hash: block === null ? null : block.hash.toLowerCase() })
        ),
        Effect.catch((e) => Effect.succeed<EndpointHash>({ endpoint: name, failure: e.message }))
      ),
    { concurrency: "unbounded" }
  )
