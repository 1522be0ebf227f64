import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type Address, parseAbi } from "viem"
import { erc20Abi } from "../../scripts/devnet/abis.ts"
import type { MarketPool } from "../../scripts/devnet/mainnet-shaped.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import type { MainnetShapedChain } from "../support/MainnetShaped.ts"

export const poolAbi = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)",
  "function liquidity() view returns (uint128)",
  "function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool)"
])

interface Indexed {
  readonly sqrt: string
  readonly tick: number
  readonly liquidity: string
  readonly reserve0: string
  readonly reserve1: string
}

/**
 * Waits for the index to reach the chain's head, then compares every pool with the chain at that block: slot0,
 * liquidity, the token balances, and the initialized ticks among `ticksOf` and the indexed ones (Bootstrap.test.ts,
 * BootstrapRpcFaults.test.ts). The chain is read through `m.chain.publicClient`.
 */
export const indexEqualsChain = (
  m: MainnetShapedChain,
  pools: ReadonlyArray<MarketPool>,
  ticksOf: Map<string, Set<number>>
) =>
  Effect.gen(function* () {
    const client = m.chain.publicClient
    const head = yield* Effect.promise(() => client.getBlockNumber({ cacheTime: 0 }))
    yield* (yield* IndexerStatus).awaitBlock(head, "120 seconds")
    const sql = yield* SqlClient.SqlClient
    for (const p of pools) {
      const pool = p.address.toLowerCase()
      const [row] = yield* sql<Indexed>`
        SELECT sqrt_price_x96::text AS sqrt, tick, liquidity::text AS liquidity, reserve0::text AS reserve0,
               reserve1::text AS reserve1
        FROM pool_states WHERE pool = ${pool}`
      assert.isDefined(row, `${p.label}: no pool_states row`)
      const indexedTicks = yield* sql<{ tick: number; gross: string; net: string }>`
        SELECT tick, liquidity_gross::text AS gross, liquidity_net::text AS net FROM ticks WHERE pool = ${pool} ORDER BY tick`
      const candidates = [...new Set([...(ticksOf.get(pool) ?? []), ...indexedTicks.map((t) => t.tick)])]
      const read = <A>(
        address: Address,
        abi: typeof poolAbi | typeof erc20Abi,
        functionName: string,
        args: ReadonlyArray<unknown> = []
      ) => client.readContract({ address, abi, functionName, args, blockNumber: head } as never) as Promise<A>
      const [slot0, liquidity, balance0, balance1, chainTicks] = yield* Effect.promise(() =>
        Promise.all([
          read<readonly [bigint, number]>(p.address, poolAbi, "slot0"),
          read<bigint>(p.address, poolAbi, "liquidity"),
          read<bigint>(p.token0, erc20Abi, "balanceOf", [p.address]),
          read<bigint>(p.token1, erc20Abi, "balanceOf", [p.address]),
          Promise.all(candidates.map((t) => read<readonly [bigint, bigint]>(p.address, poolAbi, "ticks", [t])))
        ])
      )
      assert.deepStrictEqual(
        {
          sqrt: row!.sqrt,
          tick: row!.tick,
          liquidity: row!.liquidity,
          reserve0: row!.reserve0,
          reserve1: row!.reserve1
        },
        {
          sqrt: slot0[0].toString(),
          tick: slot0[1],
          liquidity: liquidity.toString(),
          reserve0: balance0.toString(),
          reserve1: balance1.toString()
        },
        `${p.label} at block ${head}`
      )
      const initialized = candidates
        .map((tick, i) => ({ tick, gross: chainTicks[i]![0].toString(), net: chainTicks[i]![1].toString() }))
        .filter((t) => t.gross !== "0")
        .sort((a, b) => a.tick - b.tick)
      assert.deepStrictEqual(indexedTicks, initialized, `${p.label}: initialized ticks at block ${head}`)
    }
    return head
  })
