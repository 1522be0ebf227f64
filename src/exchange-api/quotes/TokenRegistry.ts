import { Context, Effect, Layer } from "effect"
import { BaseError, ContractFunctionRevertedError, ContractFunctionExecutionError, parseAbi } from "viem"
import { Chain } from "../../platform/Chain.ts"
import { decodeTokenText, TOKEN_TEXT_SELECTORS } from "../../platform/TokenText.ts"
import { RouteFinder } from "./RouteFinder.ts"
import type { QuoteToken } from "../../../workers/routing/types.ts"
import { fail, type QuoteFailure } from "./QuoteError.ts"
import { rpcUnavailable } from "../RpcUnavailable.ts"

const erc20 = parseAbi(["function decimals() view returns (uint8)"])

/**
 * Token facts a quote needs (decimals, symbol). Indexed tokens come from the pool snapshot (no RPC); any other
 * address is checked on chain once and cached for the life of the process: no code → 500 TOKEN_NOT_FOUND (not a
 * deployed contract); code but `decimals()` reverts or answers garbage → 500 TOKEN_DECIMALS_FETCH_FAILED; the RPC
 * down, timing out or rate-limiting → 503 RPC_UNAVAILABLE with `details.retryAfterSeconds` (a retry may succeed);
 * any other RPC failure → 500 RPC_ERROR. Failures are not cached. The decimals a client passes are not trusted:
 * the chain's value wins.
 */
export class TokenRegistry extends Context.Service<
  TokenRegistry,
  {
    readonly resolve: (address: `0x${string}`) => Effect.Effect<QuoteToken, QuoteFailure>
  }
>()("app/quotes/TokenRegistry") {
  static readonly layer = Layer.effect(
    TokenRegistry,
    Effect.gen(function* () {
      const chain = yield* Chain
      const finder = yield* RouteFinder
      const cache = new Map<string, QuoteToken>()

      const rpc = <A>(what: string, f: () => Promise<A>) =>
        Effect.tryPromise({ try: f, catch: (cause) => cause }).pipe(
          Effect.mapError((cause) => {
            if (isRevert(cause)) return { revert: true as const, cause }
            const unavailable = rpcUnavailable(cause)
            return unavailable === undefined
              ? fail("RPC_ERROR", `RPC failed (${what}): ${short(cause)}`)
              : fail("RPC_UNAVAILABLE", `${unavailable.error} (${what})`, unavailable.details)
          })
        )

      const fromChain = (address: `0x${string}`) =>
        Effect.gen(function* () {
          const code = yield* rpc("eth_getCode", () => chain.publicClient.getCode({ address })).pipe(
            Effect.catch((e) => Effect.fail("revert" in e ? fail("RPC_ERROR", "eth_getCode failed") : e))
          )
          if (code === undefined || code === "0x") {
            return yield* fail("TOKEN_NOT_FOUND", `${address} is not a deployed ERC-20 (no contract code)`, { address })
          }
          const decimals = yield* rpc("decimals", () =>
            chain.publicClient.readContract({ address, abi: erc20, functionName: "decimals" })
          ).pipe(
            Effect.catch((e) =>
              Effect.fail(
                "revert" in e
                  ? fail("TOKEN_DECIMALS_FETCH_FAILED", `decimals() of ${address} could not be read`, { address })
                  : e
              )
            )
          )
          // Raw call: a bytes32 symbol (MKR style) decodes too (src/platform/TokenText.ts).
          const symbol = yield* rpc("symbol", () =>
            chain.publicClient.call({ to: address, data: TOKEN_TEXT_SELECTORS.symbol })
          ).pipe(
            Effect.map(({ data }) => (data === undefined ? null : decodeTokenText(data))),
            Effect.catch(() => Effect.succeed(null)),
            Effect.map((text) => (text === null || text === "" ? address.slice(0, 8) : text))
          )
          return { address, decimals: Number(decimals), symbol }
        })

      return TokenRegistry.of({
        resolve: (raw) =>
          Effect.suspend(() => {
            const address = raw.toLowerCase() as `0x${string}`
            const hit = cache.get(address)
            if (hit !== undefined) return Effect.succeed(hit)
            const indexed = finder.token(address)
            if (indexed !== undefined)
              return Effect.succeed({ address, decimals: indexed.decimals, symbol: indexed.symbol ?? "" })
            return Effect.tap(fromChain(address), (t) => Effect.sync(() => cache.set(address, t)))
          })
      })
    })
  )
}

/** A contract answered (reverted or returned data that does not decode): a fact about the address, not the RPC. */
const isRevert = (cause: unknown) =>
  cause instanceof BaseError &&
  (cause.walk((e) => e instanceof ContractFunctionRevertedError) !== null ||
    (cause instanceof ContractFunctionExecutionError && /returned no data|reverted|decode/iu.test(cause.message)))

const short = (cause: unknown) => (cause instanceof BaseError ? cause.shortMessage : String(cause)).slice(0, 200)
