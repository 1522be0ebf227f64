import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { WebSocket, WebSocketServer } from "ws"

/**
 * A fault-injecting JSON-RPC proxy over HTTP and WebSocket, between the app and anvil, for tests: it forwards each
 * request and, as the switches in `faults` say (they can change while it runs), answers like a hosted provider instead.
 * WebSocket connections (`wsUrl`) are relayed message for message to anvil's WebSocket endpoint (the same port as its
 * HTTP one), subscriptions included (`eth_subscribe("newHeads")` notifications flow back); `dropWebSockets` closes
 * them and refuses new ones for a while, as a provider's restarting node or load balancer does.
 */
export interface RpcFaults {
  /** Added before every answer. */
  latencyMs?: number | undefined
  /** A random extra delay, uniform in [0, latencyJitterMs), added to `latencyMs` (a latency distribution). */
  latencyJitterMs?: number | undefined
  /** eth_getLogs over more than `maxBlocks` blocks is refused with this provider's text (test/indexer/rpc-error-vectors.ts). */
  range?:
    | { readonly maxBlocks: number; readonly code: number; readonly message: string; readonly httpStatus: number }
    | undefined
  /** Every HTTP request answers 503 (a provider that is down). */
  down?: boolean | undefined
  /**
   * A hosted plan's requests-per-second limit: a request that finds this many already accepted in the last second
   * answers HTTP 429 (as the `rateLimit` switch does, without `Retry-After`); refused ones do not count.
   */
  requestsPerSecond?: number | undefined
  /**
   * eth_getLogs answers over a block range of more than `maxLogs` logs are refused with this provider's text (e.g.
   * Infura's "query returned more than 10000 results", test/indexer/rpc-error-vectors.ts), as a plan's result cap
   * does (oversized answers). A request by `blockHash` is not capped: one block's logs never reach a real cap (10,000),
   * and a test's small cap stands for it over ranges only.
   */
  logCap?:
    | { readonly maxLogs: number; readonly code: number; readonly message: string; readonly httpStatus: number }
    | undefined
  /** Every `every`-th request answers HTTP 429, with `Retry-After` when given. */
  rateLimit?: { readonly every: number; readonly retryAfterSeconds?: number } | undefined
  /** Every `every`-th request's connection is closed without an answer (the client sees a transport error). */
  reset?: { readonly every: number } | undefined
  /**
   * Only requests of these JSON-RPC methods meet `rateLimit` and `reset`, whose `every` then counts those requests
   * only (every method, counted together, when undefined).
   */
  faultMethods?: ReadonlyArray<string> | undefined
  /** Every `every`-th request is never answered (the client's timeout ends it). */
  hang?: { readonly every: number } | undefined
  /**
   * A load balancer over an up-to-date node and one `blocks` behind: half the requests go to the lagging one, whose
   * eth_blockNumber and block headers stop at its head, and which refuses eth_getLogs past it as geth does; with
   * `emptyLogs`, it answers them as if the blocks had no logs instead (a range is cut at its head, a block it does not
   * have by hash answers []), as some providers' nodes do.
   */
  lag?: { readonly blocks: number; readonly emptyLogs?: boolean } | undefined
  /**
   * Until this time (ms since the epoch), eth_getBlockByNumber answers come from a node on another fork: every block's
   * hash and parent hash differ from the chain's (consistently: a block's parent hash is its parent's changed hash).
   */
  forkedHeadersUntil?: number | undefined
  /**
   * The chain moves between a block's header and its logs: the next eth_getLogs by `blockHash` first replaces the
   * last `depth` blocks upstream (anvil_reorg, their transactions dropped), then is forwarded (anvil answers "unknown
   * block" for a hash it replaced). One shot: the switch clears itself.
   */
  reorgBeforeLogsByHash?: { readonly depth: number } | undefined
}

