import { idOf } from "../Ids.ts"
import type { PoolDetail, PoolSummary } from "./PoolModels.ts"
import type { PoolEventRow } from "./PoolEventsRepo.ts"
import type { PoolRow } from "./PoolsRepo.ts"

/** Row → response records of the pool routes (plain JSON values: they are also what the cache serializes). */
export const poolSummary = (r: PoolRow, chainId: number): PoolSummary => ({
  poolId: idOf(r.address, chainId),
  address: r.address,
  chainId,
  token0: {
    tokenId: idOf(r.token0, chainId),
    address: r.token0,
    name: r.name0,
    symbol: r.symbol0,
    decimals: r.decimals0,
    priceUsd: r.priceUsd0
  },
  token1: {
    tokenId: idOf(r.token1, chainId),
    address: r.token1,
    name: r.name1,
    symbol: r.symbol1,
    decimals: r.decimals1,
    priceUsd: r.priceUsd1
  },
  feeTier: r.fee,
  tickSpacing: r.tickSpacing,
  price: r.price,
  liquidity: r.liquidity ?? "0",
  reserve0: r.reserve0 ?? "0",
  reserve1: r.reserve1 ?? "0",
  tvlUsd: r.tvlUsd,
  volume24hUsd: r.volume24hUsd,
  fees24hUsd: (r.volume24hUsd * r.fee) / 1e6,
  swaps24h: r.swaps24h,
  createdAt: r.createdAt.toISOString(),
  createdBlock: r.createdBlock,
  launchpad: {
    launchedHere: r.launchedToken !== null,
    token: r.launchedToken,
    graduationConditionRecorded: r.graduationConditionRecorded,
    graduated: r.graduated
  }
})

export const poolDetail = (r: PoolRow, chainId: number): PoolDetail => ({
  ...poolSummary(r, chainId),
  slot0: r.sqrtPriceX96 === null || r.tick === null ? null : { sqrtPriceX96: r.sqrtPriceX96, tick: r.tick },
  totals: {
    volume0: r.volume0 ?? "0",
    volume1: r.volume1 ?? "0",
    fees0: r.fees0 ?? "0",
    fees1: r.fees1 ?? "0",
    volumeUsd: r.volumeUsdTotal ?? 0,
    swapCount: r.swapCount ?? "0",
    mintCount: r.mintCount ?? "0",
    burnCount: r.burnCount ?? "0"
  },
  createdTx: r.createdTx,
  lastBlock: r.lastBlock
})

export const poolEvent = (e: PoolEventRow) => ({
  type: e.kind,
  blockNumber: e.blockNumber,
  logIndex: e.logIndex,
  txHash: e.txHash,
  timestamp: e.timestamp.toISOString(),
  sender: e.sender,
  recipient: e.recipient,
  owner: e.owner,
  amount0: e.amount0,
  amount1: e.amount1,
  amountUsd: e.amountUsd,
  liquidity: e.liquidity,
  tickLower: e.tickLower,
  tickUpper: e.tickUpper,
  sqrtPriceX96: e.sqrtPriceX96,
  tick: e.tick,
  price: e.price
})

export const eventPage = (rows: ReadonlyArray<PoolEventRow>, limit: number) => ({
  items: rows.map(poolEvent),
  page: { limit, nextCursor: rows.length === limit ? `${rows.at(-1)!.blockNumber}:${rows.at(-1)!.logIndex}` : null }
})
