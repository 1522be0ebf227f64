/**
 * The fault-injecting proxy (test/support/RpcProxy.ts) in a process of its own, for benchmarks: forked by
 * `startProxyProcess` (scripts/bench/hosted-plan.ts) with its upstream and faults as JSON arguments, it answers on
 * IPC. Apart so that its work (each eth_getLogs answer parsed to count the logs) takes no time from an indexer running
 * in the bench's own process, while Ponder runs in another: both pay it the same way.
 *
 * IPC: it sends `{ url }` when listening; asked `"counts"`, it sends `{ counts }`; asked `"close"`, it closes and exits.
 */
import { type RpcFaults, startRpcProxy } from "../../test/support/RpcProxy.ts"

const [upstream, faultsJson] = process.argv.slice(2)
if (upstream === undefined || process.send === undefined) throw new Error("usage: forked with <upstream> <faults>")
const send = (message: unknown) => process.send!(message)
// BENCH_PROXY_TRACE=1: every request's method and parameters on stderr, to see where a client's calls go.
const trace =
  process.env.BENCH_PROXY_TRACE === "1"
    ? { onRequest: (method: string, params: unknown) => console.error(`[rpc] ${method} ${JSON.stringify(params)}`) }
    : {}
const proxy = await startRpcProxy(upstream, JSON.parse(faultsJson ?? "{}") as RpcFaults, trace)
process.on("message", (message) => {
  if (message === "counts") send({ counts: proxy.counts })
  if (message === "close") void proxy.close().then(() => process.exit(0))
})
send({ url: proxy.url })
