import autocannon from "autocannon"
import type { LocalAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"

/** Helpers of `bench:auth`: signed sign-in requests made ahead of time, and a closed-loop POST load with latencies. */

export interface SignedSignIn {
  readonly body: string
}

/** `count` ready-to-send verify bodies (a fresh nonce each, from the server), signed by `accounts` in turn. */
export const prepareSignIns = async (base: string, accounts: ReadonlyArray<LocalAccount>, count: number) => {
  const out: Array<SignedSignIn> = []
  const batch = 50
  for (let start = 0; start < count; start += batch) {
    const made = await Promise.all(
      Array.from({ length: Math.min(batch, count - start) }, async (_, i) => {
        const account = accounts[(start + i) % accounts.length]!
        const response = await fetch(`${base}/v1/session/wallet/nonce?address=${account.address}`)
        const { nonce } = (await response.json()) as { nonce: string }
        const message = createSiweMessage({
          domain: "localhost",
          address: account.address,
          uri: "http://localhost",
          version: "1",
          chainId: 31337,
          nonce,
          issuedAt: new Date()
        })
        return { body: JSON.stringify({ message, signature: await account.signMessage({ message }) }) }
      })
    )
    out.push(...made)
  }
  return out
}

export interface LoadResult {
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
  readonly failures: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** Sends every body once with `concurrency` requests in flight; a non-200 answer counts as a failure. */
export const postAll = async (url: string, bodies: ReadonlyArray<string>, concurrency: number): Promise<LoadResult> => {
  const latencies: Array<number> = []
  let failures = 0
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!
        const start = performance.now()
        const response = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } })
        await response.arrayBuffer()
        latencies.push(performance.now() - start)
        if (response.status !== 200) failures++
      }
    })
  )
  const seconds = (performance.now() - t0) / 1000
  latencies.sort((a, b) => a - b)
  return {
    perSecond: bodies.length / seconds,
    p50: Math.round(percentile(latencies, 50) * 10) / 10,
    p99: Math.round(percentile(latencies, 99) * 10) / 10,
    failures
  }
}

/**
 * Sends every body once, `concurrency` requests in flight, with autocannon (the GET measurements' generator): it
 * costs the shared cores a few hundredths of a millisecond per request, where undici's `fetch` (`postAll`) cost
 * 0.5–0.6 ms of CPU per sign-in, 16–18 % of the run's CPU on 2 cores (docs/BENCHMARKS.md). Latencies are autocannon's
 * (whole milliseconds); a non-2xx answer, a socket error or a timeout counts as a failure.
 */
export const postAllWithAutocannon = async (
  url: string,
  bodies: ReadonlyArray<string>,
  concurrency: number
): Promise<LoadResult> => {
  const target = new URL(url)
  let next = 0
  const t0 = performance.now()
  const result = await autocannon({
    url: target.origin,
    connections: concurrency,
    amount: bodies.length,
    timeout: 60,
    requests: [
      {
        method: "POST",
        path: target.pathname,
        headers: { "content-type": "application/json" },
        // Each request its own body (a nonce is good once); the modulo only guards an extra call.
        setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] })
      }
    ]
  })
  const seconds = (performance.now() - t0) / 1000
  return {
    perSecond: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts
  }
}

/**
 * Runs `f` repeatedly for `ms` milliseconds; returns calls per second of wall time and per second of this process's
 * CPU time (on a shared machine the first measures the waiting for a core too, the second only the work).
 */
export const opsPerSecond = async (ms: number, f: () => Promise<unknown> | unknown) => {
  let n = 0
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  while (performance.now() - t0 < ms) {
    await f()
    n++
  }
  const cpu = process.cpuUsage(cpu0)
  return { wall: n / ((performance.now() - t0) / 1000), cpu: n / ((cpu.user + cpu.system) / 1e6) }
}
