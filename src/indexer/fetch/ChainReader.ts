import { Context, Effect, Layer } from "effect"
import { type Address, type Hex, hexToBigInt, numberToHex } from "viem"
import { readAbi } from "../Abis.ts"
import { IndexerConfig } from "../IndexerConfig.ts"
import { IndexerSource } from "../IndexerSource.ts"
import { makeAdaptiveGetLogs } from "./AdaptiveGetLogs.ts"
import { makeBlockLogs } from "./BlockLogs.ts"
import type {
  BlockHeader,
  CanonicalPoolConfig,
  RawLog,
  RpcRead,
  RpcRequest,
  TokenMetadata,
  TopicFilter,
  ViewCall,
  ViewResult
} from "./ChainReaderTypes.ts"
import { type EndpointHash, hashesAtEachEndpoint } from "./EndpointHashes.ts"
import { makeNewHeads, type NewHeads } from "./NewHeads.ts"
import { makeRateLimit } from "./RateLimit.ts"
import { rpcCall, RpcError, rpcRetry } from "./RpcError.ts"
import { makeTokenMetadataReads } from "./TokenMetadataReads.ts"
import { makeViewMulticall } from "./ViewMulticall.ts"

export { INITIAL_BLOCK_RANGE } from "./AdaptiveGetLogs.ts"
export type {
  BlockHeader,
  CanonicalPoolConfig,
  RawLog,
  TokenMetadata,
  TopicFilter,
  ViewCall,
  ViewResult
} from "./ChainReaderTypes.ts"

/**
 * The fetch stage: every RPC the indexer makes, each waiting for its slot under INDEXER_RPC_RPS; every call retries
 * transport errors and rate limits with backoff (RpcError.ts). Its parts: eth_getLogs over ranges that adapt to the
 * chain's density (AdaptiveGetLogs.ts), a block's logs by its hash (BlockLogs.ts), ERC-20 metadata
 * (TokenMetadataReads.ts), view calls through Multicall3 (ViewMulticall.ts); the values they answer are in
 * ChainReaderTypes.ts.
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
     * call, in order; the eth_call retried like any other, a failure no retry cures failed (ViewMulticall.ts). Callers
     * chunk large sets (Bootstrap.ts).
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
      // Every call of the reader (retries included) waits for its slot under INDEXER_RPC_RPS.
      const paced = makeRateLimit(settings.rpcRequestsPerSecond)
      const call = <A>(method: string, f: () => Promise<A>) => paced(rpcCall(method, f))
      const request: RpcRequest = <A>(method: string, params: ReadonlyArray<unknown>) =>
        call(method, () => client.request({ method, params } as never) as Promise<A>)
      const read: RpcRead = (method, f) => rpcRetry(call(method, f))

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

      const getLogs = makeAdaptiveGetLogs(request, settings)
      const { tokenMetadata, tokensMetadata } = makeTokenMetadataReads(client, read, settings.rpcConcurrency)
      const newHeads = yield* makeNewHeads(heads)

      return ChainReader.of({
        awaitNewHead: newHeads.await,
        subscribedToHeads: newHeads.subscribed,
        head: read("eth_blockNumber", () => client.getBlockNumber({ cacheTime: 0 })),
        header,
        headers: (numbers) => Effect.forEach(numbers, header, { concurrency: settings.rpcConcurrency }),
        hashAtEachEndpoint: (number) => hashesAtEachEndpoint(endpoints ?? [], number, paced),
        logs: getLogs.logs,
        logsByTopic: getLogs.logsByTopic,
        logsMatching: getLogs.logsMatching,
        logRange: getLogs.logRange,
        blockLogs: makeBlockLogs(request, header),
        multicall: makeViewMulticall(client, read),
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
        tokensMetadata
      })
    })
  )
}
