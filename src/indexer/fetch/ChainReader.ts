import { Clock, Context, Duration, Effect, Layer } from "effect"
import { type Abi, type Address, type Hex, hexToBigInt, hexToNumber, numberToHex } from "viem"
import { decodeTokenText, TOKEN_TEXT_SELECTORS } from "../../platform/TokenText.ts"
import { readAbi } from "../Abis.ts"
import { IndexerConfig } from "../IndexerConfig.ts"
import { IndexerSource } from "../IndexerSource.ts"
import { coversBloom, inBloom, isZeroBloom } from "./Bloom.ts"
import { backoffMs, classifyRpcError, rpcCall, RpcError, rpcRetry } from "./RpcError.ts"
import { makeNewHeads, type NewHeads } from "./NewHeads.ts"
import { makeRateLimit } from "./RateLimit.ts"
import { afterAnswer, afterRefusal, ceilingAt, type RangeCeiling } from "./RangeCeiling.ts"
import { type EndpointHash, hashesAtEachEndpoint } from "./EndpointHashes.ts"

/**
 * Tokens per Multicall3 eth_call of `tokensMetadata` (four view calls each). The call is deployless: the aggregate's
 * answer is returned as the code of a contract being created, which EIP-170 caps at 24,576 bytes (the node answers
 * `CreateContractSizeLimit` past it); a token's four answers take about 800 bytes with short texts. A chunk that still
 * passes the cap (long names) is read token by token.
 */
const METADATA_TOKENS_PER_CALL = 20
/** The deployless aggregate's answer was larger than a contract's code may be (see METADATA_TOKENS_PER_CALL). */
const answerTooLarge = (error: unknown) => /CreateContractSizeLimit|max code size|code size limit/i.test(String(error))

/** The first eth_getLogs range (then at most doubled per response while the density allows). */
export const INITIAL_BLOCK_RANGE = 16

/** A log as the pipeline carries it: hex fields parsed, addresses lowercased. */
export interface RawLog {
  readonly address: string
  readonly topics: ReadonlyArray<Hex>
  readonly data: Hex
  readonly blockNumber: bigint
  readonly blockHash: string
  readonly logIndex: number
  readonly transactionHash: string
  /** Present when the node includes it (anvil, recent geth/reth); otherwise filled from the block header. */
  readonly blockTimestamp?: bigint | undefined
}

/** eth_getLogs `topics`: per position, the values any of which matches, or null for any value. */
export type TopicFilter = ReadonlyArray<ReadonlyArray<Hex> | null>

export interface BlockHeader {
  readonly number: bigint
  readonly hash: string
  readonly parentHash: string
  readonly timestamp: bigint
  /** The header's logsBloom, when read from the chain (tests may build headers without it). */
  readonly logsBloom?: Hex | undefined
}

export interface TokenMetadata {
  readonly name: string
  readonly symbol: string
  /** Null when the token has no readable `decimals()` (optional in ERC-20). */
  readonly decimals: number | null
  readonly totalSupply: bigint
}

/** A view call for `multicall`. */
export interface ViewCall {
  readonly address: Address
  readonly abi: Abi
  readonly functionName: string
  readonly args?: ReadonlyArray<unknown>
}

export type ViewResult =
  | { readonly status: "success"; readonly result: unknown }
  | { readonly status: "failure"; readonly error: unknown }

export interface CanonicalPoolConfig {
  readonly fee: number
  readonly sqrtPriceX96: bigint
  readonly tickLower: number
  readonly tickUpper: number
}

interface RpcLog {
  address: string
  topics: Array<Hex>
  data: Hex
  blockNumber: Hex
  blockHash: string
  logIndex: Hex
  transactionHash: string
  blockTimestamp?: Hex
}

