/**
 * `npm run bench:devnet`: anvil start (spawn to first answer), cold deploy + seed, warm start (state loaded to
 * ready; `--load-state` and `anvil_loadState`), and eth_call latency over 1,000 sequential calls (ERC-20 balanceOf,
 * QuoterV2 quote) through viem. Everything runs in a temporary directory on free ports.
 */
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { parseEther } from "viem"
import { loadAnvilState, startAnvil } from "../layers/Anvil.ts"
import { erc20Abi, quoterV2Abi } from "./devnet/abis.ts"
import { startDevnet } from "./devnet/devnet.ts"
import { makePublicClient } from "../layers/PublicClient.ts"

const ANVIL_STARTS = 10
const COLD_RUNS = 3
const WARM_STARTS = 10
const CALLS = 1_000

const quantile = (values: ReadonlyArray<number>, q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
}
const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n.toFixed(0)} ms`

const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-bench-devnet-"))
const rows: Array<[string, string, string, string]> = []
const row = (what: string, samples: ReadonlyArray<number>, note = "") =>
  rows.push([what, `${ms(quantile(samples, 0.5))}`, `${samples.length > 1 ? ms(quantile(samples, 0.99)) : "-"}`, note])

try {
  // 1. anvil start: spawn to the first answer of eth_chainId (empty chain)
  const starts: Array<number> = []
  for (let i = 0; i < ANVIL_STARTS; i++) {
    const anvil = await startAnvil({ dataDir: NodePath.join(root, "empty") })
    starts.push(anvil.readyMs)
    await anvil.stop()
  }
  row("anvil start (spawn → eth_chainId)", starts, `${ANVIL_STARTS} starts`)

  // 2. cold: deploy the Uniswap stack + launchpad, seed, save the state
  const cold: Array<number> = []
  const dataDir = NodePath.join(root, "data")
  let stateBytes = 0
  let blocks = 0
  for (let i = 0; i < COLD_RUNS; i++) {
    const devnet = await startDevnet({ dataDir, port: 0, fresh: true })
    cold.push(devnet.timings.deployMs!)
    blocks = Number(await makePublicClient(devnet.anvil.chainId, devnet.anvil.rpcUrl).getBlockNumber())
    stateBytes = NodeFs.statSync(devnet.files.stateFile).size
    await devnet.anvil.stop()
  }
  row(
    "cold deploy + seed + save state",
    cold,
    `${COLD_RUNS} runs, ${blocks} blocks, state ${(stateBytes / 1e6).toFixed(1)} MB`
  )

  // 3. warm: spawn with --load-state until ready (what the app does), and load over RPC into a running node
  const warm: Array<number> = []
  for (let i = 0; i < WARM_STARTS; i++) {
    const devnet = await startDevnet({ dataDir, port: 0 })
    if (devnet.start !== "warm") throw new Error("expected a warm start")
    warm.push(devnet.timings.totalMs)
    await devnet.anvil.stop()
  }
  row("warm start (--load-state → ready)", warm, `${WARM_STARTS} starts, incl. reading deployments.json`)
  const rpcLoads: Array<number> = []
  for (let i = 0; i < WARM_STARTS; i++) {
    const anvil = await startAnvil({ dataDir: NodePath.join(root, "rpc") })
    const t0 = performance.now()
    await loadAnvilState(anvil.rpcUrl, NodePath.join(dataDir, "devnet", "state.json"))
    rpcLoads.push(performance.now() - t0)
    await anvil.stop()
  }
  row("  anvil_loadState over RPC (after start)", rpcLoads, "alternative; add the anvil start above")

  // 4. eth_call latency, sequential, through viem over HTTP
  const devnet = await startDevnet({ dataDir, port: 0 })
  try {
    const client = makePublicClient(devnet.anvil.chainId, devnet.anvil.rpcUrl)
    const { contracts, launches } = devnet.deployments
    const embr = launches.find((l) => l.symbol === "EMBR")!
    const measure = async (call: () => Promise<unknown>) => {
      for (let i = 0; i < 20; i++) await call() // warm-up
      const samples: Array<number> = []
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now()
        await call()
        samples.push(performance.now() - t0)
      }
      return samples
    }
    row(
      "eth_call ERC-20 balanceOf",
      await measure(() =>
        client.readContract({ address: embr.token, abi: erc20Abi, functionName: "balanceOf", args: [embr.creator] })
      ),
      `${CALLS} sequential calls`
    )
    row(
      "eth_call QuoterV2 quoteExactInputSingle",
      await measure(() =>
        client.simulateContract({
          address: contracts.quoterV2!,
          abi: quoterV2Abi,
          functionName: "quoteExactInputSingle",
          args: [
            {
              tokenIn: contracts.weth9,
              tokenOut: embr.token,
              amountIn: parseEther("0.1"),
              fee: embr.fee,
              sqrtPriceLimitX96: 0n
            }
          ]
        })
      ),
      `${CALLS} sequential calls`
    )
  } finally {
    await devnet.anvil.stop()
  }

  const header: [string, string, string, string] = ["measure", "p50", "p99", "notes"]
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (r: ReadonlyArray<string>) =>
    r.map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ")
  console.log(
    `\ndevnet benchmark (${NodeOs.cpus().length} cores, ${NodeOs.cpus()[0]?.model ?? "?"}, node ${process.version})\n`
  )
  console.log(line(header))
  console.log(widths.map((w) => "-".repeat(w)).join("  "))
  for (const r of rows) console.log(line(r))
} finally {
  NodeFs.rmSync(root, { recursive: true, force: true })
}
