/**
 * The devnet pool set of `npm run bench:quotes`: a fresh anvil with Uniswap v3 and the launchpad (test/indexer's
 * devnet: stablecoin/WETH, launches A and B, a non-canonical launch), plus `launches` more launches, each bought into
 * with 0.05–2 WETH so that their prices and ticks differ. The pool state is then read from the chain itself (factory
 * PoolCreated logs; per pool slot0, liquidity, and every tick named by a Mint with its liquidityNet), which is what
 * the indexer's snapshot holds, without needing the indexer here.
 */
import { parseAbi, parseAbiItem, parseEther, type Address } from "viem"
import { abis } from "../../test/contracts/chain.ts"
import { type Devnet, ignite, seed, startDevnet, swap } from "../../test/indexer/devnet.ts"
import type { PoolSnapshot, PoolState, TickState, TokenInfo } from "../../workers/routing/types.ts"
import { prng } from "../../workers/routing/testing/generatePools.ts"

const poolCreated = parseAbiItem(
  "event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)"
)
const mint = parseAbiItem(
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)"
)
const ticksAbi = parseAbi([
  "function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool initialized)"
])

export interface DevnetPools {
  readonly devnet: Devnet
  readonly snapshot: PoolSnapshot
  /** Launch tokens (bought into), for requests. */
  readonly launchTokens: ReadonlyArray<Address>
}

export const buildDevnetPools = async (launches: number, seedValue = 7): Promise<DevnetPools> => {
  const devnet = await startDevnet()
  const s = await seed(devnet)
  const random = prng(seedValue)
  const launchTokens: Array<Address> = [s.a.token, s.b.token]
  for (let i = 0; i < launches; i++) {
    const l = await ignite(devnet, i % 2 === 0 ? devnet.accounts.creatorA : devnet.accounts.creatorB, `Quote${i}`)
    await swap(
      devnet,
      devnet.accounts.buyer,
      devnet.uni.weth,
      l.token,
      l.fee,
      parseEther((0.05 + random() * 1.95).toFixed(4))
    )
    launchTokens.push(l.token)
  }
  return { devnet, snapshot: await readSnapshot(devnet), launchTokens }
}

const lower = (a: string) => a.toLowerCase() as Address

/** Every pool of the devnet's factory at the current block, as the routing core's `PoolSnapshot`. */
export const readSnapshot = async (d: Devnet): Promise<PoolSnapshot> => {
  const client = d.chain.public
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 }) // viem caches it for 4 s otherwise
  const created = await client.getLogs({
    address: d.uni.factory,
    event: poolCreated,
    fromBlock: d.startBlock,
    toBlock: blockNumber
  })
  const pools: Array<PoolState> = []
  const tokenAddresses = new Set<Address>()
  for (const log of created) {
    const { token0, token1, fee, tickSpacing, pool } = log.args as {
      token0: Address
      token1: Address
      fee: number
      tickSpacing: number
      pool: Address
    }
    const [slot0, liquidity, mints] = await Promise.all([
      client.readContract({ address: pool, abi: abis.pool, functionName: "slot0", blockNumber }),
      client.readContract({ address: pool, abi: abis.pool, functionName: "liquidity", blockNumber }),
      client.getLogs({ address: pool, event: mint, fromBlock: d.startBlock, toBlock: blockNumber })
    ])
    const named = new Set<number>()
    for (const m of mints) {
      named.add(Number(m.args.tickLower))
      named.add(Number(m.args.tickUpper))
    }
    const ticks: Array<TickState> = []
    for (const index of [...named].sort((a, b) => a - b)) {
      const t = await client.readContract({
        address: pool,
        abi: ticksAbi,
        functionName: "ticks",
        args: [index],
        blockNumber
      })
      // A tick whose positions were all burnt is no longer initialized.
      if (t[0] > 0n) ticks.push({ index, liquidityNet: t[1] })
    }
    tokenAddresses.add(lower(token0)).add(lower(token1))
    pools.push({
      address: lower(pool),
      token0: lower(token0),
      token1: lower(token1),
      fee,
      tickSpacing,
      sqrtPriceX96: slot0[0],
      tick: slot0[1],
      liquidity,
      ticks
    })
  }
  const tokens: Array<TokenInfo> = []
  for (const address of tokenAddresses) {
    const [decimals, symbol] = await Promise.all([
      client.readContract({ address, abi: abis.erc20, functionName: "decimals" }),
      client.readContract({ address, abi: abis.erc20, functionName: "symbol" })
    ])
    tokens.push({ address, decimals, symbol })
  }
  return { chainId: 31337, blockNumber, pools, tokens }
}
