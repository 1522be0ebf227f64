import { Effect } from "effect"
import type { Address, PublicClient } from "viem"
import { decodeTokenText, TOKEN_TEXT_SELECTORS } from "../../platform/TokenText.ts"
import { readAbi } from "../Abis.ts"
import type { RpcRead, TokenMetadata } from "./ChainReaderTypes.ts"
import { classifyRpcError, type RpcError } from "./RpcError.ts"

/**
 * Tokens per Multicall3 eth_call of `tokensMetadata` (four view calls each). The call is deployless: the aggregate's
 * answer is returned as the code of a contract being created, which EIP-170 caps at 24,576 bytes (the node answers
 * `CreateContractSizeLimit` past it); a token's four answers take about 800 bytes with short texts. A chunk that still
 * passes the cap (long names) is read token by token.
 */
const METADATA_TOKENS_PER_CALL = 20
/** The deployless aggregate's answer was larger than a contract's code may be (see METADATA_TOKENS_PER_CALL). */
const answerTooLarge = (error: unknown) => /CreateContractSizeLimit|max code size|code size limit/i.test(String(error))

const metadataFields = ["name", "symbol", "decimals", "totalSupply"] as const

/** One token's four answers of the aggregate as its metadata; undefined unless all four decoded. */
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

/**
 * ChainReader's `tokenMetadata` and `tokensMetadata`: ERC-20 metadata, token by token or several tokens in one
 * deployless Multicall3 eth_call, at the batch's block or, once that state proved missing, at the head.
 */
export const makeTokenMetadataReads = (client: PublicClient, read: RpcRead, concurrency: number) => {
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
          : (yield* Effect.forEach(chunks, together, { concurrency })).flat()
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

  return { tokenMetadata, tokensMetadata }
}
