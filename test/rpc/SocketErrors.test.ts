import { assert, describe, it } from "@effect/vitest"
import { SocketClosedError, TimeoutError, UnknownRpcError, WebSocketRequestError } from "viem"
import { classifyRpcError } from "../../src/indexer/fetch/RpcError.ts"

/**
 * viem's own WebSocket failures, as its transport throws them (layers/PublicClient.ts rethrows a failure without an
 * open socket as WebSocketRequestError), are retryable in the RPC error table, and the provider key in the URL they
 * name is not in the classified message.
 */
const url = "wss://node.example/v2/SOCKET-SECRET-KEY"

describe("WebSocket errors in the RPC error table", () => {
  it("a closed socket, a failed socket request and a refused connection are retryable", () => {
    for (const error of [
      new SocketClosedError({ url }),
      new WebSocketRequestError({ url, cause: new SocketClosedError({ url }) }),
      new WebSocketRequestError({ url, cause: new UnknownRpcError(new Error("WebSocket error")) })
    ]) {
      const classified = classifyRpcError("eth_blockNumber", error)
      assert.strictEqual(classified.kind, "retryable", error.name)
      assert.notInclude(classified.message, "SOCKET-SECRET-KEY")
    }
  })

  it("viem's UnknownRpcError around a refused connection's event is not recognised: hence the rethrow", () => {
    assert.strictEqual(classifyRpcError("eth_blockNumber", new UnknownRpcError({} as Error)).kind, "fatal")
  })

  it("a socket request that timed out is retried, and halves an eth_getLogs range", () => {
    const timeout = new TimeoutError({ body: { method: "eth_getLogs" }, url })
    assert.strictEqual(classifyRpcError("eth_blockNumber", timeout).kind, "retryable")
    assert.strictEqual(classifyRpcError("eth_getLogs", timeout).kind, "range")
  })
})