export interface RpcProxy {
  readonly url: string
  /** The same proxy over WebSocket (ws://). */
  readonly wsUrl: string
  readonly faults: RpcFaults
  /**
   * HTTP requests seen and answered (`answered` counts those whose answer was written, faulted or not), those answered
   * with a fault (a delayed one counts), and among them the 429s and the eth_getLogs range refusals; WebSocket connections accepted and refused, and JSON-RPC messages relayed
   * each way over them (subscription notifications included in `wsToClient`).
   */
  readonly counts: {
    requests: number
    answered: number
    faulted: number
    rateLimited: number
    /** Connections closed by `reset`. */
    reset: number
    rangeRefused: number
    /** eth_getLogs answers refused by `logCap`. */
    logCapRefused: number
    /** Forwarded answers that carry the node's own JSON-RPC error (a revert, an unknown block). */
    nodeErrors: number
    /** eth_blockNumber answered by the lagging node of `lag` (its head, below the chain's). */
    laggedHeads: number
    wsConnections: number
    wsRefused: number
    wsToNode: number
    wsToClient: number
    /** HTTP requests by JSON-RPC method. */
    methods: Record<string, number>
    /** eth_getLogs requests by the block hash they ask for (`blockHash` filters). */
    logsByHash: Record<string, number>
    /** The block hashes asked for when `reorgBeforeLogsByHash` replaced them. */
    replacedBeforeLogs: Array<string>
  }
  /** WebSocket connections open now. */
  readonly openWebSockets: () => number
  /**
   * From now on, every eth_getLogs the node answers is recorded (its filter and its logs' emitters and topics) in the
   * returned array, to count what a filter fetched (off by default: a backfill's answers are large).
   */
  readonly recordGetLogs: () => ReadonlyArray<RecordedGetLogs>
  /**
   * Closes every WebSocket connection and refuses new ones (HTTP 503 on the upgrade) for `ms` milliseconds (the issue's
   * drops are 0.5–30 s); HTTP requests are not affected. Resolves when the drop ends.
   */
  readonly dropWebSockets: (ms: number) => Promise<void>
  /** Ends a drop early: new WebSocket connections are accepted again. */
  readonly restoreWebSockets: () => void
  readonly close: () => Promise<void>
}

type RpcRequest = { id: unknown; method: string; params?: Array<any> }

/** One eth_getLogs the node answered (see `recordGetLogs`). */
export interface RecordedGetLogs {
  readonly filter: { readonly address?: string | ReadonlyArray<string>; readonly blockHash?: string }
  readonly logs: ReadonlyArray<{ readonly address: string; readonly topics: ReadonlyArray<string> }>
}

