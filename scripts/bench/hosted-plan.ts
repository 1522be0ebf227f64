/**
 * The hosted-plan mode of `npm run bench:indexer` (BENCH_HOSTED=1): an RPC set like a paid hosted plan, made by the
 * fault-injecting proxy (test/support/RpcProxy.ts) in a process of its own (scripts/bench/rpc-proxy-process.ts) in
 * front of the bench's anvil, which counts every call by method.
 */
import * as NodeChild from "node:child_process"
import * as NodePath from "node:path"
import { rangeErrorVectors } from "../../test/indexer/rpc-error-vectors.ts"
import type { RpcFaults, RpcProxy } from "../../test/support/RpcProxy.ts"

const vector = (provider: string) => {
  const v = rangeErrorVectors.find((x) => x.provider === provider)
  if (v === undefined) throw new Error(`no error vector for ${provider}`)
  return v
}

/** The plan's limits; the bench prints them with its figures. */
export const HOSTED_PLAN = {
  latencyMs: 50,
  requestsPerSecond: 25,
  maxBlocks: 2_000,
  maxLogs: 10_000
} as const

/**
 * What the proxy does for the plan: 50 ms before every answer; past 25 requests in a second, HTTP 429; an eth_getLogs
 * over more than 2,000 blocks refused with Chainstack's text, and one answering more than 10,000 logs with Infura's
 * (both real texts with no range hint, both known to Ponder's getLogsRetryHelper and to src/indexer/fetch/RpcError.ts).
 */
export const hostedPlanFaults = (): RpcFaults => {
  const blocks = vector("Chainstack")
  const logs = vector("Infura (result count)")
  return {
    latencyMs: HOSTED_PLAN.latencyMs,
    requestsPerSecond: HOSTED_PLAN.requestsPerSecond,
    range: {
      maxBlocks: HOSTED_PLAN.maxBlocks,
      code: blocks.code,
      message: blocks.message,
      httpStatus: blocks.httpStatus
    },
    logCap: { maxLogs: HOSTED_PLAN.maxLogs, code: logs.code, message: logs.message, httpStatus: logs.httpStatus }
  }
}

export type ProxyCounts = RpcProxy["counts"]

export interface ProxyProcess {
  readonly url: string
  readonly counts: () => Promise<ProxyCounts>
  /** Stops the process; resolves when it has exited. */
  readonly close: () => Promise<void>
}

/** Forks scripts/bench/rpc-proxy-process.ts in front of `upstream` with `faults`; resolves when it listens. */
export const startProxyProcess = (upstream: string, faults: RpcFaults): Promise<ProxyProcess> =>
  new Promise((resolve, reject) => {
    const child = NodeChild.fork(
      NodePath.join(import.meta.dirname, "rpc-proxy-process.ts"),
      [upstream, JSON.stringify(faults)],
      { stdio: ["ignore", "inherit", "inherit", "ipc"] }
    )
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    child.once("error", reject)
    child.once("exit", (code) => reject(new Error(`the RPC proxy process exited (${code}) before listening`)))
    child.once("message", (first: { url?: string }) => {
      if (first.url === undefined) return reject(new Error("the RPC proxy process did not say its URL"))
      resolve({
        url: first.url,
        counts: () =>
          new Promise((answer) => {
            child.once("message", (m: { counts: ProxyCounts }) => answer(m.counts))
            child.send("counts")
          }),
        close: () => {
          if (child.exitCode === null) child.send("close")
          return exited
        }
      })
    })
  })

/** Calls per 10,000 events, and the calls by method (most first), as one line. */
export const describeCalls = (counts: ProxyCounts, events: number) => {
  const byMethod = Object.entries(counts.methods)
    .sort((a, b) => b[1] - a[1])
    .map(([method, n]) => `${method} ${n}`)
    .join(", ")
  return `${counts.requests} RPC calls (${byMethod}; ${counts.rateLimited} answered 429, ${counts.rangeRefused} refused for the block range, ${counts.logCapRefused} for the log count) = ${callsPer10k(counts, events).toFixed(1)} calls per 10,000 events`
}

export const callsPer10k = (counts: ProxyCounts, events: number) => (10_000 * counts.requests) / Math.max(1, events)
