/**
 * In-engine quote latency of the routing core (workers/routing) on ≥ 1,000 generated pools
 * (workers/routing/testing/generatePools.ts): random pairs of tokens that have pools, amounts worth $10 to $1M,
 * exactIn and exactOut, splits on (maxSplits 3, 5 % steps, ≤ 3 hops). Each request is quoted once per run on a
 * fresh router (cold per-block caches, as after a new block); with `--runs N` the whole sequence is repeated on new
 * routers and each request keeps its fastest time, which removes time spent descheduled on a shared machine.
 * Pure CPU, no chain: `npm run bench:routing [-- --pools 1000 --quotes 2000 --runs 3 --seed 1]`.
 */
import { makeRouter } from "../workers/routing/index.ts"
import { generatedConfig, generateUniverse, prng } from "../workers/routing/testing/generatePools.ts"
import type { QuoteRequest, RoutingOutcome, TradeType } from "../workers/routing/types.ts"

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const poolCount = arg("pools", 1000)
const quotes = arg("quotes", 2000)
const runs = arg("runs", 3)
const seed = arg("seed", 1)

const { snapshot, usd } = generateUniverse(seed, poolCount)
const config = generatedConfig()
const rand = prng(seed + 1)
// Only tokens that have a pool: requests for unknown tokens return NoPoolsAvailable in microseconds and flatter p50.
const traded = new Set(snapshot.pools.flatMap((p) => [p.token0, p.token1]))
const tokens = snapshot.tokens.filter((t) => traded.has(t.address))
const decimals = new Map(tokens.map((t) => [t.address, t.decimals]))

const request = (type: TradeType): QuoteRequest => {
  const a = tokens[Math.floor(rand() * tokens.length)]!.address
  let b = a
  while (b === a) b = tokens[Math.floor(rand() * tokens.length)]!.address
  const token = type === "exactIn" ? a : b
  const dollars = 10 ** (1 + rand() * 5)
  const raw = BigInt(Math.max(1, Math.floor((dollars / usd.get(token)!) * 10 ** Math.min(decimals.get(token)!, 12))))
  const amount = raw * 10n ** BigInt(Math.max(0, decimals.get(token)! - 12))
  return { tokenIn: a, tokenOut: b, amount, type, gasPriceWei: 1_000_000_000n }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!

console.log(
  `pools ${snapshot.pools.length}, tokens with pools ${tokens.length}, runs ${runs}, config ${JSON.stringify(config, (_, v) => (typeof v === "bigint" ? v.toString() : v))}`
)
const requests = {
  exactIn: Array.from({ length: quotes }, () => request("exactIn")),
  exactOut: Array.from({ length: quotes }, () => request("exactOut"))
}
const best = { exactIn: new Array<number>(quotes).fill(Infinity), exactOut: new Array<number>(quotes).fill(Infinity) }
const outcomes = { exactIn: new Array<RoutingOutcome>(quotes), exactOut: new Array<RoutingOutcome>(quotes) }
for (let run = 0; run < runs; run++) {
  // A fresh snapshot (new pool objects: the swap-step memo is per pool state) and router per run.
  const router = makeRouter(generateUniverse(seed, poolCount).snapshot, config)
  // Warm-up of the JIT on other requests.
  for (let i = 0; i < 300; i++) router.quote(request(i % 2 === 0 ? "exactIn" : "exactOut"))
  for (const type of ["exactIn", "exactOut"] as const) {
    requests[type].forEach((r, i) => {
      const start = performance.now()
      const outcome = router.quote(r)
      best[type][i] = Math.min(best[type][i]!, performance.now() - start)
      outcomes[type][i] = outcome
    })
  }
}
for (const type of ["exactIn", "exactOut"] as const) {
  const times = [...best[type]].sort((x, y) => x - y)
  const tags: Record<string, number> = {}
  for (const o of outcomes[type]) tags[o._tag] = (tags[o._tag] ?? 0) + 1
  const splits = outcomes[type].filter((o) => o._tag === "Found" && o.quote.routes.length > 1).length
  console.log(
    `${type}: ${quotes} quotes, p50 ${percentile(times, 50).toFixed(3)} ms, p90 ${percentile(times, 90).toFixed(3)} ms, ` +
      `p99 ${percentile(times, 99).toFixed(3)} ms, max ${times.at(-1)!.toFixed(1)} ms; outcomes ${JSON.stringify(tags)}, split quotes ${splits}`
  )
}
