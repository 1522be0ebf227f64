import { Effect } from "effect"
import { type Address, decodeFunctionResult, encodeFunctionData } from "viem"
import { TickBitmapLensAbi, TickBitmapLensBytecode } from "../../../contracts/generated/index.ts"
import { ChainReader } from "../fetch/ChainReader.ts"
import { RpcError } from "../fetch/RpcError.ts"

/**
 * Every initialized tick of many pools, read by contracts/TickBitmapLens.sol inside eth_calls: the lens's runtime code
 * is put at LENS_ADDRESS by a state override (as src/exchange-api/quotes/TransferCheck.ts does), reads each word of a
 * pool's tick bitmap and `ticks()` of each bit set, and answers only the initialized ticks. One call per word through
 * Multicall3 was 116 calls per 0.3 % pool (6,932 per 0.01 % pool), nearly all of an empty word, each encoded and
 * decoded here: at 10,000 pools 1.16M calls, whose viem encoding and decoding alone took minutes of CPU.
 */

/** No code there on any chain (a state override gives it the lens's). */
export const LENS_ADDRESS: Address = "0x00000000000000000000000000000000005e1e5e"

/** How much one eth_call asks of the lens. */
export interface LensLimits {
  /** Words one request covers. */
  readonly wordsPerRequest: number
  /** The gas each eth_call offers; the lens stops early (and says where) when it runs short. */
  readonly callGas: bigint
  /** Gas the lens keeps to return its answer. */
  readonly gasReserve: bigint
  /** Ticks one answer carries at most. */
  readonly maxTicks: bigint
}

/**
 * 4,500 words under 30M gas (within the 50M eth_call cap of geth and of most hosts): a word costs the lens ~5.4k gas
 * with its share of `ticks()` reads in 0.3 % pools of 8 ticks (measured on anvil; 6,000 words ran short and needed a
 * second request nearly every time); up to 2,000 ticks (~256 KB) per answer, whose memory costs ~0.8M of the 1.5M gas
 * kept.
 */
export const defaultLensLimits: LensLimits = {
  wordsPerRequest: 4_500,
  callGas: 30_000_000n,
  gasReserve: 1_500_000n,
  maxTicks: 2_000n
}

const MAX_TICK = 887_272

export interface InitializedTick {
  readonly tick: number
  readonly liquidityGross: bigint
  readonly liquidityNet: bigint
}

/** The block to read at, how many eth_calls at a time, and the counters of calls and requests (PoolReads.ts). */
interface TickReadContext {
  readonly blockNumber: bigint
  readonly concurrency: number
  readonly stats: { calls: number; requests: number }
}

/** Word positions of a pool's tick bitmap that can hold a tick (compressed tick = floor(tick / spacing), word = >> 8). */
export const wordRange = (tickSpacing: number) => {
  const compressed = (tick: number) => Math.floor(tick / tickSpacing)
  return { from: compressed(-MAX_TICK) >> 8, to: compressed(MAX_TICK) >> 8 }
}

interface Range {
  readonly pool: Address
  readonly tickSpacing: number
  readonly fromWord: number
  readonly toWord: number
}

/** The pools' word ranges cut into requests of at most `wordsPerRequest` words (a wide pool spans several). */
const requestsOf = (
  pools: ReadonlyArray<{ readonly address: string; readonly tickSpacing: number }>,
  wordsPerRequest: number
) => {
  const requests: Array<Array<Range>> = []
  let current: Array<Range> = []
  let words = 0
  for (const p of pools) {
    const { from, to } = wordRange(p.tickSpacing)
    for (let start = from; start <= to; ) {
      const end = Math.min(to, start + (wordsPerRequest - words) - 1)
      current.push({ pool: p.address as Address, tickSpacing: p.tickSpacing, fromWord: start, toWord: end })
      words += end - start + 1
      start = end + 1
      if (words === wordsPerRequest) {
        requests.push(current)
        current = []
        words = 0
      }
    }
  }
  if (current.length > 0) requests.push(current)
  return requests
}

const wordsIn = (ranges: ReadonlyArray<Range>) => ranges.reduce((n, r) => n + r.toWord - r.fromWord + 1, 0)

/** The initialized ticks of each pool (lowercase address → ticks in ascending order) at `ctx.blockNumber`. */
export const readInitializedTicks = (
  ctx: TickReadContext,
  pools: ReadonlyArray<{ readonly address: string; readonly tickSpacing: number }>,
  limits: LensLimits = defaultLensLimits
) =>
  Effect.gen(function* () {
    const reader = yield* ChainReader
    const found = new Map<string, Array<InitializedTick>>(pools.map((p) => [p.address.toLowerCase(), []]))
    if (pools.length === 0) return found
    // The runtime code: what the creation code returns when run by an eth_call without `to`.
    const code = yield* reader.call({ data: TickBitmapLensBytecode }, ctx.blockNumber)
    ctx.stats.requests += 1

    /** One request's ranges, asked again from where the lens stopped until all are read. */
    const readAll = (first: ReadonlyArray<Range>) =>
      Effect.gen(function* () {
        let ranges = first
        while (ranges.length > 0) {
          const data = encodeFunctionData({
            abi: TickBitmapLensAbi,
            functionName: "read",
            args: [ranges, limits.gasReserve, limits.maxTicks]
          })
          const answer = yield* reader.call({ to: LENS_ADDRESS, code, data, gas: limits.callGas }, ctx.blockNumber)
          const [stopRange, stopWord, ticks] = decodeFunctionResult({
            abi: TickBitmapLensAbi,
            functionName: "read",
            data: answer
          })
          for (const t of ticks)
            found.get(ranges[t.range]!.pool.toLowerCase())!.push({
              tick: t.tick,
              liquidityGross: t.liquidityGross,
              liquidityNet: t.liquidityNet
            })
          const stop = Number(stopRange)
          const rest =
            stop >= ranges.length ? [] : [{ ...ranges[stop]!, fromWord: stopWord }, ...ranges.slice(stop + 1)]
          const wordsRead = wordsIn(ranges) - wordsIn(rest)
          ctx.stats.requests += 1
          ctx.stats.calls += wordsRead + ticks.length
          if (wordsRead === 0)
            return yield* new RpcError({
              kind: "fatal",
              method: "eth_call",
              message: `TickBitmapLens read no word of pool ${ranges[0]!.pool} with ${limits.callGas} gas`
            })
          ranges = rest
        }
      })
    yield* Effect.forEach(requestsOf(pools, limits.wordsPerRequest), readAll, {
      concurrency: ctx.concurrency,
      discard: true
    })
    // A wide pool's requests answer in any order.
    for (const ticks of found.values()) ticks.sort((a, b) => a.tick - b.tick)
    return found
  })
