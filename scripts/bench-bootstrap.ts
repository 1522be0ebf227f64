/**
 * `npm run bench:bootstrap`: the mainnet-shaped devnet (scripts/devnet/mainnet-shaped.ts) with BENCH_POOLS generated
 * token/WETH pools (default 200, four positions each, made by PoolFarm in batches of 250: scripts/devnet/pool-farm.ts)
 * on a fresh anvil with a 10B block gas limit, then the indexer's bootstrap of every tracked pool (those, and the
 * market's pools among the base tokens) into a fresh embedded PostgreSQL: the deploy time apart, then seconds, view
 * calls and the eth_call requests that carried them (Multicall3, 500 calls each; the tick bitmaps and ticks through
 * TickBitmapLens, 4,500 words each: src/indexer/bootstrap/TickReads.ts), per pool, where the time went and this
 * process's memory. The baseline is the same reads one eth_call each, the request count without batching. Prints the
 * machine's load.
 */
import { NodeServices } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { execSync } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { startAnvil } from "../layers/Anvil.ts"
import { startEmbeddedPostgres } from "../layers/EmbeddedPostgres.ts"
import { makePublicClient } from "../layers/PublicClient.ts"
import { MigrationsLive, pgClientLayer } from "../layers/Sql.ts"
import { bootstrapPools } from "../src/indexer/bootstrap/Bootstrap.ts"
import { IndexerServicesLive } from "../src/indexer/Indexer.ts"
import { defaultIndexerSettings, IndexerConfig } from "../src/indexer/IndexerConfig.ts"
import { sourceFromChain } from "../src/indexer/IndexerLive.ts"
import { indexerScopeConfig, withScope } from "../src/indexer/IndexerScope.ts"
import { IndexerSource } from "../src/indexer/IndexerSource.ts"
import { deployMainnetShaped } from "./devnet/mainnet-shaped.ts"

const POOLS = Number(process.env.BENCH_POOLS ?? 200)
const load = () => execSync("uptime").toString().trim()

const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "bench-bootstrap-"))
NodeFs.chmodSync(dir, 0o755)
// A block gas limit high enough for PoolFarm's batches of 250 pools (scripts/devnet/pool-farm.ts).
const anvil = await startAnvil({
  dataDir: NodePath.join(dir, "anvil"),
  port: 0,
  extraArgs: ["--gas-limit", "10000000000"]
})

const program = Effect.gen(function* () {
  console.log(`load before: ${load()}`)
  const deployStarted = performance.now()
  const scenario = yield* Effect.promise(() =>
    deployMainnetShaped(anvil.rpcUrl, anvil.chainId, { generatedPools: POOLS, log: (line) => console.log(line) })
  )
  console.log(
    `devnet: ${scenario.pools.length} pools before the start block (${POOLS} generated) deployed in ` +
      `${((performance.now() - deployStarted) / 1000).toFixed(1)} s`
  )
  const pg = yield* startEmbeddedPostgres({ dir: NodePath.join(dir, "pg"), port: 0 })
  const db = MigrationsLive.pipe(Layer.provideMerge(pgClientLayer(pg.url, 8)), Layer.provide(NodeServices.layer))
  const chain = {
    chainId: anvil.chainId,
    mode: "devnet" as const,
    publicClient: makePublicClient(anvil.chainId, anvil.rpcUrl),
    deployments: scenario.deployments
  }
  const scope = yield* indexerScopeConfig(scenario.deployments)
  const source = withScope(sourceFromChain(chain), scope)
  // The process's peak memory while it bootstraps (sampled every 50 ms).
  const peak = { rss: 0, heap: 0 }
  const sample = () => {
    const m = process.memoryUsage()
    peak.rss = Math.max(peak.rss, m.rss)
    peak.heap = Math.max(peak.heap, m.heapUsed)
  }
  sample()
  const before = { ...peak }
  const sampler = setInterval(sample, 50)
  const result = yield* bootstrapPools.pipe(
    Effect.provide(
      IndexerServicesLive(anvil.chainId).pipe(
        Layer.provideMerge(
          Layer.mergeAll(IndexerSource.make(source), IndexerConfig.layerWith(defaultIndexerSettings(anvil.chainId)), db)
        )
      )
    )
  )
  clearInterval(sampler)
  sample()
  if (Option.isNone(result)) throw new Error("nothing was bootstrapped")
  const r = result.value
  const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`
  console.log(
    `bootstrap: ${r.pools} pools (${r.ticks} initialized ticks) read at block ${r.blockNumber} and stored in ` +
      `${(r.ms / 1000).toFixed(2)} s (${(r.ms / r.pools).toFixed(1)} ms per pool): ${r.stats.calls} view calls in ` +
      `${r.stats.requests} eth_call requests; baseline without batching (one eth_call per view call): ${r.stats.calls} eth_call requests ` +
      `(ratio ${(r.stats.calls / r.stats.requests).toFixed(0)}×)`
  )
  const stage = (ms: number) => `${(ms / 1000).toFixed(2)} s`
  console.log(
    `stages: chain reads ${stage(r.stageMs.reads)}, values ${stage(r.stageMs.values)}, database ${stage(r.stageMs.store)}; ` +
      `memory of this process: RSS ${mb(before.rss)} before, peak ${mb(peak.rss)}; heap used ${mb(before.heap)} ` +
      `before, peak ${mb(peak.heap)}`
  )
  console.log(`load after: ${load()}`)
})

await Effect.runPromise(Effect.scoped(program)).finally(async () => {
  await anvil.stop()
  NodeFs.rmSync(dir, { recursive: true, force: true })
})
