/**
 * In-engine quote latency of the routing core (workers/routing) on ≥ 1,000 generated pools: random token pairs
 * (launch tokens, WETH, stablecoins) and amounts from $10 to $1M, exactIn and exactOut, splits on. Prints p50/p99
 * per trade type. Pure CPU, no chain: `npm run bench:routing [-- --pools 1000 --quotes 2000 --seed 1]`.
 */
import { makeRouter } from "../workers/routing/index.ts"
import { generatedConfig, generateUniverse, prng } from "../workers/routing/testing/generatePools.ts"
import type { QuoteRequest, TradeType } from "../workers/routing/types.ts"

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const poolCount = arg("pools", 1000)
const quotes = arg("quotes", 2000)
const seed = arg("seed", 1)

const { snapshot, usd } = generateUniverse(seed, poolCount)
const config = generatedConfig()
const router = makeRouter(snapshot, config)
const rand = prng(seed + 1)
const tokens = snapshot.tokens
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

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!

console.log(`pools ${snapshot.pools.length}, tokens ${tokens.length}, config ${JSON.stringify(config, (_, v) => (typeof v === "bigint" ? v.toString() : v))}`)
for (const type of ["exactIn", "exactOut"] as const) {
  const requests = Array.from({ length: quotes }, () => request(type))
  // Warm-up: JIT and the per-block route caches of the pairs.
  for (const r of requests.slice(0, 200)) router.quote(r)
  const times: Array<number> = []
  const outcomes = new Map<string, number>()
  let splits = 0
  for (const r of requests) {
    const start = performance.now()
    const outcome = router.quote(r)
    times.push(performance.now() - start)
    outcomes.set(outcome._tag, (outcomes.get(outcome._tag) ?? 0) + 1)
    if (outcome._tag === "Found" && outcome.quote.routes.length > 1) splits++
  }
  times.sort((x, y) => x - y)
  console.log(
    `${type}: ${quotes} quotes, p50 ${percentile(times, 50).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms, max ${times.at(-1)!.toFixed(1)} ms; ` +
      `outcomes ${JSON.stringify(Object.fromEntries(outcomes))}, split quotes ${splits}`
  )
}
