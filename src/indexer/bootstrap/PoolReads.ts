import { Effect } from "effect"
import { type Address, parseAbi, zeroAddress } from "viem"
import { ChainReader, type TokenMetadata, type ViewCall, type ViewResult } from "../fetch/ChainReader.ts"
import { RpcError } from "../fetch/RpcError.ts"
import { type InitializedTick, readInitializedTicks } from "./TickReads.ts"

export type { InitializedTick }

/**
 * The reads of a pool's state at one block, batched through Multicall3: which pools exist among the base tokens
 * (factory getPool), then per pool slot0, liquidity and the token balances. Each stage is one set of calls cut into
 * chunks of CALLS_PER_REQUEST, sent `concurrency` eth_calls at a time. The initialized ticks (every word of the tick
 * bitmap, `ticks()` of each bit set) are read by a lens inside the eth_call instead (TickReads.ts).
 */

const poolAbi = parseAbi([
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)",
  "function liquidity() view returns (uint128)"
])
const factoryAbi = parseAbi(["function getPool(address, address, uint24) view returns (address)"])
const erc20Abi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)"
])

/**
 * Calls per eth_call: a view call costs ~5–12k gas inside aggregate3, so 500 stay far below the eth_call gas caps of
 * hosted nodes (50M and up) and the responses small.
 */
export const CALLS_PER_REQUEST = 500

export interface PoolSnapshot {
  readonly address: string
  readonly token0: string
  readonly token1: string
  readonly fee: number
  readonly tickSpacing: number
  readonly sqrtPriceX96: bigint
  readonly tick: number
  readonly liquidity: bigint
  readonly reserve0: bigint
  readonly reserve1: bigint
  readonly ticks: ReadonlyArray<InitializedTick>
}

/** What the reads cost: view calls made, and the eth_call requests that carried them. */
export interface ReadStats {
  calls: number
  requests: number
}

export const emptyStats = (): ReadStats => ({ calls: 0, requests: 0 })

export interface ReadContext {
  readonly multicall3: Address
  readonly blockNumber: bigint
  readonly concurrency: number
  readonly stats: ReadStats
}

const chunksOf = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** Runs the calls in chunks; one result per call, in order. */
export const runCalls = (
  ctx: ReadContext,
  calls: ReadonlyArray<ViewCall>
): Effect.Effect<ReadonlyArray<ViewResult>, RpcError, ChainReader> =>
  Effect.gen(function* () {
    const reader = yield* ChainReader
    const results = yield* Effect.forEach(
      chunksOf(calls, CALLS_PER_REQUEST),
      (chunk) =>
        reader.multicall(ctx.multicall3, chunk, ctx.blockNumber).pipe(
          Effect.tap(() =>
            Effect.sync(() => {
              ctx.stats.calls += chunk.length
              ctx.stats.requests += 1
            })
          ),
          // A read that failed for good (or after its retries: RpcError.ts) stops the bootstrap, which would
          // otherwise take the pools it did not read for pools that do not exist; the indexer logs it and restarts.
          Effect.mapError(
            (e) =>
              new RpcError({
                kind: e.kind,
                method: e.method,
                message: `tracked pools: a read through Multicall3 ${ctx.multicall3} at block ${ctx.blockNumber} failed: ${e.message}`,
                cause: e
              })
          )
        ),
      { concurrency: ctx.concurrency }
    )
    return results.flat()
  })

const ok = (r: ViewResult | undefined): unknown => (r?.status === "success" ? r.result : undefined)

/** The pools among `tokens` (every pair, every fee tier) that exist at the block, lowercased. */
export const poolsAmong = (
  ctx: ReadContext,
  factory: Address,
  tokens: ReadonlyArray<string>,
  feeTiers: ReadonlyArray<number>
) => {
  const calls: Array<ViewCall> = []
  for (let i = 0; i < tokens.length; i++)
    for (let j = i + 1; j < tokens.length; j++)
      for (const fee of feeTiers)
        calls.push({ address: factory, abi: factoryAbi, functionName: "getPool", args: [tokens[i], tokens[j], fee] })
  return Effect.map(runCalls(ctx, calls), (results) =>
    results.flatMap((r) => {
      const pool = ok(r) as string | undefined
      return pool === undefined || pool === zeroAddress ? [] : [pool.toLowerCase()]
    })
  )
}

