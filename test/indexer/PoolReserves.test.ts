import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type Address, maxUint256, parseAbi, parseEther } from "viem"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { abis, write } from "../contracts/chain.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { type Devnet, seed, startDevnet } from "./devnet.ts"
import { indexerLayer } from "./harness.ts"

const positionManager = parseAbi([
  "struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }",
  "function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
  "struct DecreaseLiquidityParams { uint256 tokenId; uint128 liquidity; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }",
  "function decreaseLiquidity(DecreaseLiquidityParams params) payable returns (uint256 amount0, uint256 amount1)",
  "struct CollectParams { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }",
  "function collect(CollectParams params) payable returns (uint256 amount0, uint256 amount1)",
  "function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)",
  "function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)"
])

interface PoolRow {
  readonly pool: string
  readonly token0: string
  readonly token1: string
  readonly tickSpacing: number
  readonly fee: number
  readonly reserve0: string
  readonly reserve1: string
  readonly tvlUsd: number | null
  readonly usd0: number | null
  readonly usd1: number | null
  readonly decimals0: number
  readonly decimals1: number
}

/**
 * Waits until the indexer's checkpoint is the chain's head, then checks every pool against the chain at that block:
 * reserves = balanceOf(token, pool) by eth_call; for `valued` pools, TVL = those reserves at the tokens' indexed USD
 * prices. (A pool's TVL is valued at the prices of its own latest event: a pool that has not moved since WETH/USD did
 * keeps its earlier valuation, so only pools whose latest event follows the last price move are compared.)
 */
const indexedPoolsEqualChain = (d: Devnet, valued: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const head = yield* Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))
    yield* (yield* IndexerStatus).awaitBlock(head, "30 seconds")
    const sql = yield* SqlClient.SqlClient
    const [checkpoint] = yield* sql<{ n: string }>`SELECT block_number::text AS n FROM indexer_checkpoints`
    assert.strictEqual(BigInt(checkpoint!.n), head)
    const pools = yield* sql<PoolRow>`
    SELECT s.pool, p.token0, p.token1, p.tick_spacing, p.fee, s.reserve0::text AS reserve0, s.reserve1::text AS reserve1,
           s.tvl_usd, t0.price_usd AS usd0, t1.price_usd AS usd1, t0.decimals AS decimals0, t1.decimals AS decimals1
    FROM pool_states s JOIN pools p ON p.chain_id = s.chain_id AND p.address = s.pool
      JOIN tokens t0 ON t0.chain_id = p.chain_id AND t0.address = p.token0
      JOIN tokens t1 ON t1.chain_id = p.chain_id AND t1.address = p.token1
    ORDER BY s.pool`
    assert.strictEqual(pools.length, 3)
    for (const p of pools) {
      const [balance0, balance1] = yield* Effect.promise(() =>
        Promise.all(
          [p.token0, p.token1].map((token) =>
            d.chain.public.readContract({
              address: token as Address,
              abi: abis.erc20,
              functionName: "balanceOf",
              args: [p.pool as Address],
              blockNumber: head
            })
          )
        )
      )
      assert.strictEqual(p.reserve0, balance0!.toString(), `${p.pool} reserve0`)
      assert.strictEqual(p.reserve1, balance1!.toString(), `${p.pool} reserve1`)
      if (!valued.includes(p.pool)) continue
      assert.isNotNull(p.usd0)
      assert.isNotNull(p.usd1)
      const expected =
        (Number(balance0) / 10 ** p.decimals0) * p.usd0! + (Number(balance1) / 10 ** p.decimals1) * p.usd1!
      assert.isNotNull(p.tvlUsd, p.pool)
      assert.closeTo(p.tvlUsd!, expected, expected * 1e-9, `${p.pool} tvl_usd`)
    }
    return new Map(pools.map((p) => [p.pool, p]))
  })

