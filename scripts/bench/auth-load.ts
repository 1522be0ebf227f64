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
 * 0.5–0.6 ms of CPU per sign-in, 16–18 % of the run's CPU on 2 cores (docs/BENCHMARKS.md). A non-2xx answer, a socket
 * error or a timeout counts as a failure.
 *
 * The first request of each connection is sent before its connection exists (autocannon starts its clock at the
 * write), so it also measures the TCP connect and the server's accept of `concurrency` connections opened in the same
 * instant: in quiet runs on 5ed697d some connections' first requests reached the server 150–250 ms after the start
 * while the server answered each within ~50 ms of its arrival (scripts/bench-auth.ts prints the per-slice tail). With
 * `openers` the first `openers` bodies open the connections: their answers are reported apart (`opening`) and the
 * percentiles are those of the other requests, all sent on open connections, `concurrency` in flight. Latencies are
 * autocannon's per answer (fractional ms); the rate counts every answer to the last one (autocannon itself reports a
 * run with an `amount` at its next 1 s sampling tick).
 */
export const postAllWithAutocannon = async (
  url: string,
  bodies: ReadonlyArray<string>,
  concurrency: number,
  openers = 0
): Promise<LoadResult & { readonly answers: ReadonlyArray<Answer>; readonly opening: ReadonlyArray<Answer> }> => {
  const target = new URL(url)
  let next = 0
  const answers: Array<Answer> = []
  const opening: Array<Answer> = []
  const seen = new Set<unknown>()
  let notOk = 0
  let errors = 0
  const t0 = performance.now()
  await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
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
      },
      (error, done) => (error ? reject(error) : resolve(done))
    )
    instance.on("response", (client: unknown, status: number, _bytes: number, ms: number) => {
      if (status < 200 || status > 299) notOk++
      const answer = { atMs: performance.now() - t0, ms }
      // A connection's first answer is its opening request's (autocannon sends one request at a time per connection).
      if (opening.length < openers && !seen.has(client)) {
        seen.add(client)
        opening.push(answer)
      } else answers.push(answer)
    })
    instance.on("reqError", () => errors++)
  })
  const all = answers.length + opening.length
  const last = Math.max(answers[answers.length - 1]?.atMs ?? 0, opening[opening.length - 1]?.atMs ?? 0)
  const latencies = answers.map((a) => a.ms).sort((a, b) => a - b)
  return {
    perSecond: all / ((last > 0 ? last : performance.now() - t0) / 1000),
    p50: Math.round(percentile(latencies, 50) * 10) / 10,
    p99: Math.round(percentile(latencies, 99) * 10) / 10,
    failures: notOk + Math.max(errors, bodies.length - all),
    answers,
    opening
  }
}

/** One answer of a load: when it came (ms since the load started) and its latency (ms, autocannon's, fractional). */
export interface Answer {
  readonly atMs: number
  readonly ms: number
}

/**
 * Where a load's slowest answers were: the median and maximum latency of each slice of `slices` by answer order, and
 * when the slowest 1 % came (ms since the start), to tell a start-up wave from pauses spread over the run.
 */
export const describeTail = (answers: ReadonlyArray<Answer>, slices = 10): Array<string> => {
  if (answers.length === 0) return []
  const sorted = (list: ReadonlyArray<number>) => [...list].sort((a, b) => a - b)
  const size = Math.ceil(answers.length / slices)
  const parts: Array<string> = []
  for (let i = 0; i < answers.length; i += size) {
    const ms = sorted(answers.slice(i, i + size).map((a) => a.ms))
    parts.push(`${percentile(ms, 50).toFixed(0)}/${ms[ms.length - 1]!.toFixed(0)}`)
  }
  const slowest = [...answers.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, Math.ceil(answers.length / 100))
  return [
    `  by answer order, ${slices} slices of ${size} (p50/max ms): ${parts.join(" ")}`,
    `  the slowest 1 % (answer #: ms, at ms since the start): ${slowest
      .sort((a, b) => a[0] - b[0])
      .map(([i, a]) => `#${i}: ${a.ms.toFixed(0)} @${a.atMs.toFixed(0)}`)
      .join(", ")}`
  ]
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
