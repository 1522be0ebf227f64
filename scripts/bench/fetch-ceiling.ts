/**
 * The fetch ceiling of an indexer reading this node over JSON-RPC: every log from `from` to `to` with plain
 * `eth_getLogs` requests of `range` blocks, one at a time, the response parsed with JSON.parse — no decoding, no
 * storage. No indexer that fetches its logs this way (ours, Ponder) can go faster than this on the same node, so it
 * bounds any "× Ponder" ratio: if Ponder already runs at a tenth of the ceiling, 10× Ponder is out of reach.
 */
export const fetchCeiling = async (rpcUrl: string, from: bigint, to: bigint, range: number) => {
  const start = performance.now()
  let logs = 0
  let bytes = 0
  for (let lo = from; lo <= to; lo += BigInt(range)) {
    const hi = lo + BigInt(range) - 1n < to ? lo + BigInt(range) - 1n : to
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "eth_getLogs",
        params: [{ fromBlock: `0x${lo.toString(16)}`, toBlock: `0x${hi.toString(16)}` }]
      })
    })
    const text = await response.text()
    bytes += text.length
    const parsed = JSON.parse(text) as { result?: Array<unknown>; error?: { message: string } }
    if (parsed.result === undefined) throw new Error(`eth_getLogs ${lo}..${hi}: ${parsed.error?.message ?? "no result"}`)
    logs += parsed.result.length
  }
  const seconds = (performance.now() - start) / 1000
  return { logs, bytes, seconds, perSecond: Math.round(logs / seconds) }
}