layer(TestDatabase, { timeout: "120 seconds", excludeTestServices: true })(
  "pool reserves and TVL follow liquidity",
  (it) => {
    it.effect(
      "after swaps, a mint, a burn and a collect, reserves equal balanceOf(pool) and TVL follows them",
      () =>
        Effect.gen(function* () {
          const d = yield* Effect.promise(() => startDevnet())
          yield* Effect.addFinalizer(() => Effect.promise(() => d.anvil.stop()))
          // The seeded history ends with a decrease and a collect on the stablecoin/WETH pool, after its last swap.
          const seeded = yield* Effect.promise(() => seed(d))
          yield* Effect.gen(function* () {
            const stablePool = yield* Effect.promise(() =>
              d.chain.public.readContract({
                address: d.uni.factory,
                abi: abis.factory,
                functionName: "getPool",
                args: [d.stable, d.uni.weth, 3000]
              })
            )
            const a = seeded.a.pool.toLowerCase()
            // Both had their latest events after the last WETH/USD move: A its last swap, the stable pool a decrease and a collect.
            const seededPools = yield* indexedPoolsEqualChain(d, [stablePool.toLowerCase(), a])
            const poolA = seededPools.get(a)!
            const { buyer } = d.accounts

            // A full-range position of the buyer in launch A's pool (WETH + the buyer's A tokens).
            yield* Effect.promise(() =>
              write(d.chain, buyer, seeded.a.token, abis.erc20, "approve", [d.uni.positionManager, maxUint256])
            )
            const edge = Math.floor(887_272 / poolA.tickSpacing) * poolA.tickSpacing
            const wethIs0 = poolA.token0 === d.uni.weth.toLowerCase()
            const aBalance = yield* Effect.promise(() =>
              d.chain.public.readContract({
                address: seeded.a.token,
                abi: abis.erc20,
                functionName: "balanceOf",
                args: [buyer]
              })
            )
            yield* Effect.promise(() =>
              write(d.chain, buyer, d.uni.positionManager, positionManager, "mint", [
                {
                  token0: poolA.token0 as Address,
                  token1: poolA.token1 as Address,
                  fee: poolA.fee,
                  tickLower: -edge,
                  tickUpper: edge,
                  amount0Desired: wethIs0 ? parseEther("0.2") : aBalance / 2n,
                  amount1Desired: wethIs0 ? aBalance / 2n : parseEther("0.2"),
                  amount0Min: 0n,
                  amount1Min: 0n,
                  recipient: buyer,
                  deadline: maxUint256
                }
              ])
            )
            const afterMint = (yield* indexedPoolsEqualChain(d, [a])).get(poolA.pool)!
            assert.isAbove(afterMint.tvlUsd!, poolA.tvlUsd!)

            // Burn half: the amounts stay in the pool (owed to the position), so reserves and TVL do not move.
            const tokenId = yield* Effect.promise(() =>
              d.chain.public.readContract({
                address: d.uni.positionManager,
                abi: positionManager,
                functionName: "tokenOfOwnerByIndex",
                args: [buyer, 0n]
              })
            )
            const position = yield* Effect.promise(() =>
              d.chain.public.readContract({
                address: d.uni.positionManager,
                abi: positionManager,
                functionName: "positions",
                args: [tokenId]
              })
            )
            yield* Effect.promise(() =>
              write(d.chain, buyer, d.uni.positionManager, positionManager, "decreaseLiquidity", [
                {
                  tokenId,
                  liquidity: position[7] / 2n,
                  amount0Min: 0n,
                  amount1Min: 0n,
                  deadline: maxUint256
                }
              ])
            )
            const afterBurn = (yield* indexedPoolsEqualChain(d, [a])).get(poolA.pool)!
            assert.strictEqual(afterBurn.reserve0, afterMint.reserve0)
            assert.strictEqual(afterBurn.tvlUsd, afterMint.tvlUsd)
            const [burn] = yield* (yield* SqlClient.SqlClient)<{ tvlUsd: number | null }>`
          SELECT tvl_usd FROM burns WHERE pool = ${poolA.pool} ORDER BY block_number DESC, log_index DESC LIMIT 1`
            assert.strictEqual(burn!.tvlUsd, afterMint.tvlUsd)

            // Collect: the owed amounts leave the pool; reserves and TVL drop.
            yield* Effect.promise(() =>
              write(d.chain, buyer, d.uni.positionManager, positionManager, "collect", [
                {
                  tokenId,
                  recipient: buyer,
                  amount0Max: 2n ** 127n,
                  amount1Max: 2n ** 127n
                }
              ])
            )
            const afterCollect = (yield* indexedPoolsEqualChain(d, [a])).get(poolA.pool)!
            assert.isBelow(afterCollect.tvlUsd!, afterBurn.tvlUsd!)
          }).pipe(Effect.provide(indexerLayer(d)))
        }).pipe(Effect.scoped),
      180_000
    )
  }
)
