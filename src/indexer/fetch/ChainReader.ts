import { Context, Effect, Layer, Ref } from "effect"
import { type Address, type Hex, hexToBigInt, hexToNumber, numberToHex } from "viem"
import { readAbi } from "../Abis.ts"
import { IndexerConfig } from "../IndexerConfig.ts"
import { IndexerSource } from "../IndexerSource.ts"
import { rpcCall, RpcError, rpcRetry } from "./RpcError.ts"
import { makeNewHeads, type NewHeads } from "./NewHeads.ts"

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

export interface BlockHeader {
  readonly number: bigint
  readonly hash: string
  readonly parentHash: string
  readonly timestamp: bigint
}

export interface TokenMetadata {
  readonly name: string
  readonly symbol: string
  readonly decimals: number
  readonly totalSupply: bigint
}

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

/**
 * The fetch stage: every RPC the indexer makes. eth_getLogs adapts its block range (halved on a range/size error,
 * doubled back after successes, never above INDEXER_MAX_BLOCK_RANGE); every call retries transport errors and rate
 * limits with backoff. The range is shared by all calls, so one refusal teaches every later request.
 */
export class ChainReader extends Context.Service<ChainReader, {
  readonly head: Effect.Effect<bigint, RpcError>
  readonly header: (number: bigint) => Effect.Effect<BlockHeader, RpcError>
  readonly headers: (numbers: ReadonlyArray<bigint>) => Effect.Effect<ReadonlyArray<BlockHeader>, RpcError>
  /** Logs of the given addresses (chunked) and topic0s over [from, to], sorted by (block, logIndex). */
  readonly logs: (
    addresses: ReadonlyArray<string>,
    topic0s: ReadonlyArray<Hex>,
    from: bigint,
    to: bigint
  ) => Effect.Effect<ReadonlyArray<RawLog>, RpcError>
  /** At `blockNumber`, or at the head when undefined. */
  readonly canonicalPoolConfig: (tokenIsToken0: boolean, blockNumber: bigint | undefined) => Effect.Effect<CanonicalPoolConfig, RpcError>
  /** ERC-20 metadata; a token that does not answer a field gets a neutral value rather than stopping the indexer. */
  readonly tokenMetadata: (token: string, blockNumber: bigint) => Effect.Effect<TokenMetadata, RpcError>
  /** The current eth_getLogs range (for status and tests). */
  readonly logRange: Effect.Effect<number>
  /** Waits at the head: for a new-heads notification over WebSocket (the poll interval as fallback), else sleeps it. */
  readonly awaitNewHead: NewHeads["await"]
  /** True when new heads come from an `eth_subscribe("newHeads")` subscription (RPC URL ws:// or wss://). */
  readonly subscribedToHeads: boolean
}>()("app/indexer/ChainReader") {
  static readonly layer = Layer.effect(
    ChainReader,
    Effect.gen(function*() {
      const { client, contracts } = yield* IndexerSource
      const settings = yield* IndexerConfig
      const range = yield* Ref.make(settings.maxBlockRange)
      const request = <A>(method: string, params: ReadonlyArray<unknown>) =>
        rpcCall(method, () => client.request({ method, params } as never) as Promise<A>)

      const header = (number: bigint) =>
        rpcRetry(request<{ number: Hex; hash: string; parentHash: string; timestamp: Hex } | null>(
          "eth_getBlockByNumber",
          [numberToHex(number), false]
        ).pipe(Effect.flatMap((b) =>
          b === null
            ? Effect.fail(new RpcError({ kind: "retryable", method: "eth_getBlockByNumber", message: `no block ${number}` }))
            : Effect.succeed<BlockHeader>({
              number: hexToBigInt(b.number),
              hash: b.hash.toLowerCase(),
              parentHash: b.parentHash.toLowerCase(),
              timestamp: hexToBigInt(b.timestamp)
            })
        )))

      const getLogsOnce = (addresses: ReadonlyArray<string>, topic0s: ReadonlyArray<Hex>, from: bigint, to: bigint) =>
        rpcRetry(request<Array<RpcLog>>("eth_getLogs", [{
          address: addresses,
          topics: [topic0s],
          fromBlock: numberToHex(from),
          toBlock: numberToHex(to)
        }])).pipe(Effect.map((logs) =>
          logs.map((l): RawLog => ({
            address: l.address.toLowerCase(),
            topics: l.topics,
            data: l.data,
            blockNumber: hexToBigInt(l.blockNumber),
            blockHash: l.blockHash.toLowerCase(),
            logIndex: hexToNumber(l.logIndex),
            transactionHash: l.transactionHash.toLowerCase(),
            blockTimestamp: l.blockTimestamp === undefined ? undefined : hexToBigInt(l.blockTimestamp)
          }))
        ))

      // Walks [from, to] in steps of the current range; a range refusal halves it and retries the same start.
      const logsOfChunk = (addresses: ReadonlyArray<string>, topic0s: ReadonlyArray<Hex>, from: bigint, to: bigint) =>
        Effect.gen(function*() {
          const out: Array<RawLog> = []
          let start = from
          while (start <= to) {
            const size = yield* Ref.get(range)
            const end = start + BigInt(size) - 1n < to ? start + BigInt(size) - 1n : to
            const result = yield* getLogsOnce(addresses, topic0s, start, end).pipe(Effect.result)
            if (result._tag === "Failure") {
              const error = result.failure
              if (error.kind !== "range" || end === start) return yield* error
              const smaller = Math.max(1, Math.floor(Number(end - start + 1n) / 2))
              yield* Ref.set(range, smaller)
              yield* Effect.logDebug(`eth_getLogs range refused (${error.message}); trying ${smaller} blocks`)
              continue
            }
            for (const log of result.success) out.push(log)
            start = end + 1n
            yield* Ref.update(range, (r) => Math.min(settings.maxBlockRange, r * 2))
          }
          return out
        })

      const logs = (addresses: ReadonlyArray<string>, topic0s: ReadonlyArray<Hex>, from: bigint, to: bigint) => {
        if (addresses.length === 0 || from > to) return Effect.succeed([] as ReadonlyArray<RawLog>)
        const chunks: Array<ReadonlyArray<string>> = []
        for (let i = 0; i < addresses.length; i += settings.addressesPerRequest) {
          chunks.push(addresses.slice(i, i + settings.addressesPerRequest))
        }
        return Effect.forEach(chunks, (chunk) => logsOfChunk(chunk, topic0s, from, to), {
          concurrency: Math.min(4, settings.rpcConcurrency)
        }).pipe(Effect.map((parts) =>
          parts.flat().sort((a, b) =>
            a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1
          )
        ))
      }

      const read = <A>(method: string, f: () => Promise<A>) => rpcRetry(rpcCall(method, f))
      const newHeads = yield* makeNewHeads(client)

      return ChainReader.of({
        awaitNewHead: newHeads.await,
        subscribedToHeads: newHeads.subscribed,
        head: rpcRetry(rpcCall("eth_blockNumber", () => client.getBlockNumber({ cacheTime: 0 }))),
        header,
        headers: (numbers) => Effect.forEach(numbers, header, { concurrency: settings.rpcConcurrency }),
        logs,
        canonicalPoolConfig: (tokenIsToken0, blockNumber) =>
          read("eth_call", () =>
            client.readContract({
              address: contracts.fireLaunch as Address,
              abi: readAbi.canonicalPoolConfig,
              functionName: "canonicalPoolConfig",
              args: [tokenIsToken0],
              ...(blockNumber === undefined ? {} : { blockNumber })
            })).pipe(Effect.map(([fee, sqrtPriceX96, tickLower, tickUpper]) => ({ fee, sqrtPriceX96, tickLower, tickUpper }))),
        tokenMetadata: (token, blockNumber) => {
          // At the batch's block; a node without state that old answers at the head (ERC-20 metadata does not
          // change); a token that does not implement a field gets a neutral value.
          const at = <A>(functionName: "name" | "symbol" | "decimals" | "totalSupply", block: bigint | undefined) =>
            read("eth_call", () =>
              client.readContract({
                address: token as Address,
                abi: readAbi.erc20,
                functionName,
                ...(block === undefined ? {} : { blockNumber: block })
              }) as Promise<A>)
          const field = <A>(functionName: "name" | "symbol" | "decimals" | "totalSupply", fallback: A) =>
            at<A>(functionName, blockNumber).pipe(
              Effect.catchIf((e) => e.kind === "fatal", () => at<A>(functionName, undefined)),
              Effect.catchIf((e) => e.kind === "fatal", () => Effect.succeed(fallback))
            )
          return Effect.all({
            name: field("name", ""),
            symbol: field("symbol", ""),
            decimals: field("decimals", 18),
            totalSupply: field("totalSupply", 0n)
          }, { concurrency: 4 })
        },
        logRange: Ref.get(range)
      })
    })
  )
}
