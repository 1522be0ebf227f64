import { Effect } from "effect"
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  multicall3Abi,
  type PublicClient
} from "viem"
import type { RpcRead, ViewCall, ViewResult } from "./ChainReaderTypes.ts"

/** A call's data, or why it could not be encoded (it is then not sent, and fails alone). */
const encode = (call: ViewCall): Hex | { readonly error: unknown } => {
  try {
    return encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args } as never)
  } catch (error) {
    return { error }
  }
}

/** One call's answer inside the aggregate, decoded with its ABI; a revert or an undecodable answer fails alone. */
const resultOf = (call: ViewCall, answer: { readonly success: boolean; readonly returnData: Hex }): ViewResult => {
  if (!answer.success)
    return {
      status: "failure",
      error: new Error(`${call.functionName} at ${call.address} reverted: ${answer.returnData}`)
    }
  try {
    const result = decodeFunctionResult({
      abi: call.abi,
      functionName: call.functionName,
      args: call.args,
      data: answer.returnData
    } as never)
    return { status: "success", result }
  } catch (error) {
    return { status: "failure", error }
  }
}

/**
 * ChainReader's `multicall`: view calls at a block in one eth_call of Multicall3's `aggregate3` (each call allowed to
 * fail), one result per call, in order. The eth_call is one `read`: a transport error or an HTTP 429 is retried with
 * the reader's backoff (RpcError.ts), and a failure no retry cures (no Multicall3 at the address, a refused call)
 * fails the read. viem's `multicall` answers a failed request as a failure of every call instead, which the bootstrap
 * of tracked pools (bootstrap/PoolReads.ts) took for pools that do not exist or hold nothing: one 429 left pools out
 * of the index, or their reserves at 0 (test/indexer/BootstrapRpcFaults.test.ts).
 */
export const makeViewMulticall =
  (client: PublicClient, read: RpcRead) => (multicall3: Address, calls: ReadonlyArray<ViewCall>, blockNumber: bigint) =>
    Effect.suspend(() => {
      const encoded = calls.map(encode)
      const sent = encoded.flatMap((data, i) =>
        typeof data === "string" ? [{ target: calls[i]!.address, allowFailure: true, callData: data }] : []
      )
      const answers =
        sent.length === 0
          ? Effect.succeed([] as ReadonlyArray<{ readonly success: boolean; readonly returnData: Hex }>)
          : read("eth_call", () =>
              client.readContract({
                address: multicall3,
                abi: multicall3Abi,
                functionName: "aggregate3",
                args: [sent],
                blockNumber
              })
            )
      return Effect.map(answers, (answered): ReadonlyArray<ViewResult> => {
        let next = 0
        return calls.map((call, i) => {
          const data = encoded[i]!
          return typeof data === "string"
            ? resultOf(call, answered[next++]!)
            : { status: "failure", error: (data as { readonly error: unknown }).error }
        })
      })
    })
