import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { createPublicClient, http } from "viem"
import { rpcUnavailable } from "../../src/exchange-api/RpcUnavailable.ts"

/** A JSON-RPC endpoint over real HTTP that answers every request with `status` (and `headers`). */
const answering = (status: number, headers: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<Http.Server>((resolve) => {
          const server = Http.createServer((req, res) => {
            req.resume()
            req.on("end", () => {
              res.writeHead(status, { "content-type": "application/json", ...headers })
              res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32005, message: "Too Many Requests" } }))
            })
          })
          server.listen(0, "127.0.0.1", () => resolve(server))
        })
    ),
    (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  ).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`))

const receiptError = (url: string) =>
  Effect.promise(() =>
    createPublicClient({ transport: http(url, { retryCount: 0 }) })
      .getTransactionReceipt({ hash: `0x${"ab".repeat(32)}` })
      .then(
        () => assert.fail("expected a failure"),
        (e: unknown) => e
      )
  )

describe("GET /api/v1/status when the RPC refuses (what viem throws for it)", () => {
  it.effect("an RPC 429 is 503 RPC_UNAVAILABLE with the provider's Retry-After, not a 500", () =>
    Effect.gen(function* () {
      const limited = rpcUnavailable(yield* receiptError(yield* answering(429, { "retry-after": "7" })))
      assert.strictEqual(limited?.code, "RPC_UNAVAILABLE")
      assert.strictEqual(limited?.details?.["retryAfterSeconds"], 7)
      assert.strictEqual(limited?.details?.["rpcStatus"], 429)
      // Without Retry-After: 1 s.
      const bare = rpcUnavailable(yield* receiptError(yield* answering(429, {})))
      assert.strictEqual(bare?.details?.["retryAfterSeconds"], 1)
      // A 502 of the provider's gateway is unavailable too; a refused connection as well.
      assert.strictEqual(rpcUnavailable(yield* receiptError(yield* answering(502, {})))?.code, "RPC_UNAVAILABLE")
      assert.strictEqual(rpcUnavailable(yield* receiptError("http://127.0.0.1:1"))?.code, "RPC_UNAVAILABLE")
      // Anything else stays a defect (500).
      assert.isUndefined(rpcUnavailable(new Error("execution reverted")))
    }).pipe(Effect.scoped)
  )
})
