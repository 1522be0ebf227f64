/**
 * `npm run bench:indexer`: builds a large swap history on a fresh anvil (launches, then BENCH_SWAPS swaps through
 * SwapRouter02.multicall, BENCH_SWAPS_PER_TX per transaction), then times a full backfill into a fresh embedded
 * PostgreSQL and prints events/s; then measures head latency (block mined → its rows committed) over BENCH_HEAD_SAMPLES
 * single-swap blocks. Ponder's side of the comparison is not run yet (see docs/BENCHMARKS.md).
 */
import { NodeServices } from "@effect/platform-node"
import { Effect, Layer, Stream } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { encodeFunctionData, maxUint256, parseAbi, parseEther, type Address } from "viem"
import { startEmbeddedPostgres } from "../layers/EmbeddedPostgres.ts"
import { MigrationsLive, pgClientLayer } from "../layers/Sql.ts"
import { IndexerEvents } from "../src/indexer/IndexerEvents.ts"
import { IndexerStatus } from "../src/indexer/IndexerStatus.ts"
import { abis, receiptOf, sendTx, write } from "../test/contracts/chain.ts"
import { ignite, seed, startDevnet } from "../test/indexer/devnet.ts"
import { indexerLayer } from "../test/indexer/harness.ts"

const SWAPS = Number(process.env.BENCH_SWAPS ?? 200_000)
const PER_TX = Number(process.env.BENCH_SWAPS_PER_TX ?? 100)
const LAUNCHES = Number(process.env.BENCH_LAUNCHES ?? 20)
const HEAD_SAMPLES = Number(process.env.BENCH_HEAD_SAMPLES ?? 100)
/** Blocks per batch: smaller batches let the fetch of one overlap the commit of the previous one. */
const BLOCK_RANGE = Number(process.env.BENCH_BLOCK_RANGE ?? 250)
const multicallAbi = parseAbi(["function multicall(bytes[] data) payable returns (bytes[] results)"])

const log = (line: string) => console.log(`[bench:indexer] ${line}`)
const pct = (xs: Array<number>, p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!

const d = await startDevnet()
const t0 = performance.now()
const s = await seed(d)
const { buyer } = d.accounts
await write(d.chain, buyer, d.uni.weth, abis.weth, "deposit", [], parseEther("5000"))
const tokens: Array<{ token: Address; fee: number }> = [{ token: s.a.token, fee: s.a.fee }, { token: s.b.token, fee: s.b.fee }]
for (let i = 0; i < LAUNCHES; i++) {
  const l = await ignite(d, d.accounts.creatorA, `Bench${i}`)
  tokens.push({ token: l.token, fee: l.fee })
}
for (const t of tokens) {
  // A first buy gives the buyer tokens to sell back; the approval lets the router take them.
  await write(d.chain, buyer, d.uni.swapRouter02, abis.swapRouter02, "exactInputSingle", [{
    tokenIn: d.uni.weth, tokenOut: t.token, fee: t.fee, recipient: buyer, amountIn: parseEther("5"), amountOutMinimum: 0n, sqrtPriceLimitX96: 0n
  }])
  await write(d.chain, buyer, t.token, abis.erc20, "approve", [d.uni.swapRouter02, maxUint256])
}
const swapCall = (i: number) => {
  const t = tokens[i % tokens.length]!
  const buy = Math.floor(i / tokens.length) % 2 === 0
  return encodeFunctionData({
    abi: abis.swapRouter02,
    functionName: "exactInputSingle",
    args: [{
      tokenIn: buy ? d.uni.weth : t.token, tokenOut: buy ? t.token : d.uni.weth, fee: t.fee, recipient: buyer,
      amountIn: buy ? parseEther("0.001") : parseEther("1000"), amountOutMinimum: 0n, sqrtPriceLimitX96: 0n
    }]
  })
}
let made = 0
while (made < SWAPS) {
  const n = Math.min(PER_TX, SWAPS - made)
  const calls = Array.from({ length: n }, (_, k) => swapCall(made + k))
  // A fixed gas limit (no estimate: it would execute every swap twice); the receipt must still say success.
  const hash = await d.chain.wallet.sendTransaction({
    account: buyer, to: d.uni.swapRouter02, chain: d.chain.wallet.chain ?? null, gas: 200_000n * BigInt(n),
    data: encodeFunctionData({ abi: multicallAbi, functionName: "multicall", args: [calls] })
  })
  if ((await receiptOf(d.chain, hash)).status !== "success") throw new Error(`multicall ${hash} reverted`)
  made += n
  if (made % 20_000 < PER_TX) log(`${made} swaps generated`)
}
const head = await d.chain.public.getBlockNumber({ cacheTime: 0 })
log(`history: ${made} swaps over ${tokens.length} launch pools, head ${head}, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "bench-indexer-"))
const program = Effect.gen(function*() {
  const pg = yield* startEmbeddedPostgres({ dir: NodePath.join(dir, "pg"), port: 0 })
  const db = MigrationsLive.pipe(Layer.provideMerge(pgClientLayer(pg.url, 8)), Layer.provide(NodeServices.layer))
  yield* Effect.gen(function*() {
    const status = yield* IndexerStatus
    const start = performance.now()
    const done = yield* status.awaitBlock(head, "30 minutes")
    const seconds = (performance.now() - start) / 1000
    log(`backfill (batches of ${BLOCK_RANGE} blocks): ${done.eventsTotal} events (logs) to block ${head} in ${seconds.toFixed(2)} s = ${Math.round(done.eventsTotal / seconds)} events/s`)

    // Head latency: one swap per block; from the receipt (block mined) to the batch's change event (rows committed).
    const changes = yield* (yield* IndexerEvents).subscribe
    const latencies: Array<number> = []
    for (let i = 0; i < HEAD_SAMPLES; i++) {
      const receipt = yield* Effect.promise(() => sendTx(d.chain, { from: buyer, to: d.uni.swapRouter02, data: swapCall(i) }))
      const mined = performance.now()
      yield* changes.pipe(Stream.filter((c) => c.toBlock >= receipt.blockNumber), Stream.runHead, Effect.timeout("30 seconds"))
      latencies.push(performance.now() - mined)
    }
    log(`head latency (poll ${50} ms): p50 ${pct(latencies, 0.5).toFixed(0)} ms, p99 ${pct(latencies, 0.99).toFixed(0)} ms over ${latencies.length} blocks`)
  }).pipe(Effect.provide(indexerLayer(d, { pollIntervalMs: 50, finalityDepth: 2, maxBlockRange: BLOCK_RANGE }).pipe(Layer.provideMerge(db))))
}).pipe(Effect.scoped)

await Effect.runPromise(program).finally(async () => {
  await d.anvil.stop()
  NodeFs.rmSync(dir, { recursive: true, force: true })
})
