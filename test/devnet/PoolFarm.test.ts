import { describe, expect, it } from "vitest"
import { type Address, parseAbi } from "viem"
import { farmPools } from "../../scripts/devnet/pool-farm.ts"
import { sqrtPriceX96 } from "../../scripts/devnet/seed.ts"
import { deployUniswap } from "../../scripts/devnet/uniswap.ts"
import { startAnvilChain } from "../support/AnvilChain.ts"

/**
 * scripts/devnet/pool-farm.ts on anvil's default 30M block gas limit (a few pools per transaction): every pool is a real
 * pool of the factory, between a new 18-decimal token and WETH at its price, with the full-range position and the one
 * around the price in range, all owned by the caller.
 */

const poolAbi = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)",
  "function liquidity() view returns (uint128)"
])
const factoryAbi = parseAbi(["function getPool(address, address, uint24) view returns (address)"])
const tokenAbi = parseAbi(["function symbol() view returns (string)", "function decimals() view returns (uint8)"])
const LIQUIDITY = 100n * 10n ** 18n

describe("PoolFarm", () => {
  it("makes real token/WETH pools with liquidity, in batches that fit the block", async () => {
    const chain = await startAnvilChain({ state: "empty" })
    try {
      const lp = chain.accounts[0]!
      const uni = await deployUniswap(chain.sender, lp, () => {})
      const pools = await farmPools(chain.sender, lp, uni, 7)
      expect(pools.map((p) => p.label)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `GEN${i}/WETH 0.3 %`))
      const read = (
        address: Address,
        abi: typeof poolAbi | typeof factoryAbi | typeof tokenAbi,
        name: string,
        args = [] as ReadonlyArray<unknown>
      ) => chain.publicClient.readContract({ address, abi, functionName: name, args } as never) as Promise<unknown>
      for (const [i, p] of pools.entries()) {
        expect(await read(uni.factory, factoryAbi, "getPool", [p.token0, p.token1, 3000])).toBe(p.address)
        const token = p.token0 === uni.weth9 ? p.token1 : p.token0
        expect(await read(token, tokenAbi, "symbol")).toBe(`GEN${i}`)
        expect(await read(token, tokenAbi, "decimals")).toBe(18)
        // (1 + i) / 1,000 WETH per token, as token1 per token0 in the pool.
        const wethPerToken = sqrtPriceX96(BigInt(1 + i) * 10n, 10_000n)
        const [sqrt] = (await read(p.address, poolAbi, "slot0")) as readonly [bigint, number]
        expect(sqrt).toBe(token === p.token0 ? wethPerToken : 2n ** 192n / wethPerToken)
        // In range: the full-range position and the one of ±10 spacings around the price (a seventh of it).
        expect(await read(p.address, poolAbi, "liquidity")).toBe(LIQUIDITY + LIQUIDITY / 7n)
      }
      // One pool to measure the gas, then batches of what 30M gas holds (~6M gas per pool with 30 % margin: 3).
      const created = await chain.publicClient.getLogs({
        address: uni.factory,
        event: parseAbi([
          "event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)"
        ])[0],
        fromBlock: 0n
      })
      const perBlock = new Map<bigint, number>()
      for (const log of created) perBlock.set(log.blockNumber, (perBlock.get(log.blockNumber) ?? 0) + 1)
      expect([...perBlock.values()]).toEqual([1, 3, 3])
    } finally {
      await chain.stop()
    }
  }, 300_000)
})
