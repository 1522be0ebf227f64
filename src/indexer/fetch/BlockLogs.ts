import { Effect } from "effect"
import type { Hex } from "viem"
import { coversBloom, inBloom, isZeroBloom } from "./Bloom.ts"
import { type BlockHeader, type RawLog, type RpcLog, type RpcRequest, toRawLog } from "./ChainReaderTypes.ts"
import { RpcError, rpcRetry } from "./RpcError.ts"

/**
 * ChainReader's `blockLogs`, over `request` and `header` (the reader's eth_getBlockByNumber, retried).
 *
 * Near the head (the blocks within FINALITY_DEPTH), a block's logs are read by its hash, all of them, and kept
 * only if they are that block's: each names the hash, and together they set every bit of the header's
 * logsBloom. A node behind a load balancer that does not have the block yet answers a range over it with no
 * logs (or cuts the range at its head) and some answer [] for its hash: the bloom tells, and the same request is
 * asked again (another node answers, or this one catches up). Why all logs and not the filters': it is one call
 * per block whatever the number of filters and address chunks (a filtered answer cannot be checked against the
 * bloom: a bit set by another contract's log looks the same), and none when the bloom holds no topic we follow.
 * Measured on the devnet, one block per step (test/indexer/HeadLogs.test.ts): 2.06 eth_getLogs per block with a
 * range per filter, at most 1 read by hash. The cost is the size of a busy block's answer (every log in it).
 */
export const makeBlockLogs =
  (request: RpcRequest, header: (number: bigint) => Effect.Effect<BlockHeader, RpcError>) =>
  (h: BlockHeader, topic0s: ReadonlyArray<Hex>): Effect.Effect<ReadonlyArray<RawLog>, RpcError> => {
    const bloom = h.logsBloom
    // A zero bloom is an empty block, or a chain that does not fill blooms: asked (it answers [] if empty).
    if (bloom !== undefined && !isZeroBloom(bloom) && !topic0s.some((t) => inBloom(bloom, t)))
      return Effect.succeed([] as ReadonlyArray<RawLog>)
    const incomplete = (message: string) =>
      Effect.fail(new RpcError({ kind: "retryable", method: "eth_getLogs", message: `block ${h.number}: ${message}` }))
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
