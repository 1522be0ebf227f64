/**
 * The fetch ceiling of an indexer reading this node over JSON-RPC: logs from `from` to `to` with plain `eth_getLogs`
 * requests of `range` blocks, each response parsed with JSON.parse — no decoding, no storage. No indexer that fetches
 * its logs this way (ours, Ponder) can go faster than this on the same node, so it bounds any "× Ponder" ratio.
 *
 * Without `filters`, every log of the chain, one request at a time. With `filters` (address list and topic0 each, e.g.
 * the pools' Swap and the tokens' Transfer), only the events an indexer of those stores, each filter per range, with up
 * to `concurrency` requests in flight: the node answers on its own threads while this process parses.
 */
export interface LogFilter {
  readonly address: ReadonlyArray<string>
  readonly topic0: string
}

export const fetchCeiling = async (
  rpcUrl: string,
  from: bigint,
  to: bigint,
  range: number,
  options: { readonly filters?: ReadonlyArray<LogFilter>; readonly concurrency?: number } = {}
) => {
  const requests: Array<Record<string, unknown>> = []
  for (let lo = from; lo <= to; lo += BigInt(range)) {
    const hi = lo + BigInt(range) - 1n < to ? lo + BigInt(range) - 1n : to
    const blocks = { fromBlock: `0x${lo.toString(16)}`, toBlock: `0x${hi.toString(16)}` }
    if (options.filters === undefined) requests.push(blocks)
    else for (const f of options.filters) requests.push({ ...blocks, address: f.address, topics: [f.topic0] })
  }
  const start = performance.now()
  let logs = 0
  let bytes = 0
  let next = 0
  const worker = async () => {
    while (next < requests.length) {
      const params = requests[next++]!
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getLogs", params: [params] })
      })
      const text = await response.text()
      bytes += text.length
      const parsed = JSON.parse(text) as { result?: Array<unknown>; error?: { message: string } }
      if (parsed.result === undefined)
        throw new Error(`eth_getLogs ${JSON.stringify(params)}: ${parsed.error?.message ?? "no result"}`)
      logs += parsed.result.length
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker))
  const seconds = (performance.now() - start) / 1000
  return { logs, bytes, seconds, perSecond: Math.round(logs / seconds) }
}
