import { Clock, Duration, Effect } from "effect"
import { type Hex, numberToHex } from "viem"
import type { IndexerSettings } from "../IndexerConfig.ts"
import { type RawLog, type RpcLog, type RpcRequest, type TopicFilter, toRawLog } from "./ChainReaderTypes.ts"
import { afterAnswer, afterRefusal, ceilingAt, type RangeCeiling } from "./RangeCeiling.ts"
import { backoffMs, rpcRetry } from "./RpcError.ts"

/** The first eth_getLogs range (then at most doubled per response while the density allows). */
export const INITIAL_BLOCK_RANGE = 16

/**
 * ChainReader's eth_getLogs over block ranges: `logs`, `logsByTopic`, `logsMatching` and `logRange`. The range adapts
 * per filter (halved on a range/size error; after an answer, the range that holds INDEXER_TARGET_LOGS logs at the
 * density seen, at most doubled per answer and never above INDEXER_MAX_BLOCK_RANGE), one range per filter and address
 * chunk. The indexer sizes its batches by the smallest range, the densest filter's, times INDEXER_RANGES_PER_BATCH: an
 * interval that long is asked as that many pieces at once (`logsOfChunk`).
 */
export const makeAdaptiveGetLogs = (request: RpcRequest, settings: IndexerSettings) => {
  // One range per filter (its topic set): the launchpad's contracts and the pools/tokens they create have very
  // different densities, and a shared range would be doubled by the sparse filter's answers and cut back by the
  // dense one's, batch after batch. Slow start: the first request of a filter asks for a few blocks and sparse
  // answers double it up to the max, so a dense chain never starts with one huge response (1,000 blocks of the
  // bench's history are ~190k logs, ~130 MB).
  const initialRange = Math.min(settings.maxBlockRange, INITIAL_BLOCK_RANGE)
  const ranges = new Map<string, number>()
  /** Per filter: the largest range not refused since a refusal, until its probe time (RangeCeiling.ts). */
  const ceilings = new Map<string, RangeCeiling>()
  const rangeOf = (filter: string) => ranges.get(filter) ?? initialRange
  /** Filters that do not size the batch (`logsMatching`'s: asked over a few blocks, or rarely). */
  const unsized = new Set<string>()

  const getLogsOnce = (addresses: ReadonlyArray<string>, topics: TopicFilter, from: bigint, to: bigint) =>
    rpcRetry(
      request<Array<RpcLog>>("eth_getLogs", [
        {
          // No address list: any emitter (the children by topic, see `logsByTopic`).
          ...(addresses.length === 0 ? {} : { address: addresses }),
          topics,
          fromBlock: numberToHex(from),
          toBlock: numberToHex(to)
        }
      ])
    ).pipe(Effect.map((logs) => logs.map(toRawLog)))

  // After a response of `logs` logs for `blocks` blocks, cut with range `current` (a request can be shorter: the end
  // of the asked interval): the range the density says holds targetLogsPerRequest, at most twice `current` (so
  // one sparse answer cannot jump to the max) and at most the max. Judged per block, not per response, so a
  // run of small batches at the head does not grow the range past what the chain's density allows.
  const nextRange = (current: number, blocks: number, logs: number) => {
    const byDensity = Math.floor((Math.max(1, blocks) * settings.targetLogsPerRequest) / Math.max(1, logs))
    return Math.max(1, Math.min(settings.maxBlockRange, current * 2, byDensity))
  }

  // Walks [from, to] in steps of the filter's range. A refusal of the size (or a timeout) shrinks the range and
  // retries the same start: to the provider's hint when it gives one ("this block range should work: [a, b]"),
  // else to half. A refused size becomes the filter's ceiling for a while (RangeCeiling.ts: under a hard cap every
  // second request would be refused, but a cap can be lifted); a timeout does not (load passes). An unknown
  // eth_getLogs failure over several blocks is halved too (a size text no rule knows yet); over one block it fails
  // the step. `filter` keys the range: the topic set and the address chunk (chunks of one filter run
  // concurrently, and one chunk's answer must not overwrite the range another chunk just learned).
  const walk = (filter: string, addresses: ReadonlyArray<string>, topics: TopicFilter, from: bigint, to: bigint) =>
    Effect.gen(function* () {
      const out: Array<RawLog> = []
      let start = from
      let timeouts = 0
      while (start <= to) {
        const now = yield* Clock.currentTimeMillis
        const size = Math.min(rangeOf(filter), ceilingAt(ceilings.get(filter), now))
        const end = start + BigInt(size) - 1n < to ? start + BigInt(size) - 1n : to
        const result = yield* getLogsOnce(addresses, topics, start, end).pipe(Effect.result)
        const asked = Number(end - start + 1n)
        if (result._tag === "Failure") {
          const error = result.failure
          if (asked === 1 && error.kind === "range" && error.timeout === true && timeouts < 20) {
            // A one-block range that timed out cannot shrink: wait, then the same block again.
            yield* Effect.sleep(Duration.millis(backoffMs(Math.min(timeouts++, 7), error.retryAfterMs, Math.random())))
            continue
          }
          if (asked === 1 || error.kind === "retryable") return yield* error
          const halved = Math.max(1, Math.floor(asked / 2))
          const smaller =
            error.kind === "range" && error.rangeHint !== undefined && error.rangeHint < asked
              ? error.rangeHint
              : halved
          ranges.set(filter, smaller)
          if (error.kind !== "range" || error.timeout !== true)
            ceilings.set(
              filter,
              afterRefusal(ceilings.get(filter), smaller, yield* Clock.currentTimeMillis, settings.rangeProbeMs)
            )
          yield* Effect.logDebug(
            `eth_getLogs over ${asked} blocks refused (${error.message}); trying ${smaller} blocks`
          )
          continue
        }
        timeouts = 0
        for (const log of result.success) out.push(log)
        const ceiling = afterAnswer(ceilings.get(filter), asked)
        if (ceiling === undefined) ceilings.delete(filter)
        ranges.set(filter, Math.min(ceilingAt(ceiling, now), nextRange(size, asked, result.success.length)))
        start = end + 1n
      }
      return out
    })

  // [from, to] as up to INDEXER_RANGES_PER_BATCH pieces of at least the filter's range, walked at once (a batch
  // spans that many ranges of its densest filter: Loop.ts), in order.
  const logsOfChunk = (
    filter: string,
    addresses: ReadonlyArray<string>,
    topics: TopicFilter,
    from: bigint,
    to: bigint
  ) => {
    const blocks = Number(to - from + 1n)
    const pieces = Math.min(
      settings.rangesPerBatch,
      settings.rpcConcurrency,
      Math.ceil(blocks / Math.max(1, rangeOf(filter)))
    )
    if (pieces <= 1) return walk(filter, addresses, topics, from, to)
    const size = BigInt(Math.ceil(blocks / pieces))
    const parts: Array<readonly [bigint, bigint]> = []
    for (let a = from; a <= to; a += size) parts.push([a, a + size - 1n < to ? a + size - 1n : to])
    return Effect.map(
      Effect.forEach(parts, ([a, b]) => walk(filter, addresses, topics, a, b), { concurrency: parts.length }),
      (logs) => logs.flat()
    )
  }

  const logs = (addresses: ReadonlyArray<string>, topic0s: ReadonlyArray<Hex>, from: bigint, to: bigint) => {
    if (addresses.length === 0 || from > to) return Effect.succeed([] as ReadonlyArray<RawLog>)
    const chunks: Array<ReadonlyArray<string>> = []
    for (let i = 0; i < addresses.length; i += settings.addressesPerRequest) {
      chunks.push(addresses.slice(i, i + settings.addressesPerRequest))
    }
    return Effect.forEach(chunks, (chunk, i) => logsOfChunk(`${topic0s.join(",")}|${i}`, chunk, [topic0s], from, to), {
      concurrency: Math.min(4, settings.rpcConcurrency)
    }).pipe(
      Effect.map((parts) =>
        parts
          .flat()
          .sort((a, b) =>
            a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1
          )
      )
    )
  }

  const logsByTopic = (topic0s: ReadonlyArray<Hex>, from: bigint, to: bigint) =>
    from > to
      ? Effect.succeed([] as ReadonlyArray<RawLog>)
      : logsOfChunk(`${topic0s.join(",")}|any`, [], [topic0s], from, to)

  const logsMatching = (address: string, topics: TopicFilter, filter: string, from: bigint, to: bigint) =>
    from > to
      ? Effect.succeed([] as ReadonlyArray<RawLog>)
      : Effect.suspend(() => {
          unsized.add(`${address}|${filter}`)
          return logsOfChunk(`${address}|${filter}`, [address], topics, from, to)
        })

  const logRange = Effect.sync(() => {
    const sizing = [...ranges].flatMap(([filter, range]) => (unsized.has(filter) ? [] : [range]))
    return sizing.length === 0 ? initialRange : Math.min(...sizing)
  })

  return { logs, logsByTopic, logsMatching, logRange }
}
