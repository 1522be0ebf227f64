import * as NodeHttp from "node:http"
import type { AddressInfo } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import type { Stack } from "../../scripts/soak/stack.ts"
import { waitForSeededData } from "../../scripts/soak/workload.ts"

/**
 * The soak starts its load only once the stack serves the seeded data it asks for (scripts/soak/workload.ts). Before,
 * it started at the `ready:` line, while the indexer was still catching up with the seeded chain: on a loaded
 * machine its first requests for seeded launches were 404 and its quotes into them 500 NO_POOLS_AVAILABLE, counted
 * as failures of the stack (docs/BENCHMARKS.md, "Short soaks after issue 23's per-IP limits").
 */
const token = "0x00000000000000000000000000000000000000a1"
const pool = "0x00000000000000000000000000000000000000b2"
const deployments = {
  contracts: { weth9: "0x00000000000000000000000000000000000000c3", stablecoin: token, swapRouter02: token },
  launches: [{ token, pool, fee: 10_000, canonical: true }]
} as const

/** An HTTP server that answers 404 (pages) and 500 NO_POOLS_AVAILABLE (quotes) until `indexed()`, then 200. */
const indexingServer = async () => {
  let indexed = false
  const seen: Array<string> = []
  const server = NodeHttp.createServer((request, response) => {
    seen.push(request.url!.split("?")[0]!)
    if (indexed) return response.writeHead(200, { "content-type": "application/json" }).end("{}")
    if (request.url!.startsWith("/api/v1/quote"))
      return response
        .writeHead(500, { "content-type": "application/json" })
        .end(JSON.stringify({ error: "no pools hold the input or the output token", code: "NO_POOLS_AVAILABLE" }))
    response.writeHead(404, { "content-type": "application/json" }).end("{}")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, seen, index: () => void (indexed = true), close: () => server.close() }
}

describe("soak: seeded data before the load", () => {
  it("waits until every seeded token page, pool and quote is served, and says what was missing at first", async () => {
    const server = await indexingServer()
    try {
      const stack = {
        chainId: 31337,
        urls: { client: server.url, exchange: server.url, search: server.url, indexer: server.url }
      } as unknown as Stack
      let settled = false
      const waiting = waitForSeededData(stack, deployments).then((r) => {
        settled = true
        return r
      })
      // Poll for the second round of checks: the helper is still waiting while the data is missing.
      const deadline = Date.now() + 10_000
      while (server.seen.length < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
      assert.isAtLeast(server.seen.length, 6)
      assert.isFalse(settled)
      server.index()
      const result = await waiting
      assert.strictEqual(result.checked, 3)
      assert.deepStrictEqual(result.firstMissing, [
        `404 ${server.url}/v1/tokens/${token}`,
        `404 ${server.url}/api/v1/pools/${pool}-31337`,
        `500 ${server.url}/api/v1/quote`
      ])
    } finally {
      server.close()
    }
  })
})
