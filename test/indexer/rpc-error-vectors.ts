/**
 * Hosted providers' real eth_getLogs refusals, as the error objects viem throws for them (an RpcRequestError carries
 * `code` and `message`; an HTTP error status carries the JSON body in `details`). `hint` is the range in blocks the
 * text says to ask instead (undefined: none, halve). Each text is quoted from a public report, cited in `seen`.
 * The fault-injecting proxy answers with the same texts.
 */
export interface RangeErrorVector {
  readonly provider: string
  readonly seen: string
  readonly code: number
  readonly message: string
  /** The HTTP status the provider sends it with (200 when it is a JSON-RPC error in an ordinary answer). */
  readonly httpStatus: number
  readonly hint: number | undefined
}

export const rangeErrorVectors: ReadonlyArray<RangeErrorVector> = [
  {
    provider: "Alchemy (response size)",
    seen: "https://github.com/ethereum/go-ethereum/issues/25343",
    code: -32602,
    message:
      "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on " +
      "the response size, or you can request any block range with a cap of 10K logs in the response. Based on your " +
      "parameters and the response size limit, this block range should work: [0x0, 0x87fe9]",
    httpStatus: 200,
    hint: 0x87fe9 + 1
  },
  {
    provider: "Alchemy (block range)",
    seen: "https://github.com/boundless-xyz/boundless/issues/838",
    code: -32600,
    message:
      "You can make eth_getLogs requests with up to a 500 block range. Based on your parameters, this block range " +
      "should work: [0x1a30dfd, 0x1a30ff0]",
    httpStatus: 400,
    hint: 0x1a30ff0 - 0x1a30dfd + 1
  },
  {
    provider: "Infura (result count)",
    seen: "https://github.com/status-im/nimbus-eth2/issues/1823",
    code: -32005,
    message: "query returned more than 10000 results",
    httpStatus: 200,
    hint: undefined
  },
  {
    provider: "Infura (block range)",
    seen: "https://github.com/INFURA/infura/issues/237",
    code: -32602,
    message: "range 1000000 exceeds limit of 10000",
    httpStatus: 200,
    hint: 10_000
  },
  {
    provider: "QuickNode",
    seen: "https://github.com/eternalsafe/wallet/issues/57 (HTTP 413)",
    code: -32614,
    message: "eth_getLogs is limited to a 10,000 range",
    httpStatus: 413,
    hint: 10_000
  },
  {
    provider: "dRPC (free tier)",
    seen:
      "answered by eth.drpc.org with code 35; quoted verbatim in public RPC-adapter code and test fixtures (found by " +
      "a code search; no issue thread of dRPC's own)",
    code: 35,
    message: "ranges over 10000 blocks are not supported on freetier",
    httpStatus: 400,
    hint: 10_000
  },
  {
    provider: "BlastAPI (public endpoint)",
    seen:
      'eth-mainnet.public.blastapi.io, quoted as -32600 "up to a 10 block range" (only that fragment is public; the ' +
      "sentence around it follows Alchemy's wording)",
    code: -32600,
    message: "You can make eth_getLogs requests with up to a 10 block range.",
    httpStatus: 400,
    hint: 10
  },
  {
    provider: "Blast (rpc.blast.io)",
    seen: "https://github.com/ponder-sh/ponder/blob/main/packages/utils/src/_test/blast.test.ts",
    code: -32614,
    message: "eth_getLogs is limited to a 10,000 range",
    httpStatus: 413,
    hint: 10_000
  },
  {
    provider: "Ankr (too wide)",
    seen: "https://github.com/ponder-sh/ponder/blob/main/packages/utils/src/getLogsRetryHelper.ts (code -32600)",
    code: -32600,
    message: "block range is too wide",
    httpStatus: 200,
    hint: undefined
  },
  {
    provider: "Ankr (blocks distance)",
    seen: "https://github.com/ponder-sh/ponder/issues/1940",
    code: -32602,
    message: "maximum [from, to] blocks distance: 10000",
    httpStatus: 200,
    hint: 10_000
  },
  {
    provider: "Chainstack",
    seen: "https://github.com/matter-labs/zksync-era/pull/2974",
    code: -32602,
    message: "Block range limit exceeded. See more details at https://docs.chainstack.com/docs/limits#evm-range-limits",
    httpStatus: 200,
    hint: undefined
  },
  {
    provider: "LlamaRPC",
    seen: "https://github.com/ponder-sh/ponder/blob/main/packages/utils/src/_test/llamarpc.test.ts",
    code: -32602,
    message: "query exceeds max results 20000",
    httpStatus: 200,
    hint: undefined
  },
  {
    provider: "LlamaRPC (with a range)",
    seen:
      'quoted as "query exceeds max results 20000, retry with the range 1-2" in public log-range test vectors ' +
      "(found by a code search)",
    code: -32602,
    message: "query exceeds max results 20000, retry with the range 1-2",
    httpStatus: 200,
    hint: 2
  }
]

/** The error viem throws for a vector: an RpcRequestError for a 200 answer, an HttpRequestError otherwise. */
export const viemErrorOf = (v: RangeErrorVector) =>
  v.httpStatus === 200
    ? {
        name: "RpcRequestError",
        code: v.code,
        message: v.message,
        details: v.message,
        shortMessage: "RPC Request failed."
      }
    : {
        name: "HttpRequestError",
        status: v.httpStatus,
        shortMessage: "HTTP request failed.",
        details: JSON.stringify({ code: v.code, message: v.message }),
        message: `HTTP request failed. Status: ${v.httpStatus}`
      }
