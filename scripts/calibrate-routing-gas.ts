/**
 * Measures what the routing core's gas model (workers/routing/Gas.ts) is fitted to: receipts of SwapRouter02
 * `multicall(deadline, [exactInput...])` swaps on a fresh devnet (anvil), over 1–3 hop paths and 0–~12 initialized
 * ticks crossed, plus two-leg splits; QuoterV2's per-hop tick counts give the crossings. Prints every sample and a
 * least-squares fit gasUsed ≈ base + perRoute·legs + perHop·hops + perTick·ticks.
 * `node scripts/calibrate-routing-gas.ts` (takes ~10 s; starts and stops its own anvil).
 */
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { type Address, encodeFunctionData, type Hex, maxUint256, parseEther } from "viem"
import { FireTokenAbi, FireTokenBytecode } from "../contracts/generated/index.ts"
import { erc20Abi, positionManagerAbi, quoterV2Abi, swapRouter02Abi, weth9Abi } from "./devnet/abis.ts"
import { startDevnet } from "./devnet/devnet.ts"
import { encodePath } from "./devnet/seed.ts"
import { devnetAccounts, makeSender } from "./devnet/tx.ts"

const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-gas-calibration-"))
const devnet = await startDevnet({ dataDir: dir, port: 0, fresh: true })
try {
  const { contracts, chainId } = devnet.deployments
  const sender = makeSender(chainId, devnet.anvil.rpcUrl)
  const [me] = devnetAccounts() as [NonNullable<ReturnType<typeof devnetAccounts>[number]>]
  const { write } = sender
  const weth = contracts.weth9 as Address
  await write(me, weth, weth9Abi, "deposit", [], parseEther("5000"))
  const tokens: Array<Address> = [weth]
  for (const symbol of ["GA", "GB", "GC"]) {
    tokens.push(
      await sender.deploy(me, { abi: FireTokenAbi, bytecode: FireTokenBytecode }, [
        symbol,
        symbol,
        parseEther("1000000000"),
        me.address
      ])
    )
  }
  for (const token of tokens) {
    await write(me, token, erc20Abi, "approve", [contracts.positionManager as Address, maxUint256])
    await write(me, token, erc20Abi, "approve", [contracts.swapRouter02 as Address, maxUint256])
  }
  const [, ga, gb, gc] = tokens as [Address, Address, Address, Address]
  // Path GA → WETH → GB → GC, every pool 1:1, 0.3 %: full range plus 40 adjacent 60-tick ranges (41 initialized ticks).
  const FEE = 3000
  // A second GA/WETH pool (0.05 %) gives two-leg splits a disjoint pool, as the router's splits have.
  const pairs: Array<[Address, Address, number]> = [
    [ga, weth, FEE],
    [weth, gb, FEE],
    [gb, gc, FEE],
    [ga, weth, 500]
  ]
  const deadline = (await sender.publicClient.getBlock()).timestamp + 86_400n
  for (const [x, y, fee] of pairs) {
    const [token0, token1] = x.toLowerCase() < y.toLowerCase() ? [x, y] : [y, x]
    await write(me, contracts.positionManager as Address, positionManagerAbi, "createAndInitializePoolIfNecessary", [
      token0,
      token1,
      fee,
      1n << 96n
    ])
    const ranges: Array<[number, number, bigint]> = [[-887_220, 887_220, parseEther("50")]]
    for (let t = -1200; t < 1200; t += 60) ranges.push([t, t + 60, parseEther("50")])
    for (const [tickLower, tickUpper, amount] of ranges) {
      await write(me, contracts.positionManager as Address, positionManagerAbi, "mint", [
        {
          token0,
          token1,
          fee,
          tickLower,
          tickUpper,
          amount0Desired: amount,
          amount1Desired: amount,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: me.address,
          deadline
        }
      ])
    }
  }

  interface Sample {
    legs: number
    hops: number
    ticks: number
    gasUsed: bigint
    quoterGas: bigint
  }
  const samples: Array<Sample> = []
  const fees = (path: ReadonlyArray<Address>, fee: number) => path.slice(1).map(() => fee)
  const exactInput = (path: ReadonlyArray<Address>, amountIn: bigint, fee: number): Hex =>
    encodeFunctionData({
      abi: swapRouter02Abi,
      functionName: "exactInput",
      args: [{ path: encodePath(path, fees(path, fee)), recipient: me.address, amountIn, amountOutMinimum: 0n }]
    })
  const quote = async (path: ReadonlyArray<Address>, amountIn: bigint, fee: number) => {
    const { result } = await sender.publicClient.simulateContract({
      address: contracts.quoterV2 as Address,
      abi: quoterV2Abi,
      functionName: "quoteExactInput",
      args: [encodePath(path, fees(path, fee)), amountIn]
    })
    return { ticks: result[2].reduce((s, n) => s + n, 0), gas: result[3] }
  }
  const run = async (legs: ReadonlyArray<[ReadonlyArray<Address>, bigint, number?]>) => {
    let ticks = 0
    let quoterGas = 0n
    for (const [path, amount, fee] of legs) {
      const q = await quote(path, amount, fee ?? FEE)
      ticks += q.ticks
      quoterGas += q.gas
    }
    const data = encodeFunctionData({
      abi: swapRouter02Abi,
      functionName: "multicall",
      args: [deadline, legs.map(([p, a, fee]) => exactInput(p, a, fee ?? FEE))]
    })
    const receipt = await sender.send(me, { to: contracts.swapRouter02 as Address, data })
    const hops = legs.reduce((s, [p]) => s + p.length - 1, 0)
    samples.push({ legs: legs.length, hops, ticks, gasUsed: receipt.gasUsed, quoterGas })
    console.log(
      `legs ${legs.length} hops ${hops} ticks ${String(ticks).padStart(2)}  gasUsed ${receipt.gasUsed}  (QuoterV2 gasEstimate ${quoterGas})`
    )
  }
  const full: ReadonlyArray<Address> = [ga, weth, gb, gc]
  for (const amount of [1n, 10n, 60n, 150n, 300n].map((n) => parseEther(String(n)))) {
    for (const hops of [1, 2, 3]) {
      const forward = full.slice(0, hops + 1)
      await run([[forward, amount]])
      await run([[[...forward].reverse(), amount]]) // and back, so prices stay near the middle
    }
  }
  for (const amount of [1n, 10n, 60n, 150n].map((n) => parseEther(String(n)))) {
    await run([
      [[ga, weth], amount],
      [[ga, weth], amount, 500]
    ])
    await run([
      [[weth, ga], amount],
      [[weth, ga], amount, 500]
    ])
    await run([
      [[ga, weth, gb], amount],
      [[ga, weth], amount, 500]
    ])
    await run([
      [[gb, weth, ga], amount],
      [[weth, ga], amount, 500]
    ])
  }

  // Least squares over [1, legs, hops, ticks] (normal equations, 4×4, Gaussian elimination).
  const rows = samples.map((s) => [1, s.legs, s.hops, s.ticks])
  const y = samples.map((s) => Number(s.gasUsed))
  const n = 4
  const a = Array.from({ length: n }, (_, i) => [
    ...Array.from({ length: n }, (_, j) => rows.reduce((s, r) => s + r[i]! * r[j]!, 0)),
    rows.reduce((s, r, k) => s + r[i]! * y[k]!, 0)
  ])
  for (let i = 0; i < n; i++) {
    const pivot = a[i]![i]!
    for (let j = i; j <= n; j++) a[i]![j]! /= pivot
    for (let k = 0; k < n; k++)
      if (k !== i) {
        const f = a[k]![i]!
        for (let j = i; j <= n; j++) a[k]![j]! -= f * a[i]![j]!
      }
  }
  const [base, perRoute, perHop, perTick] = a.map((r) => Math.round(r[n]!))
  const worst = Math.max(
    ...samples.map((s, k) => Math.abs(base! + perRoute! * s.legs + perHop! * s.hops + perTick! * s.ticks - y[k]!))
  )
  console.log(
    `fit over ${samples.length} swaps: base ${base} perRoute ${perRoute} perHop ${perHop} perTick ${perTick} (largest residual ${worst})`
  )
} finally {
  await devnet.anvil.stop()
  NodeFs.rmSync(dir, { recursive: true, force: true })
}
