/** What the soak measured: latencies per route class, statuses, errors, and samples of the server over time. */
export class Recorder {
  readonly latencies = new Map<string, Array<number>>()
  readonly statuses = new Map<string, number>()
  readonly errors = new Map<string, number>()
  /** Non-2xx answers by request kind and status, with when the first and the last came (s from the start). */
  readonly refusals = new Map<string, { n: number; first: number; last: number }>()
  private readonly started = performance.now()
  readonly samples: Array<{ t: number; rss: number; heap: number; loopP99: number; loopMax: number }> = []
  dropped = 0
  inFlight = 0
  subscriptionEvents = 0
  chainTxs = 0

  request(routeClass: string, status: number, ms: number, name = routeClass, code?: string) {
    const answer = code === undefined ? `${status}` : `${status} ${code}`
    if (status < 200 || status >= 300) {
      const at = (performance.now() - this.started) / 1000
      const seen = this.refusals.get(`${name} → ${answer}`)
      if (seen === undefined) this.refusals.set(`${name} → ${answer}`, { n: 1, first: at, last: at })
      else Object.assign(seen, { n: seen.n + 1, last: at })
    }
    const list = this.latencies.get(routeClass) ?? []
    list.push(ms)
    this.latencies.set(routeClass, list)
    const key = `${status}`
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1)
    if (status >= 500) this.error(`${routeClass}: HTTP ${answer}`)
  }

  error(message: string) {
    const key = message.slice(0, 160)
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1)
  }
}

const pct = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`
const ms = (x: number) => x.toFixed(1).padStart(8)

/** The printed report (also returned, for docs/BENCHMARKS.md). */
export const report = (
  r: Recorder,
  meta: { seconds: number; rate: number; entry: string; problems: ReadonlyArray<string> }
) => {
  const lines: Array<string> = []
  const total = [...r.statuses.values()].reduce((a, b) => a + b, 0)
  lines.push(
    `soak: ${meta.seconds.toFixed(0)} s at ${meta.rate} req/s target (${meta.entry}); ${total} requests (${(total / meta.seconds).toFixed(1)}/s), ` +
      `${r.dropped} not sent (in-flight cap), ${r.chainTxs} chain transactions, ${r.subscriptionEvents} subscription events`
  )
  lines.push("")
  lines.push("requests by status:")
  for (const [status, n] of [...r.statuses].sort()) lines.push(`  ${status.padEnd(6)} ${String(n).padStart(8)}`)
  for (const [kind, { n, first, last }] of [...r.refusals].sort((a, b) => b[1].n - a[1].n).slice(0, 12))
    lines.push(`    ${String(n).padStart(6)}  ${kind} (at ${first.toFixed(1)}${n > 1 ? `–${last.toFixed(1)}` : ""} s)`)
  lines.push("")
  lines.push(
    `latency (ms)         ${"n".padStart(7)} ${"p50".padStart(8)} ${"p90".padStart(8)} ${"p99".padStart(8)} ${"max".padStart(8)}`
  )
  for (const [name, list] of [...r.latencies].sort()) {
    const sorted = [...list].sort((a, b) => a - b)
    lines.push(
      `  ${name.padEnd(18)} ${String(sorted.length).padStart(7)} ${ms(pct(sorted, 0.5))} ${ms(pct(sorted, 0.9))} ${ms(pct(sorted, 0.99))} ${ms(sorted.at(-1) ?? 0)}`
    )
  }
  lines.push("")
  const s = r.samples
  if (s.length > 0) {
    const rss = s.map((x) => x.rss)
    const third = Math.max(1, Math.floor(s.length / 3))
    const avg = (xs: Array<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
    lines.push(
      `RSS of the API process: start ${mb(rss[0]!)}, max ${mb(Math.max(...rss))}, end ${mb(rss.at(-1)!)}; ` +
        `mean of first third ${mb(avg(rss.slice(0, third)))}, last third ${mb(avg(rss.slice(-third)))} (${s.length} samples)`
    )
    lines.push(
      `V8 heap used: start ${mb(s[0]!.heap)}, max ${mb(Math.max(...s.map((x) => x.heap)))}, end ${mb(s.at(-1)!.heap)}`
    )
    lines.push(
      `event-loop delay (10 s windows): p99 median ${(
        pct(
          [...s.map((x) => x.loopP99)].sort((a, b) => a - b),
          0.5
        ) * 1000
      ).toFixed(1)} ms, ` +
        `worst p99 ${(Math.max(...s.map((x) => x.loopP99)) * 1000).toFixed(1)} ms, max ${(Math.max(...s.map((x) => x.loopMax)) * 1000).toFixed(1)} ms`
    )
    lines.push(
      `RSS over time (MB): ${s
        .filter((_, i) => i % Math.max(1, Math.floor(s.length / 12)) === 0)
        .map((x) => (x.rss / 1048576).toFixed(0))
        .join(" ")}`
    )
  }
  lines.push("")
  lines.push(`errors: ${r.errors.size === 0 ? "none" : ""}`)
  for (const [message, n] of [...r.errors].sort((a, b) => b[1] - a[1]).slice(0, 20))
    lines.push(`  ${String(n).padStart(6)}  ${message}`)
  lines.push(`server warnings/errors logged: ${meta.problems.length}`)
  for (const p of meta.problems.slice(0, 10)) lines.push(`  ${p.slice(0, 300)}`)
  return lines.join("\n")
}
