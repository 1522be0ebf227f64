/**
 * Generated token/WETH pools by the thousand, made by contracts/PoolFarm.sol: each transaction deploys a batch of
 * DevnetTokens, creates their 0.3 % pools through the real Uniswap v3 factory, initializes them and mints four
 * positions on each (eight initialized ticks). The batch is as large as the block gas limit allows (start anvil with
 * `--gas-limit` high for big batches; at anvil's default 30M it is a few pools per transaction). One transaction per
 * token, pool and position, as the rest of the devnet does it, took 485 s for 1,000 pools (docs/BENCHMARKS.md).
 */
import { type Address, createWalletClient, encodeFunctionData, getAddress, http, type LocalAccount } from "viem"
import { parseEventLogs } from "viem"
import { PoolFarmAbi, PoolFarmBytecode } from "../../contracts/generated/index.ts"
import { sqrtPriceX96 } from "./seed.ts"
import { receiptOf, type Sender } from "./tx.ts"

/** Liquidity of each pool's full-range position: ~3,000 tokens and ~3 WETH at the cheapest price (0.001 WETH). */
const LIQUIDITY = 100n * 10n ** 18n
const Q96 = 2n ** 96n
/** The most pools in one transaction, whatever the block gas limit (a larger batch only delays the first receipt). */
const MAX_BATCH = 250

/** A farmed pool, in factory token order (the shape of mainnet-shaped.ts's MarketPool). */
export interface FarmedPool {
  readonly label: string
  readonly address: Address
  readonly token0: Address
  readonly token1: Address
  readonly fee: number
  readonly tickSpacing: number
}

/** Pool `i`'s price: 0.001 to 0.097 WETH per token, as sqrt(WETH per token) in Q64.96. */
const priceOf = (i: number) => sqrtPriceX96(BigInt(1 + (i % 97)) * 10n, 10_000n)

/**
 * Makes `count` token/WETH pools numbered from 0 ("GEN<i>/WETH 0.3 %"); the positions belong to `lp`, which pays the
 * WETH side in ether (sent with each batch, what is left over stays in the farm).
 */
export const farmPools = async (
  sender: Sender,
  lp: LocalAccount,
  uni: { readonly factory: Address; readonly weth9: Address },
  count: number,
  log: (line: string) => void = () => {}
): Promise<ReadonlyArray<FarmedPool>> => {
  if (count <= 0) return []
  const farm = await sender.deploy(lp, { abi: PoolFarmAbi, bytecode: PoolFarmBytecode }, [uni.factory, uni.weth9])
  const wallet = createWalletClient({ chain: sender.chain, transport: http(sender.rpcUrl, { retryCount: 0 }) })
  const { gasLimit } = await sender.publicClient.getBlock({ blockTag: "latest" })
  const pools: Array<FarmedPool> = []

  /** One batch; without `gas` its gas is estimated (the first batch, which measures a pool's gas). */
  const batch = async (first: number, size: number, gas?: bigint) => {
    const prices = Array.from({ length: size }, (_, k) => priceOf(first + k))
    // The WETH side of the four positions is below L × sqrt(price) × (1 + 3/7); 1.5× that is sent.
    const value = prices.reduce((sum, p) => sum + (LIQUIDITY * p * 3n) / (Q96 * 2n), 0n)
    const data = encodeFunctionData({
      abi: PoolFarmAbi,
      functionName: "farm",
      args: [BigInt(first), prices, LIQUIDITY]
    })
    const limit = gas ?? ((await sender.publicClient.estimateGas({ account: lp, to: farm, data, value })) * 13n) / 10n
    const hash = await wallet.sendTransaction({ account: lp, chain: sender.chain, to: farm, data, value, gas: limit })
    const receipt = await receiptOf(sender.publicClient, hash, 600_000)
    if (receipt.status !== "success") throw new Error(`PoolFarm batch of ${size} from ${first} reverted (${hash})`)
    for (const { args } of parseEventLogs({ abi: PoolFarmAbi, logs: receipt.logs, eventName: "Farmed" })) {
      const token = getAddress(args.token)
      const [token0, token1] = token.toLowerCase() < uni.weth9.toLowerCase() ? [token, uni.weth9] : [uni.weth9, token]
      pools.push({
        label: `GEN${args.index}/WETH 0.3 %`,
        address: getAddress(args.pool),
        token0,
        token1,
        fee: 3000,
        tickSpacing: 60
      })
    }
    return receipt.gasUsed
  }

  const started = performance.now()
  const perPool = await batch(0, 1)
  // 1.3× the measured gas per pool leaves room for pools whose positions cost more (new bitmap words, fresh slots).
  const size = Math.max(1, Math.min(MAX_BATCH, Number((gasLimit * 10n) / (perPool * 13n))))
  for (let first = 1; first < count; first += size) {
    const n = Math.min(size, count - first)
    await batch(first, n, (perPool * BigInt(n) * 13n) / 10n)
    if (pools.length % 1000 < n) log(`  ${pools.length} pools farmed (${size} per transaction)`)
  }
  log(
    `  ${count} pools by PoolFarm in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
      `(${perPool} gas per pool, ${size} per transaction, block gas limit ${gasLimit})`
  )
  return pools
}
