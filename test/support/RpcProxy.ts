import * as Http from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A fault-injecting JSON-RPC proxy over HTTP, between the app and anvil, for tests: it forwards each request and,
 * as the switches in `faults` say (they can change while it runs), answers like a hosted provider instead.
 */
export interface RpcFaults {
  /** Added before every answer. */
  latencyMs?: number
  /** eth_getLogs over more than `maxBlocks` blocks is refused with this provider's text (test/indexer/rpc-error-vectors.ts). */
  range?:
    | { readonly maxBlocks: number; readonly code: number; readonly message: string; readonly httpStatus: number }
    | undefined
  /** Every `every`-th request answers HTTP 429, with `Retry-After` when given. */
  rateLimit?: { readonly every: number; readonly retryAfterSeconds?: number } | undefined
  /** Every `every`-th request is never answered (the client's timeout ends it). */
  hang?: { readonly every: number } | undefined
  /**
   * A load balancer over an up-to-date node and one `blocks` behind: every other request goes to the lagging one, whose
   * eth_blockNumber and block headers stop at its head, and which refuses eth_getLogs past it as geth does.
   */
  lag?: { readonly blocks: number } | undefined
}

export interface RpcProxy {
  readonly url: string
  readonly faults: RpcFaults
  /** Requests seen, and those answered with a fault. */
  readonly counts: { requests: number; faulted: number }
  readonly close: () => Promise<void>
}

type RpcRequest = { id: unknown; method: string; params?: Array<any> }

/** A JSON-RPC error the lagging node answers. */
class RpcAnswerError extends Error {
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

const hex = (n: bigint) => `0x${n.toString(16)}`

export const startRpcProxy = async (upstream: string, faults: RpcFaults = {}): Promise<RpcProxy> => {
  const counts = { requests: 0, faulted: 0 }
  const forward = async (body: string): Promise<string> =>
    (await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body })).text()
  const call = async (method: string, params: Array<unknown>) =>
    (JSON.parse(await forward(JSON.stringify({ jsonrpc: "2.0", id: 0, method, params }))) as { result: any }).result

  /** The lagging node's answer to `req`, consistent with its head `laggedHead`; undefined: same as the real node. */
  const lagged = async (req: RpcRequest, laggedHead: bigint): Promise<unknown> => {
    const p = req.params ?? []
    switch (req.method) {
      case "eth_blockNumber":
        return hex(laggedHead)
      case "eth_getBlockByNumber": {
        const n = p[0] === "latest" ? laggedHead : BigInt(p[0])
        return n > laggedHead ? null : call(req.method, [hex(n), ...p.slice(1)])
      }
      case "eth_getLogs": {
        const filter = p[0] ?? {}
        if (filter.blockHash !== undefined) return undefined
        const to = filter.toBlock === undefined || filter.toBlock === "latest" ? laggedHead : BigInt(filter.toBlock)
        // What geth answers (ethereum/execution-apis tests/eth_getLogs/filter-error-future-block-range.io).
        if (to > laggedHead) throw new RpcAnswerError(-32602, "block range extends beyond current head block")
        return undefined
      }
      default:
        return undefined
    }
  }

  const answer = async (raw: string, res: Http.ServerResponse) => {
    const n = ++counts.requests
    const req = JSON.parse(raw) as RpcRequest
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers })
      res.end(typeof body === "string" ? body : JSON.stringify(body))
    }
    if (faults.latencyMs) {
      counts.faulted++
      await new Promise((r) => setTimeout(r, faults.latencyMs))
    }
    if (faults.hang && n % faults.hang.every === 0) {
      counts.faulted++
      return // no answer: the client's timeout ends the request
    }
    if (faults.rateLimit && n % faults.rateLimit.every === 0) {
      counts.faulted++
      const headers: Record<string, string> =
        faults.rateLimit.retryAfterSeconds === undefined
          ? {}
          : { "retry-after": String(faults.rateLimit.retryAfterSeconds) }
      return reply(429, { jsonrpc: "2.0", id: req.id, error: { code: 429, message: "Too Many Requests" } }, headers)
    }
    const range = faults.range
    if (range && req.method === "eth_getLogs" && req.params?.[0]?.fromBlock !== undefined) {
      const { fromBlock, toBlock } = req.params[0]
      if (BigInt(toBlock) - BigInt(fromBlock) + 1n > BigInt(range.maxBlocks)) {
        counts.faulted++
        const error = { code: range.code, message: range.message }
        return reply(range.httpStatus, { jsonrpc: "2.0", id: req.id, error })
      }
    }
    if (faults.lag && n % 2 === 1) {
      const head = BigInt(await call("eth_blockNumber", []))
      const laggedHead = head - BigInt(faults.lag.blocks) > 0n ? head - BigInt(faults.lag.blocks) : 0n
      const result = await lagged(req, laggedHead).catch((e: unknown) => e)
      if (result instanceof RpcAnswerError) {
        counts.faulted++
        return reply(200, { jsonrpc: "2.0", id: req.id, error: { code: result.code, message: result.message } })
      }
      if (result !== undefined) {
        counts.faulted++
        return reply(200, { jsonrpc: "2.0", id: req.id, result })
      }
    }
    reply(200, await forward(raw))
  }

  const server = Http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      answer(Buffer.concat(chunks).toString("utf8"), res).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(502).end(String(e))
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    faults,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
