import { type Address, encodeFunctionData, type Hex, parseEther } from "viem"
import { FuelVaultAbi } from "../../../contracts/generated/index.ts"
import { rpcRequest } from "../../../layers/Anvil.ts"
import { abis, write } from "../../contracts/chain.ts"
import { type Devnet, erc20, ignite, type Seeded, swap } from "../devnet.ts"
import type { Random } from "./Random.ts"

/**
 * Continuous activity on the seeded devnet for the chaos test (test/indexer/ChaosEquality.test.ts), one transaction
 * per block, chosen by a seeded random sequence: swaps both ways on the launch pools and the stablecoin pool, new
 * launches (each with its pool and liquidity), fuel given to launches (the launchpad's tips), token transfers, and now
 * and then a reorg of depth 1 to FINALITY_DEPTH, made in one of the two ways anvil allows: `anvil_reorg` (the last
 * blocks replaced by others holding other transactions, the head's height unchanged) or `evm_snapshot` before the
 * blocks and `evm_revert` after them, then one block more with other transactions (as test/indexer/Reorg.test.ts).
 * Likes and comments are not on chain (the client API's tables), so there are none here.
 */
export interface ActivityCounts {
  swaps: number
  launches: number
  fuel: number
  transfers: number
  /** Blocks of several swaps each (automine off, then one evm_mine). */
  crowdedBlocks: number
  /** Runs of empty blocks mined at once (anvil_mine): the indexer then reads final blocks by ranges. */
  jumps: number
  /** Reorgs made, by how (a rollback of the indexer needs one of these). */
  anvilReorgs: number
  revertReorgs: number
  /** How many reorgs of each depth. */
  depths: Record<number, number>
}

export const emptyCounts = (): ActivityCounts => ({
  swaps: 0,
  launches: 0,
  fuel: 0,
  transfers: 0,
  crowdedBlocks: 0,
  jumps: 0,
  anvilReorgs: 0,
  revertReorgs: 0,
  depths: {}
})

export const reorgsMade = (c: ActivityCounts) => c.anvilReorgs + c.revertReorgs

interface Launch {
  readonly token: Address
  readonly fee: number
}

const rpc = <A>(d: Devnet, method: string, params: ReadonlyArray<unknown>) =>
  rpcRequest<A>(d.anvil.rpcUrl, method, params)

/** The block gas limit while crowded blocks are mined: a swap on the stablecoin pool uses about 110–130k. */
const CROWD_GAS_LIMIT = 1_200_000n

const hex = (n: bigint) => `0x${n.toString(16)}` as Hex

