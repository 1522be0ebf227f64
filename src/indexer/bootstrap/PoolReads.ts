import { Effect } from "effect"
import { type Address, parseAbi, zeroAddress } from "viem"
import { ChainReader, type TokenMetadata, type ViewCall, type ViewResult } from "../fetch/ChainReader.ts"
import type { RpcError } from "../fetch/RpcError.ts"

/**
 * The reads of a pool's state at one block, batched through Multicall3: which pools exist among the base tokens
 * (factory getPool), then per pool slot0, liquidity, the token balances, every word of the tick bitmap and the
 * `ticks()` of each initialized tick. Each stage is one set of calls cut into chunks of CALLS_PER_REQUEST, sent
 * `concurrency` eth_calls at a time.
 */

const poolAbi = parseAbi([
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)",
  "function liquidity() view returns (uint128)",
  "function tickBitmap(int16 wordPosition) view returns (uint256)",
  "function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool)"
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
 * Calls per eth_call: a tickBitmap read costs ~5k gas inside aggregate3 and a ticks() read ~12k, so 500 stay far below
 * the eth_call gas caps of hosted nodes (50M and up) and the responses small.
 */
export const CALLS_PER_REQUEST = 500

const MAX_TICK = 887_272

export interface InitializedTick {
  readonly tick: number
  readonly liquidityGross: bigint
  readonly liquidityNet: bigint
}

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

/** Word positions of a pool's tick bitmap that can hold a tick (compressed tick = floor(tick / spacing), word = >> 8). */
const wordRange = (tickSpacing: number) => {
  const compressed = (tick: number) => Math.floor(tick / tickSpacing)
  return { from: compressed(-MAX_TICK) >> 8, to: compressed(MAX_TICK) >> 8 }
}

/** The initialized ticks a bitmap word marks. */
const ticksOfWord = (word: bigint, wordPosition: number, tickSpacing: number): Array<number> => {
  const out: Array<number> = []
  for (let bit = 0; word !== 0n; bit++, word >>= 1n)
    if ((word & 1n) === 1n) out.push((wordPosition * 256 + bit) * tickSpacing)
  return out
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

    // Balances and bitmap words in one set of calls; then ticks() of every bit set.
    const words = pools.map((p) => {
      const { from, to } = wordRange(p.tickSpacing)
      return Array.from({ length: to - from + 1 }, (_, k) => from + k)
    })
    const second = yield* runCalls(
      ctx,
      pools.flatMap((p, i) => [
        { address: p.token0 as Address, abi: erc20Abi, functionName: "balanceOf", args: [p.address] },
        { address: p.token1 as Address, abi: erc20Abi, functionName: "balanceOf", args: [p.address] },
        ...words[i]!.map((w) => ({
          address: p.address as Address,
          abi: poolAbi,
          functionName: "tickBitmap",
          args: [w]
        }))
      ])
    )
    let at = 0
    const partial = pools.map((p, i) => {
      const reserve0 = (ok(second[at++]) as bigint | undefined) ?? 0n
      const reserve1 = (ok(second[at++]) as bigint | undefined) ?? 0n
      const initialized = words[i]!.flatMap((w) => {
        const word = ok(second[at++]) as bigint | undefined
        if (word === undefined)
          throw new Error(`pool ${p.address}: tickBitmap(${w}) failed at block ${ctx.blockNumber}`)
        return ticksOfWord(word, w, p.tickSpacing)
      })
      return { ...p, reserve0, reserve1, initialized }
    })
    const tickResults = yield* runCalls(
      ctx,
      partial.flatMap((p) =>
        p.initialized.map((tick) => ({
          address: p.address as Address,
          abi: poolAbi,
          functionName: "ticks",
          args: [tick]
        }))
      )
    )
    at = 0
    const snapshots: Array<PoolSnapshot> = partial.map(({ initialized, ...p }) => ({
      ...p,
      ticks: initialized.map((tick) => {
        const t = ok(tickResults[at++]) as readonly [bigint, bigint] | undefined
        if (t === undefined) throw new Error(`pool ${p.address}: ticks(${tick}) failed at block ${ctx.blockNumber}`)
        return { tick, liquidityGross: t[0], liquidityNet: t[1] }
      })
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