const toRawLog = (l: RpcLog): RawLog => ({
  address: l.address.toLowerCase(),
  topics: l.topics,
  data: l.data,
  blockNumber: hexToBigInt(l.blockNumber),
  blockHash: l.blockHash.toLowerCase(),
  logIndex: hexToNumber(l.logIndex),
  transactionHash: l.transactionHash.toLowerCase(),
  blockTimestamp: l.blockTimestamp === undefined ? undefined : hexToBigInt(l.blockTimestamp)
})

/**
 * The fetch stage: every RPC the indexer makes. eth_getLogs adapts its block range (halved on a range/size error;
 * after an answer, the range that holds INDEXER_TARGET_LOGS logs at the density seen, at most doubled per answer and
 * never above INDEXER_MAX_BLOCK_RANGE), one range per filter and address chunk; every call retries transport errors
 * and rate limits with backoff. The indexer sizes its batches by the smallest range, the densest filter's, times
 * INDEXER_RANGES_PER_BATCH: an interval that long is asked as that many pieces at once (`logsOfChunk`).
 */
export class ChainReader extends Context.Service<
  ChainReader,
  {
    readonly head: Effect.Effect<bigint, RpcError>
    readonly header: (number: bigint) => Effect.Effect<BlockHeader, RpcError>
    readonly headers: (numbers: ReadonlyArray<bigint>) => Effect.Effect<ReadonlyArray<BlockHeader>, RpcError>
    /** Block `number`'s hash at each of IndexerSource's `endpoints` (none with one RPC URL): see EndpointHashes.ts. */
    readonly hashAtEachEndpoint: (number: bigint) => Effect.Effect<ReadonlyArray<EndpointHash>>
    /** Logs of the given addresses (chunked) and topic0s over [from, to], sorted by (block, logIndex). */
    readonly logs: (
      addresses: ReadonlyArray<string>,
      topic0s: ReadonlyArray<Hex>,
      from: bigint,
      to: bigint
    ) => Effect.Effect<ReadonlyArray<RawLog>, RpcError>
    /**
     * Logs of one address whose topics match `topics` (per position: a list of values, or null for any) over
     * [from, to]. `filter` names the filter for its eth_getLogs range (the values of a position may change per call).
     */
    readonly logsMatching: (
      address: string,
      topics: TopicFilter,
      filter: string,
      from: bigint,
      to: bigint
    ) => Effect.Effect<ReadonlyArray<RawLog>, RpcError>
    /** Logs of the topic0s from any address over [from, to], sorted by (block, logIndex). */
    readonly logsByTopic: (
      topic0s: ReadonlyArray<Hex>,
      from: bigint,
      to: bigint
    ) => Effect.Effect<ReadonlyArray<RawLog>, RpcError>
    /**
     * View calls at `blockNumber` in one eth_call through Multicall3 (`aggregate3`, failures allowed): one result per
     * call, in order. Callers chunk large sets (Bootstrap.ts).
     */
    readonly multicall: (
      multicall3: Address,
      calls: ReadonlyArray<ViewCall>,
      blockNumber: bigint
    ) => Effect.Effect<ReadonlyArray<ViewResult>, RpcError>
    /**
     * Every log of the block `header` names, read by its hash (EIP-234) and checked against its logsBloom; none when
     * the bloom holds none of `topic0s`. See `blockLogs` in the layer for why.
     */
    readonly blockLogs: (
      header: BlockHeader,
      topic0s: ReadonlyArray<Hex>
    ) => Effect.Effect<ReadonlyArray<RawLog>, RpcError>
    /**
     * One eth_call at the block: of `data` to `to` (with `code` there through a state override: a lens that is never
     * deployed), or without `to`, of creation code (its answer is the runtime code). The answer's bytes.
     */
    readonly call: (
      request: { readonly to?: Address; readonly code?: Hex; readonly data: Hex; readonly gas?: bigint },
      blockNumber: bigint
    ) => Effect.Effect<Hex, RpcError>
    /** At `blockNumber`, or at the head when undefined. */
    readonly canonicalPoolConfig: (
      tokenIsToken0: boolean,
      blockNumber: bigint | undefined
    ) => Effect.Effect<CanonicalPoolConfig, RpcError>
    /** ERC-20 metadata; a token that does not answer a field gets a neutral value rather than stopping the indexer. */
    readonly tokenMetadata: (token: string, blockNumber: bigint) => Effect.Effect<TokenMetadata, RpcError>
    /** `tokenMetadata` of several tokens, in one eth_call through Multicall3 where the chain has it. */
    readonly tokensMetadata: (
      tokens: ReadonlyArray<string>,
      blockNumber: bigint
    ) => Effect.Effect<ReadonlyMap<string, TokenMetadata>, RpcError>
    /**
     * The smallest current eth_getLogs range over the filters of `logs` and `logsByTopic` (the densest one's): the
     * indexer's batch size.
     */
    readonly logRange: Effect.Effect<number>
    /** Waits at the head: for a new-heads announcement (the poll interval as fallback), else sleeps it. */
    readonly awaitNewHead: NewHeads["await"]
    /** True when new heads come from an `eth_subscribe("newHeads")` subscription (IndexerSource `heads`). */
    readonly subscribedToHeads: boolean
  }
