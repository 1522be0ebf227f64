import { Context, Effect, Layer } from "effect"
import { parseAbi, type Address } from "viem"
import { Chain } from "../../platform/Chain.ts"
import { idOf } from "../Ids.ts"
import { amountsForLiquidity } from "./PositionMath.ts"
import { TokensRepo } from "../tokens/TokensRepo.ts"

const collectAbi = parseAbi([
  "struct CollectParams { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }",
  "function collect(CollectParams params) payable returns (uint256 amount0, uint256 amount1)"
])
const MAX_UINT128 = (1n << 128n) - 1n

type By = { readonly owner: string } | { readonly pool: string }

/**
 * Active LP positions with what they are worth: amounts from v3 math at the indexed price, and (wallet route) the
 * fees `collect()` would pay now, simulated by eth_call from the owner at the last indexed block, the way wallets show
 * "unclaimed fees" (the position manager pokes the pool, so accrued fees are included).
 */
export class Positions extends Context.Service<Positions, ReturnType<typeof make>>()("app/exchange/Positions") {
  static readonly layer = Layer.effect(
    Positions,
    Effect.gen(function* () {
      return make(yield* TokensRepo, yield* Chain)
    })
  )
}

const make = (repo: TokensRepo["Service"], chain: Chain["Service"]) => {
  const chainId = chain.chainId
  const positionManager = chain.deployments.contracts.positionManager.toLowerCase()

  const uncollected = (tokenId: string, owner: string, block: bigint | undefined) =>
    Effect.tryPromise(() =>
      chain.publicClient.simulateContract({
        address: positionManager as Address,
        abi: collectAbi,
        functionName: "collect",
        args: [
          { tokenId: BigInt(tokenId), recipient: owner as Address, amount0Max: MAX_UINT128, amount1Max: MAX_UINT128 }
        ],
        account: owner as Address,
        ...(block === undefined ? {} : { blockNumber: block })
      })
    ).pipe(
      Effect.map((r) => ({ fees0: r.result[0].toString(), fees1: r.result[1].toString() })),
      Effect.catchCause((cause) =>
        Effect.as(Effect.logWarning(`positions: collect() simulation of #${tokenId} failed`, cause), null)
      )
    )

  const value = (
    sqrtPriceX96: string | null,
    tick: number | null,
    tickLower: number,
    tickUpper: number,
    liquidity: string
  ) => {
    if (sqrtPriceX96 === null || tick === null) return { amount0: "0", amount1: "0", inRange: false }
    const { amount0, amount1 } = amountsForLiquidity(BigInt(sqrtPriceX96), tickLower, tickUpper, BigInt(liquidity))
    return { amount0: amount0.toString(), amount1: amount1.toString(), inRange: tick >= tickLower && tick < tickUpper }
  }

  /**
   * One page of the active positions, NFTs and direct ones merged in one order (see `TokensRepo.positions`), and the
   * count of both kinds. Fees are simulated for NFTs only (the position manager's collect() does not reach direct ones).
   */
  const list = (
    by: By,
    limit: number,
    offset: number,
    options: { readonly fees: boolean; readonly block?: bigint | undefined }
  ) =>
    Effect.gen(function* () {
      const { rows, total } = yield* repo.positions(chainId, by, positionManager, limit, offset)
      const items = yield* Effect.forEach(
        rows,
        (p) =>
          Effect.map(
            options.fees && p.tokenId !== null ? uncollected(p.tokenId, p.owner, options.block) : Effect.succeed(null),
            (fees) => ({
              positionId: p.tokenId,
              poolId: idOf(p.pool, chainId),
              owner: p.owner,
              token0: p.token0,
              token1: p.token1,
              feeTier: p.fee,
              tickLower: p.tickLower,
              tickUpper: p.tickUpper,
              liquidity: p.liquidity,
              ...value(p.sqrtPriceX96, p.tick, p.tickLower, p.tickUpper, p.liquidity),
              uncollectedFees0: fees?.fees0 ?? null,
              uncollectedFees1: fees?.fees1 ?? null,
              deposited0: p.deposited0,
              deposited1: p.deposited1,
              withdrawn0: p.withdrawn0,
              withdrawn1: p.withdrawn1,
              collected0: p.collected0,
              collected1: p.collected1
            })
          ),
        { concurrency: 8 }
      )
      return { items, total }
    })

  return { list }
}