interface PoolHead {
  readonly address: string
  readonly token0: string
  readonly token1: string
  readonly fee: number
  readonly tickSpacing: number
  readonly sqrtPriceX96: bigint
  readonly tick: number
  readonly liquidity: bigint
}

/**
 * The state of each pool at the block. A pool that does not answer (no code at the address, not a pool) or is not
 * initialized yet is left out and named in `skipped`.
 */
export const readPools = (ctx: ReadContext, addresses: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const fields = ["token0", "token1", "fee", "tickSpacing", "slot0", "liquidity"] as const
    const heads = yield* runCalls(
      ctx,
      addresses.flatMap((address) =>
        fields.map((functionName) => ({ address: address as Address, abi: poolAbi, functionName }))
      )
    )
    const pools: Array<PoolHead> = []
    const skipped: Array<string> = []
    addresses.forEach((address, i) => {
      const [token0, token1, fee, tickSpacing, slot0, liquidity] = fields.map((_, k) =>
        ok(heads[i * fields.length + k])
      )
      const s = slot0 as readonly [bigint, number] | undefined
      if (liquidity === undefined || s === undefined || s[0] === 0n) {
        skipped.push(address)
        return
      }
      pools.push({
        address,
        token0: (token0 as string).toLowerCase(),
        token1: (token1 as string).toLowerCase(),
        fee: fee as number,
        tickSpacing: tickSpacing as number,
        sqrtPriceX96: s[0],
        tick: s[1],
        liquidity: liquidity as bigint
      })
    })

    // Balances through Multicall3; the initialized ticks through the lens (TickReads.ts).
    const balances = yield* runCalls(
      ctx,
      pools.flatMap((p) => [
        { address: p.token0 as Address, abi: erc20Abi, functionName: "balanceOf", args: [p.address] },
        { address: p.token1 as Address, abi: erc20Abi, functionName: "balanceOf", args: [p.address] }
      ])
    )
    const ticks = yield* readInitializedTicks(ctx, pools)
    const snapshots: Array<PoolSnapshot> = pools.map((p, i) => ({
      ...p,
      reserve0: (ok(balances[2 * i]) as bigint | undefined) ?? 0n,
      reserve1: (ok(balances[2 * i + 1]) as bigint | undefined) ?? 0n,
      ticks: ticks.get(p.address.toLowerCase()) ?? []
    }))
    return { snapshots, skipped }
  })

/**
 * ERC-20 metadata of many tokens in a few eth_calls. A token whose answer does not decode as the standard types
 * (a bytes32 name, no decimals()) is read again one by one by ChainReader.tokenMetadata, whose fallbacks apply.
 */
export const readTokenMetadata = (ctx: ReadContext, tokens: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const fields = ["name", "symbol", "decimals", "totalSupply"] as const
    const results = yield* runCalls(
      ctx,
      tokens.flatMap((token) =>
        fields.map((functionName) => ({ address: token as Address, abi: erc20Abi, functionName }))
      )
    )
    const reader = yield* ChainReader
    return new Map<string, TokenMetadata>(
      yield* Effect.forEach(
        tokens,
        (token, i) => {
          const [name, symbol, decimals, totalSupply] = fields.map((_, k) => ok(results[i * fields.length + k]))
          return name === undefined || symbol === undefined || decimals === undefined || totalSupply === undefined
            ? Effect.map(reader.tokenMetadata(token, ctx.blockNumber), (m) => [token, m] as const)
            : Effect.succeed([
                token,
                {
                  name: name as string,
                  symbol: symbol as string,
                  decimals: decimals as number,
                  totalSupply: totalSupply as bigint
                }
              ] as const)
        },
        { concurrency: ctx.concurrency }
      )
    )
  })