>()("app/indexer/ChainReader") {
  static readonly layer = Layer.effect(
    ChainReader,
    Effect.gen(function* () {
      const { client, contracts, heads, endpoints } = yield* IndexerSource
      const settings = yield* IndexerConfig
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
      // Every call of the reader (retries included) waits for its slot under INDEXER_RPC_RPS.
      const paced = makeRateLimit(settings.rpcRequestsPerSecond)
      const call = <A>(method: string, f: () => Promise<A>) => paced(rpcCall(method, f))
      const request = <A>(method: string, params: ReadonlyArray<unknown>) =>
        call(method, () => client.request({ method, params } as never) as Promise<A>)

      const header = (number: bigint) =>
        rpcRetry(
          request<{ number: Hex; hash: string; parentHash: string; timestamp: Hex; logsBloom?: Hex } | null>(
            "eth_getBlockByNumber",
            [numberToHex(number), false]
          ).pipe(
            Effect.flatMap((b) =>
              b === null
                ? Effect.fail(
                    new RpcError({ kind: "retryable", method: "eth_getBlockByNumber", message: `no block ${number}` })
                  )
                : Effect.succeed<BlockHeader>({
                    number: hexToBigInt(b.number),
                    hash: b.hash.toLowerCase(),
                    parentHash: b.parentHash.toLowerCase(),
                    timestamp: hexToBigInt(b.timestamp),
                    logsBloom: b.logsBloom
                  })
            )
          )
        )

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

      // Near the head (the blocks within FINALITY_DEPTH), a block's logs are read by its hash, all of them, and kept
      // only if they are that block's: each names the hash, and together they set every bit of the header's
      // logsBloom. A node behind a load balancer that does not have the block yet answers a range over it with no
      // logs (or cuts the range at its head) and some answer [] for its hash: the bloom tells, and the same request is
      // asked again (another node answers, or this one catches up). Why all logs and not the filters': it is one call
      // per block whatever the number of filters and address chunks (a filtered answer cannot be checked against the
      // bloom: a bit set by another contract's log looks the same), and none when the bloom holds no topic we follow.
      // Measured on the devnet, one block per step (test/indexer/HeadLogs.test.ts): 2.06 eth_getLogs per block with a
      // range per filter, at most 1 read by hash. The cost is the size of a busy block's answer (every log in it).
      const blockLogs = (h: BlockHeader, topic0s: ReadonlyArray<Hex>) => {
        const bloom = h.logsBloom
        // A zero bloom is an empty block, or a chain that does not fill blooms: asked (it answers [] if empty).
        if (bloom !== undefined && !isZeroBloom(bloom) && !topic0s.some((t) => inBloom(bloom, t)))
          return Effect.succeed([] as ReadonlyArray<RawLog>)
        const incomplete = (message: string) =>
          Effect.fail(
            new RpcError({ kind: "retryable", method: "eth_getLogs", message: `block ${h.number}: ${message}` })
          )
        // A failed read is retried only while the block is still the chain's at its height: a block a reorg replaced
        // since its header was read is unknown by its hash for good ("unknown block"), and retrying it would keep the
        // loop from seeing the reorg for minutes. Then `replaced`: the loop reads the headers again (Loop.ts).
        const stillOnChain = (e: RpcError) =>
          Effect.flatMap(header(h.number), (now) =>
            now.hash === h.hash
              ? Effect.fail(e)
              : Effect.fail(
                  new RpcError({
                    kind: "replaced",
                    method: "eth_getLogs",
                    message: `block ${h.number} ${h.hash} was replaced by ${now.hash} (its logs: ${e.message.split("\n")[0]})`
                  })
                )
          )
        return rpcRetry(
          request<Array<RpcLog>>("eth_getLogs", [{ blockHash: h.hash }]).pipe(
            Effect.map((logs) => logs.map(toRawLog)),
            Effect.flatMap((logs) =>
              logs.some((l) => l.blockHash !== h.hash || l.blockNumber !== h.number)
                ? incomplete("eth_getLogs by blockHash answered logs of another block")
                : bloom !== undefined && !coversBloom(logs, bloom)
                  ? incomplete(`eth_getLogs by blockHash answered ${logs.length} logs, fewer than its logsBloom holds`)
                  : Effect.succeed(logs)
            ),
            Effect.catchIf((e) => e.kind === "retryable", stillOnChain)
          )
        )
      }

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
                yield* Effect.sleep(
                  Duration.millis(backoffMs(Math.min(timeouts++, 7), error.retryAfterMs, Math.random()))
                )
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
        return Effect.forEach(
          chunks,
          (chunk, i) => logsOfChunk(`${topic0s.join(",")}|${i}`, chunk, [topic0s], from, to),
          {
            concurrency: Math.min(4, settings.rpcConcurrency)
          }
        ).pipe(
          Effect.map((parts) =>
            parts
              .flat()
              .sort((a, b) =>
                a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1
              )
          )
        )
      }

      const byTopicOnly = (topic0s: ReadonlyArray<Hex>, from: bigint, to: bigint) =>
        from > to
          ? Effect.succeed([] as ReadonlyArray<RawLog>)
          : logsOfChunk(`${topic0s.join(",")}|any`, [], [topic0s], from, to)

      const read = <A>(method: string, f: () => Promise<A>) => rpcRetry(call(method, f))
      const newHeads = yield* makeNewHeads(heads)
      // Set once a metadata read at a past block failed and the same read at the head answered: the node keeps no
      // state that old (a pruned node, a plan without archive data, anvil past the states it keeps), and every later
      // token would pay the failed call too. Its reads go to the head from then on: one call each instead of two
      // (measured by `BENCH_HOSTED=1 npm run bench:indexer`: 93 of the backfill's 191 eth_calls were such retries).
      let pastStateMissing = false

      const tokenMetadata = (token: string, blockNumber: bigint) => {
        // At the batch's block; a node without state that old answers at the head (ERC-20 metadata does not
        // change). A token without `name()`/`symbol()` gets "", without `totalSupply()` 0; without a readable
        // `decimals()` it gets null, never a guessed 18: its amounts have no known scale (its prices stay null and
        // quotes refuse it with TOKEN_DECIMALS_FETCH_FAILED).
        const atHeadIfFatal = <A>(f: (block: bigint | undefined) => Effect.Effect<A, RpcError>, fallback: A) =>
          (pastStateMissing
            ? f(undefined)
            : f(blockNumber).pipe(
                Effect.catchIf(
                  (e) => e.kind === "fatal",
                  () =>
                    f(undefined).pipe(
                      Effect.tap(() =>
                        Effect.sync(() => {
                          pastStateMissing = true
                        })
                      )
                    )
                )
              )
          ).pipe(
            Effect.catchIf(
              (e) => e.kind === "fatal",
              () => Effect.succeed(fallback)
            )
          )
        const number = (functionName: "decimals" | "totalSupply") => (block: bigint | undefined) =>
          read(
            "eth_call",
            () =>
              client.readContract({
                address: token as Address,
                abi: readAbi.erc20,
                functionName,
                ...(block === undefined ? {} : { blockNumber: block })
              }) as Promise<number | bigint>
          )
        // Raw calls: `name()`/`symbol()` may return a string or a bytes32 (src/platform/TokenText.ts).
        const text = (functionName: "name" | "symbol") => (block: bigint | undefined) =>
          read("eth_call", () =>
            client.call({
              to: token as Address,
              data: TOKEN_TEXT_SELECTORS[functionName],
              ...(block === undefined ? {} : { blockNumber: block })
            })
          ).pipe(Effect.map(({ data }) => (data === undefined ? "" : (decodeTokenText(data) ?? ""))))
        return Effect.all(
          {
            name: atHeadIfFatal(text("name"), ""),
            symbol: atHeadIfFatal(text("symbol"), ""),
            decimals: atHeadIfFatal(
              (block) => Effect.map(number("decimals")(block), (d) => Number(d)),
              null as number | null
            ),
            totalSupply: atHeadIfFatal((block) => Effect.map(number("totalSupply")(block), (t) => BigInt(t)), 0n)
          },
          { concurrency: 4 }
        )
      }

      // Several tokens' metadata in one eth_call through Multicall3 (`aggregate3`, four view calls a token), sent with
      // its code (viem's deployless multicall: no deployment needed, any node that runs eth_call without `to`), at the
      // batch's block or, once that state proved missing, at the head. A token whose answers do not all decode (a
      // bytes32 name, no decimals()) is read alone by `tokenMetadata`, whose fallbacks apply; so is every token once
      // the multicall itself was refused at the head (a node that does not run it: never asked again). Measured on
      // the hosted plan (`BENCH_HOSTED=1 npm run bench:indexer`): 4 calls a token were most of a backfill's eth_calls.
      let multicallRefused = false
      const metadataFields = ["name", "symbol", "decimals", "totalSupply"] as const
      /** The answers, one per token and field; `refused` when the aggregate call itself failed (all share its error). */
      const aggregate = (tokens: ReadonlyArray<string>, block: bigint | undefined) =>
        read("eth_call", async () => {
          const results = await client.multicall({
            contracts: tokens.flatMap((token) =>
              metadataFields.map((functionName) => ({ address: token as Address, abi: readAbi.erc20, functionName }))
            ),
            deployless: true,
            allowFailure: true,
            batchSize: 0,
            ...(block === undefined ? {} : { blockNumber: block })
          })
          const first = results[0]
          // viem turns a failed request into a failure of every call: a transport error or a 429 is retried here.
          if (first?.status === "failure" && results.every((r) => r.status === "failure" && r.error === first.error)) {
            if (answerTooLarge(first.error)) return "tooLarge" as const
            const error = classifyRpcError("eth_call", first.error)
            if (error.kind !== "fatal") throw first.error
            return "refused" as const
          }
          return results
        })
      const decoded = (answers: ReadonlyArray<{ status: string; result?: unknown }>): TokenMetadata | undefined => {
        if (answers.length !== 4 || !answers.every((a) => a.status === "success")) return undefined
        const [name, symbol, decimals, totalSupply] = answers.map((a) => a.result)
        // As decodeTokenText (src/platform/TokenText.ts): no NUL characters (PostgreSQL text cannot hold them).
        const text = (v: unknown) => String(v).replaceAll("\u0000", "")
        return {
          name: text(name),
          symbol: text(symbol),
          decimals: Number(decimals),
          totalSupply: BigInt(totalSupply as bigint)
        }
      }
      const tokensMetadata = (tokens: ReadonlyArray<string>, blockNumber: bigint) =>
        Effect.gen(function* () {
          const chunks: Array<ReadonlyArray<string>> = []
          for (let i = 0; i < tokens.length; i += METADATA_TOKENS_PER_CALL)
            chunks.push(tokens.slice(i, i + METADATA_TOKENS_PER_CALL))
          const together = (chunk: ReadonlyArray<string>) =>
            Effect.gen(function* () {
              let answers = yield* aggregate(chunk, pastStateMissing ? undefined : blockNumber)
              // Too large an answer says nothing of the node: these tokens are read alone, the next chunk together.
              if (answers === "tooLarge") return chunk.map(() => undefined)
              if (answers === "refused" && !pastStateMissing) {
                answers = yield* aggregate(chunk, undefined)
                if (answers === "tooLarge") return chunk.map(() => undefined)
                if (answers !== "refused") pastStateMissing = true
              }
              if (answers === "refused") {
                multicallRefused = true
                return chunk.map(() => undefined)
              }
              const all = answers
              return chunk.map((_, i) => decoded(all.slice(i * 4, i * 4 + 4)))
            })
          const found =
            multicallRefused || tokens.length === 0
              ? tokens.map(() => undefined)
              : (yield* Effect.forEach(chunks, together, { concurrency: settings.rpcConcurrency })).flat()
          return new Map(
            yield* Effect.forEach(
              tokens,
              (token, i) => {
                const m = found[i]
                return m !== undefined
                  ? Effect.succeed([token, m] as const)
                  : Effect.map(tokenMetadata(token, blockNumber), (alone) => [token, alone] as const)
              },
              { concurrency: 8 }
            )
          )
        })

      return ChainReader.of({
        awaitNewHead: newHeads.await,
        subscribedToHeads: newHeads.subscribed,
        head: read("eth_blockNumber", () => client.getBlockNumber({ cacheTime: 0 })),
        header,
        headers: (numbers) => Effect.forEach(numbers, header, { concurrency: settings.rpcConcurrency }),
        hashAtEachEndpoint: (number) => hashesAtEachEndpoint(endpoints ?? [], number, paced),
        logs,
        multicall: (multicall3, calls, blockNumber) =>
          read(
            "eth_call",
            () =>
              client.multicall({
                contracts: calls as never,
                multicallAddress: multicall3,
                blockNumber,
                allowFailure: true,
                // One eth_call per request: the caller sizes the chunks.
                batchSize: 0
              }) as Promise<ReadonlyArray<ViewResult>>
          ),
        call: ({ to, code, data, gas }, blockNumber) =>
          read("eth_call", async () => {
            const answer = await client.call({
              data,
              blockNumber,
              ...(to === undefined ? {} : { to }),
              ...(gas === undefined ? {} : { gas }),
              ...(to === undefined || code === undefined ? {} : { stateOverride: [{ address: to, code }] })
            })
            return answer.data ?? "0x"
          }),
        logsByTopic: byTopicOnly,
        logsMatching: (address, topics, filter, from, to) =>
          from > to
            ? Effect.succeed([] as ReadonlyArray<RawLog>)
            : Effect.suspend(() => {
                unsized.add(`${address}|${filter}`)
                return logsOfChunk(`${address}|${filter}`, [address], topics, from, to)
              }),
        blockLogs,
        canonicalPoolConfig: (tokenIsToken0, blockNumber) =>
          read("eth_call", () =>
            client.readContract({
              address: contracts.fireLaunch as Address,
              abi: readAbi.canonicalPoolConfig,
              functionName: "canonicalPoolConfig",
              args: [tokenIsToken0],
              ...(blockNumber === undefined ? {} : { blockNumber })
            })
          ).pipe(
            Effect.map(([fee, sqrtPriceX96, tickLower, tickUpper]) => ({ fee, sqrtPriceX96, tickLower, tickUpper }))
          ),
        tokenMetadata,
        tokensMetadata,
        logRange: Effect.sync(() => {
          const sizing = [...ranges].flatMap(([filter, range]) => (unsized.has(filter) ? [] : [range]))
          return sizing.length === 0 ? initialRange : Math.min(...sizing)
        })
      })
    })
  )
}
