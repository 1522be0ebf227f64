import { Effect, Schedule } from "effect"
import { type Address, type Hex, parseAbi } from "viem"
import { AnvilChain } from "../support/AnvilChain.ts"
import { baseUrl, fetchJson } from "../support/TestServer.ts"

export const poolAbi = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
  "function liquidity() view returns (uint128)",
  "function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)"
])
export const erc20Abi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
  "function approve(address, uint256) returns (bool)"
])
export const npmAbi = parseAbi([
  "function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)",
  "struct DecreaseLiquidityParams { uint256 tokenId; uint128 liquidity; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }",
  "function decreaseLiquidity(DecreaseLiquidityParams params) payable returns (uint256 amount0, uint256 amount1)"
])
export const routerAbi = parseAbi([
  "struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }",
  "function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)"
])

export const exchange = (path: string, init?: RequestInit) =>
  Effect.flatMap(baseUrl("exchange"), (base) => fetchJson(`${base}${path}`, init))

/** Waits (bounded) until the indexer has committed the chain head; returns the indexed block. */
export const indexedHead = Effect.gen(function* () {
  const chain = yield* AnvilChain
  const head = yield* Effect.promise(() => chain.blockNumber())
  const status = yield* exchange("/api/v1/indexer/status").pipe(
    Effect.repeat({
      until: (r) => r.body.lastIndexedBlock !== null && BigInt(r.body.lastIndexedBlock) >= head,
      schedule: Schedule.spaced("50 millis")
    }),
    Effect.timeout("60 seconds")
  )
  return BigInt(status.body.lastIndexedBlock as string)
})

export const read = <T>(
  address: string,
  abi: any,
  functionName: string,
  args: ReadonlyArray<unknown>,
  blockNumber: bigint
) =>
  Effect.gen(function* () {
    const chain = yield* AnvilChain
    return yield* Effect.promise(
      () =>
        chain.publicClient.readContract({
          address: address as Address,
          abi,
          functionName,
          args,
          blockNumber
        } as any) as Promise<T>
    )
  })

export type { Hex }

/** The machine's Redis (REDIS_URL, else the local default). */
export const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"