/** A JSON-RPC error the lagging node answers. */
class RpcAnswerError extends Error {
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

const hex = (n: bigint) => `0x${n.toString(16)}`
/** The hash another fork has for a block: its last digit changed. */
const forked = (hash: string) => `${hash.slice(0, -1)}${hash.endsWith("0") ? "1" : "0"}`

export const startRpcProxy = async (
  upstream: string,
  faults: RpcFaults = {},
  /** `onRequest`: told of every HTTP request's method and parameters (a benchmark's trace of where calls go). */
  options: { readonly onRequest?: (method: string, params: unknown) => void } = {}
): Promise<RpcProxy> => {
  const counts = {
    requests: 0,
    answered: 0,
    faulted: 0,
    rateLimited: 0,
    reset: 0,
    rangeRefused: 0,
    logCapRefused: 0,
    nodeErrors: 0,
    laggedHeads: 0,
    wsConnections: 0,
    wsRefused: 0,
    wsToNode: 0,
    wsToClient: 0,
    methods: {} as Record<string, number>,
    logsByHash: {} as Record<string, number>,
    replacedBeforeLogs: [] as Array<string>
  }
  // Which node answers: a fixed pseudo-random sequence (mulberry32), not strict alternation, which can lock onto a
  // client's request pattern (a step of two requests would always get its eth_blockNumber from the same node).
  let seed = 1
  const lagDraw = () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  let recorded: Array<RecordedGetLogs> | undefined
  const forward = async (body: string): Promise<string> =>
    (await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body })).text()
  const call = async (method: string, params: Array<unknown>) =>
    (JSON.parse(await forward(JSON.stringify({ jsonrpc: "2.0", id: 0, method, params }))) as { result: any }).result

  /** The lagging node's answer to `req`, consistent with its head `laggedHead`; undefined: same as the real node. */
  const lagged = async (req: RpcRequest, laggedHead: bigint, emptyLogs: boolean): Promise<unknown> => {
    const p = req.params ?? []
    switch (req.method) {
      case "eth_blockNumber":
        counts.laggedHeads++
        return hex(laggedHead)
      case "eth_getBlockByNumber": {
        const n = p[0] === "latest" ? laggedHead : BigInt(p[0])
        return n > laggedHead ? null : call(req.method, [hex(n), ...p.slice(1)])
      }
      case "eth_getLogs": {
        const filter = p[0] ?? {}
        if (filter.blockHash !== undefined) {
          if (!emptyLogs) return undefined
          const block = await call("eth_getBlockByHash", [filter.blockHash, false])
          return block !== null && BigInt(block.number) > laggedHead ? [] : undefined
        }
        const to = filter.toBlock === undefined || filter.toBlock === "latest" ? laggedHead : BigInt(filter.toBlock)
        if (to <= laggedHead) return undefined
        if (emptyLogs) {
          if (BigInt(filter.fromBlock) > laggedHead) return []
          return call(req.method, [{ ...filter, toBlock: hex(laggedHead) }])
        }
        // What geth answers (ethereum/execution-apis tests/eth_getLogs/filter-error-future-block-range.io).
        throw new RpcAnswerError(-32602, "block range extends beyond current head block")
      }
      default:
        return undefined
    }
  }

  /** When the requests accepted in the last second arrived (for `requestsPerSecond`), oldest first. */
  const accepted: Array<number> = []
  /** Requests of `faultMethods` seen (what `rateLimit` and `reset` count when it is set). */
  let ofFaultMethods = 0

  const answer = async (raw: string, res: Http.ServerResponse) => {
    const n = ++counts.requests
    const req = JSON.parse(raw) as RpcRequest
    counts.methods[req.method] = (counts.methods[req.method] ?? 0) + 1
    options.onRequest?.(req.method, req.params)
    const byHash: string | undefined = req.method === "eth_getLogs" ? req.params?.[0]?.blockHash : undefined
    if (byHash !== undefined) counts.logsByHash[byHash] = (counts.logsByHash[byHash] ?? 0) + 1
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      counts.answered++
      res.writeHead(status, { "content-type": "application/json", ...headers })
      res.end(typeof body === "string" ? body : JSON.stringify(body))
    }
    if (faults.down) {
      counts.faulted++
      return reply(503, "Service Unavailable")
    }
    if (faults.requestsPerSecond !== undefined) {
      const now = Date.now()
      while (accepted.length > 0 && accepted[0]! <= now - 1000) accepted.shift()
      if (accepted.length >= faults.requestsPerSecond) {
        counts.faulted++
        counts.rateLimited++
        return reply(429, { jsonrpc: "2.0", id: req.id, error: { code: 429, message: "Too Many Requests" } })
      }
      accepted.push(now)
    }
    const delay = (faults.latencyMs ?? 0) + (faults.latencyJitterMs ? Math.random() * faults.latencyJitterMs : 0)
    if (delay > 0) {
      counts.faulted++
      await new Promise((r) => setTimeout(r, delay))
    }
    if (faults.hang && n % faults.hang.every === 0) {
      counts.faulted++
      return // no answer: the client's timeout ends the request
    }
    // The number `rateLimit` and `reset` count by: every request's, or among `faultMethods` only (0: not one of them).
    const methods = faults.faultMethods
    const k = methods === undefined ? n : methods.includes(req.method) ? ++ofFaultMethods : 0
    if (faults.reset && k > 0 && k % faults.reset.every === 0) {
      counts.faulted++
      counts.reset++
      res.socket?.destroy()
      return
    }
    if (faults.rateLimit && k > 0 && k % faults.rateLimit.every === 0) {
      counts.faulted++
      counts.rateLimited++
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
        counts.rangeRefused++
        const error = { code: range.code, message: range.message }
        return reply(range.httpStatus, { jsonrpc: "2.0", id: req.id, error })
      }
    }
    const reorg = faults.reorgBeforeLogsByHash
    if (reorg && byHash !== undefined) {
      faults.reorgBeforeLogsByHash = undefined
      counts.faulted++
      await call("anvil_reorg", [reorg.depth, []])
      counts.replacedBeforeLogs.push(byHash)
    }
    if (faults.lag && lagDraw() < 0.5) {
      const head = BigInt(await call("eth_blockNumber", []))
      const laggedHead = head - BigInt(faults.lag.blocks) > 0n ? head - BigInt(faults.lag.blocks) : 0n
      const result = await lagged(req, laggedHead, faults.lag.emptyLogs === true).catch((e: unknown) => e)
      if (result instanceof RpcAnswerError) {
        counts.faulted++
        return reply(200, { jsonrpc: "2.0", id: req.id, error: { code: result.code, message: result.message } })
      }
      if (result !== undefined) {
        counts.faulted++
        return reply(200, { jsonrpc: "2.0", id: req.id, result })
      }
    }
    if (req.method === "eth_getBlockByNumber" && Date.now() < (faults.forkedHeadersUntil ?? 0)) {
      const answer = JSON.parse(await forward(raw)) as { result?: { hash: string; parentHash: string } | null }
      if (answer.result) {
        counts.faulted++
        answer.result = {
          ...answer.result,
          hash: forked(answer.result.hash),
          parentHash: forked(answer.result.parentHash)
        }
      }
      return reply(200, answer)
    }
    const forwarded = await forward(raw)
    const parsed = JSON.parse(forwarded) as { error?: unknown; result?: unknown }
    if (parsed.error !== undefined) counts.nodeErrors++
    const cap = faults.logCap
    const overRange = req.method === "eth_getLogs" && req.params?.[0]?.fromBlock !== undefined
    if (cap && overRange && Array.isArray(parsed.result) && parsed.result.length > cap.maxLogs) {
      counts.faulted++
      counts.logCapRefused++
      return reply(cap.httpStatus, { jsonrpc: "2.0", id: req.id, error: { code: cap.code, message: cap.message } })
    }
    if (parsed.error === undefined && recorded !== undefined && req.method === "eth_getLogs")
      recorded.push({ filter: req.params?.[0] ?? {}, logs: parsed.result as RecordedGetLogs["logs"] })
    reply(200, forwarded)
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
  const sockets = new Set<WebSocket>()
  const clients = new Set<WebSocket>()
  let wsDownUntil = 0
  const wss = new WebSocketServer({ noServer: true })
  server.on("upgrade", (req, socket, head) => {
    if (Date.now() < wsDownUntil) {
      counts.wsRefused++
      socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
      return
    }
    wss.handleUpgrade(req, socket, head, (client) => relay(client))
  })
  // One upstream socket per client socket: subscriptions belong to a connection, so they must not be shared.
  const relay = (client: WebSocket) => {
    counts.wsConnections++
    const node = new WebSocket(upstream.replace(/^http/, "ws"))
    sockets.add(client)
    sockets.add(node)
    clients.add(client)
    const pending: Array<string> = []
    node.on("open", () => {
      for (const m of pending.splice(0)) node.send(m)
    })
    client.on("message", (data) => {
      counts.wsToNode++
      const text = data.toString()
      if (node.readyState === WebSocket.OPEN) node.send(text)
      else pending.push(text)
    })
    node.on("message", (data) => {
      counts.wsToClient++
      if (client.readyState === WebSocket.OPEN) client.send(data.toString())
    })
    const end = () => {
      sockets.delete(client)
      sockets.delete(node)
      clients.delete(client)
      client.terminate()
      node.terminate()
    }
    client.on("close", end)
    node.on("close", end)
    client.on("error", end)
    node.on("error", end)
  }
  const dropWebSockets = (ms: number) => {
    wsDownUntil = Date.now() + ms
    for (const s of [...sockets]) s.terminate()
    return new Promise<void>((resolve) => setTimeout(resolve, ms))
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    faults,
    counts,
    openWebSockets: () => [...clients].filter((s) => s.readyState === WebSocket.OPEN).length,
    recordGetLogs: () => {
      recorded ??= []
      return recorded
    },
    dropWebSockets,
    restoreWebSockets: () => {
      wsDownUntil = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of [...sockets]) s.terminate()
        wss.close()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
