import { startStack, rssOf } from "./soak/stack.ts"
import { Recorder, report } from "./soak/stats.ts"
import {
  chainActivity,
  codeOf,
  operations,
  readDeployments,
  statusOf,
  subscriptions,
  waitForSeededData
} from "./soak/workload.ts"

/**
 * `npm run soak`: starts the whole stack as a child process (temp DATA_DIR: embedded Postgres, anvil devnet), then
 * drives a mixed workload at a fixed rate (open loop: requests are sent on schedule whether or not earlier ones
 * answered, up to an in-flight cap) for SOAK_MINUTES, and prints requests by status, latency percentiles per route
 * class, the API process's RSS and heap over time (start, max, end, first vs last third), event-loop delay and errors.
 *
 * Env: SOAK_MINUTES (10), SOAK_RATE requests/s (40), SOAK_SUBSCRIPTIONS open GraphQL subscriptions (20),
 * SOAK_SWAP_MS chain transaction interval (1000), SOAK_SAMPLE_MS server sampling interval (5000),
 * SOAK_ENTRY `dist` (build, then dist/src/main.js as `npm start` runs it; default) or `src` (src/main.ts),
 * SOAK_MAX_IN_FLIGHT (200).
 */
const minutes = Number(process.env.SOAK_MINUTES ?? 10)
const rate = Number(process.env.SOAK_RATE ?? 40)
const subscriptionCount = Number(process.env.SOAK_SUBSCRIPTIONS ?? 20)
const swapMs = Number(process.env.SOAK_SWAP_MS ?? 1000)
const sampleMs = Number(process.env.SOAK_SAMPLE_MS ?? 5000)
const maxInFlight = Number(process.env.SOAK_MAX_IN_FLIGHT ?? 200)
const entry = process.env.SOAK_ENTRY === "src" ? "src" : "dist"

const metricValue = (text: string, name: string, labels = "") => {
  const line = text
    .split("\n")
    .find(
      (l) => l.startsWith(`${name}${labels === "" ? " " : `{${labels}`}`) || (labels === "" && l.startsWith(`${name}{`))
    )
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1))
}

const main = async () => {
  const t0 = Date.now()
  console.log(`soak: starting the stack (${entry}) ...`)
  const stack = await startStack(entry, {})
  console.log(`soak: stack ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${Object.values(stack.urls).join(" ")}`)
  const d = readDeployments(stack)
  const seeded = await waitForSeededData(stack, d)
  console.log(
    `soak: seeded data served ${seeded.seconds.toFixed(1)} s after ready (${seeded.checked} pages and quotes; at the ready line ` +
      `${seeded.firstMissing.length} were not: ${seeded.firstMissing.slice(0, 3).join(", ")}${seeded.firstMissing.length > 3 ? ", …" : ""})`
  )
  const r = new Recorder()
  const { ops, features } = await operations(stack, d)
  console.log(
    `soak: ${ops.length} request kinds${features.length > 0 ? ` (with ${features.join(", ")})` : " (quotes and comments not served by this build)"}; ` +
      `${rate} req/s for ${minutes} min, ${subscriptionCount} subscriptions, a chain transaction every ${swapMs} ms`
  )
  const totalWeight = ops.reduce((a, o) => a + o.weight, 0)
  const choose = () => {
    let x = Math.random() * totalWeight
    for (const o of ops) if ((x -= o.weight) < 0) return o
    return ops.at(-1)!
  }

  const sample = async () => {
    try {
      const text = await (await fetch(`${stack.urls.client}/metrics`, { signal: AbortSignal.timeout(10_000) })).text()
      r.samples.push({
        t: Date.now(),
        rss: rssOf(stack.child.pid) ?? metricValue(text, "process_resident_memory_bytes"),
        heap: metricValue(text, "nodejs_heap_used_bytes"),
        loopP99: metricValue(text, "nodejs_eventloop_delay_seconds", 'quantile="0.99"'),
        loopMax: metricValue(text, "nodejs_eventloop_delay_seconds", 'quantile="1"')
      })
    } catch (error) {
      r.error(`metrics scrape: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  await sample()
  const sampler = setInterval(() => void sample(), sampleMs)
  const stopSubscriptions = subscriptions(stack, d, r, subscriptionCount, 30_000)
  const stopChain = chainActivity(stack, d, r, swapMs)

  // Open loop at a fixed rate: each tick sends the requests that are due, independent of answers.
  const started = performance.now()
  const durationMs = minutes * 60_000
  let sent = 0
  let lastProgress = started
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now()
      if (now - started >= durationMs) {
        clearInterval(tick)
        return resolve()
      }
      const due = Math.floor(((now - started) / 1000) * rate) - sent
      for (let i = 0; i < due; i++) {
        sent++
        if (r.inFlight >= maxInFlight) {
          r.dropped++
          continue
        }
        const op = choose()
        const t = performance.now()
        r.inFlight++
        op.run()
          .then(
            (outcome) => r.request(op.routeClass, statusOf(outcome), performance.now() - t, op.name, codeOf(outcome)),
            (error) => {
              r.request(op.routeClass, 0, performance.now() - t, op.name)
              r.error(`${op.routeClass}: ${error instanceof Error ? error.message : String(error)}`)
            }
          )
          .finally(() => r.inFlight--)
      }
      if (now - lastProgress > 30_000) {
        lastProgress = now
        const last = r.samples.at(-1)
        console.log(
          `soak: ${((now - started) / 1000).toFixed(0)} s, ${sent} sent, ${r.inFlight} in flight, RSS ${last ? (last.rss / 1048576).toFixed(0) : "?"} MB`
        )
      }
    }, 10)
  })
  stopChain()
  await stopSubscriptions()
  // Requests still in flight get their answer (bounded by the per-request timeout).
  while (r.inFlight > 0) await new Promise((res) => setTimeout(res, 50))
  await sample()
  clearInterval(sampler)
  const seconds = (performance.now() - started) / 1000
  const code = await stack.stop()
  console.log("")
  console.log(report(r, { seconds, rate, entry, problems: stack.problems }))
  console.log(`stack stopped (exit ${code})`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