/** Runs until `stop()` says so, `pauseMs` between two transactions; returns what it did. */
export const runActivity = async (
  d: Devnet,
  s: Seeded,
  random: Random,
  options: {
    readonly finalityDepth: number
    readonly pauseMs: number
    readonly stop: () => boolean
    /** True when the next transaction should be crowded blocks and a jump (a phase of range or result caps began). */
    readonly crowdWanted: () => boolean
  }
): Promise<ActivityCounts> => {
  const counts = emptyCounts()
  const { buyer, other, giver, creatorA, creatorB } = d.accounts
  // Enough WETH for minutes of buys (the seed left the buyer a few).
  await write(d.chain, buyer, d.uni.weth, abis.weth, "deposit", [], parseEther("200"))
  let launches: Array<Launch> = [s.a, s.b]
  /** Launches not graduated: FuelVault takes fuel for those only (s.a graduated in the seed). */
  const fuelable = () => launches.filter((l) => l.token !== s.a.token)
  let names = 0

  /** One transaction (one block), or with `manyBlocks` a few crowded blocks and a jump: as the draw says. */
  const act = async (manyBlocks: boolean) => {
    const amount = parseEther("0.001") * BigInt(1 + random.int(9))
    const r = random.next()
    if (manyBlocks && options.crowdWanted()) {
      await crowdedThenJump()
    } else if (r < 0.35) {
      const l = random.pick(launches)
      counts.swaps++
      await swap(d, buyer, d.uni.weth, l.token, l.fee, amount)
    } else if (r < 0.45) {
      counts.swaps++
      await swap(d, buyer, s.a.token, d.uni.weth, s.a.fee, amount * 1000n)
    } else if (r < 0.6) {
      counts.swaps++
      if (random.next() < 0.5) await swap(d, buyer, d.stable, d.uni.weth, 3000, amount * 3000n)
      else await swap(d, buyer, d.uni.weth, d.stable, 3000, amount)
    } else if (r < 0.72) {
      counts.launches++
      const launched = await ignite(d, random.next() < 0.5 ? creatorA : creatorB, `Chaos${names++}`)
      launches.push({ token: launched.token, fee: launched.fee })
    } else if (r < 0.74 && manyBlocks) {
      await crowdedThenJump()
    } else if (r < 0.9) {
      // (without `manyBlocks`, fuel takes the crowded blocks' share)
      counts.fuel++
      await write(d.chain, giver, d.pad.fuelVault, FuelVaultAbi, "give", [random.pick(fuelable()).token], amount)
    } else {
      counts.transfers++
      await write(d.chain, buyer, s.a.token, erc20, "transfer", [random.pick([other, giver]), amount * 100n])
    }
  }

  /**
   * Crowded blocks and more than FINALITY_DEPTH empty blocks after them, all mined at once (anvil_mine with the swaps
   * pending): the indexer, suddenly behind, reads the crowded blocks in one eth_getLogs range (what a provider's range
   * and result caps refuse), not each by its hash at the head. 8–12 swaps on the stablecoin pool (one Swap log each in
   * the indexer's filter of pools), 3 to 5 to a block: each swap may use 60 % of the block's gas (CROWD_GAS_LIMIT), and the block builder leaves a
   * transaction for the next block once more than 40 % is used. So each block holds fewer logs than the result cap
   * (chaos/FaultSchedule.ts), two of them mostly more.
   */
  const crowdedThenJump = async () => {
    const swaps = 8 + random.int(5)
    const gasLimit = (await d.chain.public.getBlock()).gasLimit
    await rpc(d, "evm_setAutomine", [false])
    await rpc(d, "anvil_setBlockGasLimit", [hex(CROWD_GAS_LIMIT)])
    try {
      for (let i = 0; i < swaps; i++) {
        const toStable = random.next() < 0.5
        const data = encodeFunctionData({
          abi: abis.swapRouter02,
          functionName: "exactInputSingle",
          args: [
            {
              tokenIn: toStable ? d.uni.weth : d.stable,
              tokenOut: toStable ? d.stable : d.uni.weth,
              fee: 3000,
              recipient: buyer,
              amountIn: parseEther("0.001") * BigInt(1 + random.int(9)) * (toStable ? 1n : 3000n),
              amountOutMinimum: 0n,
              sqrtPriceLimitX96: 0n
            }
          ]
        })
        await rpc(d, "eth_sendTransaction", [
          { from: buyer, to: d.uni.swapRouter02, data, gas: hex((CROWD_GAS_LIMIT * 6n) / 10n) }
        ])
      }
      const before = await d.chain.public.getBlockNumber({ cacheTime: 0 })
      await rpc(d, "anvil_mine", [hex(BigInt(Math.ceil(swaps / 3) + options.finalityDepth + 1 + random.int(3)))])
      const after = await d.chain.public.getBlockNumber({ cacheTime: 0 })
      for (let n = before + 1n; n <= after; n++) {
        if ((await d.chain.public.getBlock({ blockNumber: n })).transactions.length > 0) counts.crowdedBlocks++
      }
      counts.swaps += swaps
    } finally {
      await rpc(d, "anvil_setBlockGasLimit", [hex(gasLimit)])
      await rpc(d, "evm_setAutomine", [true])
    }
    // Blocks with the usual gas limit again, more than a reorg replaces: calls at "latest" (a launch's simulation)
    // are capped by its gas limit, and anvil_reorg builds its blocks with the fork block's.
    await rpc(d, "anvil_mine", [hex(BigInt(options.finalityDepth + 1))])
    counts.jumps++
  }

  /** Launches whose blocks a reorg dropped are gone: keep those still on chain. */
  const forgetDropped = async () => {
    const alive = await Promise.all(
      launches.map(async (l) => ((await d.chain.public.getCode({ address: l.token })) ?? "0x") !== "0x")
    )
    launches = launches.filter((_, i) => alive[i])
  }

  const reorg = async () => {
    const depth = 1 + random.int(options.finalityDepth)
    counts.depths[depth] = (counts.depths[depth] ?? 0) + 1
    const head = await d.chain.public.getBlockNumber({ cacheTime: 0 })
    const how = random.next() < 0.5 ? "anvil_reorg" : "evm_revert"
    console.log(`chaos: ${how} of depth ${depth} at head ${head}`)
    if (how === "anvil_reorg") {
      // The last `depth` blocks replaced: fuel of other amounts instead of their transactions.
      const txs = Array.from({ length: depth }, (_, i) => [
        {
          from: giver,
          to: d.pad.fuelVault,
          data: encodeFunctionData({ abi: FuelVaultAbi, functionName: "give", args: [s.b.token] }),
          value: hex(parseEther("0.0001") * BigInt(1 + random.int(50)))
        },
        i
      ])
      await rpc(d, "anvil_reorg", [depth, txs])
      counts.anvilReorgs++
    } else {
      const snapshot = await rpc<Hex>(d, "evm_snapshot", [])
      // One block per transaction: the reorg's depth is exactly `depth`.
      for (let i = 0; i < depth && !options.stop(); i++) await pace(() => act(false))
      if (!(await rpc<boolean>(d, "evm_revert", [snapshot]))) throw new Error(`evm_revert ${snapshot} refused`)
      counts.revertReorgs++
      await forgetDropped()
      for (let i = 0; i <= depth; i++) await pace(() => act(false))
    }
    await forgetDropped()
  }

  const pace = async (f: () => Promise<unknown>) => {
    await f()
    await new Promise((resolve) => setTimeout(resolve, options.pauseMs))
  }

  let nextReorg = 6 + random.int(12)
  while (!options.stop()) {
    if (nextReorg-- <= 0) {
      await reorg()
      nextReorg = 6 + random.int(12)
    } else await pace(() => act(true))
  }
  return counts
}
