import { Context, Data, Effect, Layer, Schedule } from "effect"
import { randomUUID } from "node:crypto"
import { formatUnits, getAddress } from "viem"
import { Chain } from "../../platform/Chain.ts"
import { addGasCost } from "../../../workers/routing/index.ts"
import type { QuoteResult, QuoteToken, TradeType } from "../../../workers/routing/types.ts"
import { L1DataFee } from "./L1DataFee.ts"
import { quoteChainFrom } from "./QuoteChains.ts"
import { KNOWN_CHAINS } from "./RoutingSettings.ts"
import { Allowlist } from "./Allowlist.ts"
import { PoolSnapshotLoader } from "./PoolSnapshotLoader.ts"
import { type MethodParameters, type RouterType, slippageBound } from "../../../workers/Calldata.ts"
import { quoteSettings } from "./QuoteConfig.ts"
import { fail, type QuoteFailure } from "./QuoteError.ts"
import { RouteFinder } from "./RouteFinder.ts"
import { TokenRegistry } from "./TokenRegistry.ts"
import { TransferCheck } from "./TransferCheck.ts"

/** A 400 outside the QuoteErrorReason list (allowlist, router options), with a stable code. */
export class QuoteRejected extends Data.TaggedError("QuoteRejected")<{
  readonly code: string
  readonly message: string
  readonly details?: Record<string, unknown>
}> {}

export interface QuoteInput {
  readonly chainId: string
  readonly tokenIn: string
  readonly tokenOut: string
  readonly amount: string
  readonly type: TradeType
  readonly slippage: { readonly numerator: bigint; readonly denominator: bigint }
  readonly recipient: `0x${string}`
  readonly routerType: RouterType
  readonly useRouterBalance: boolean
  readonly deadline?: bigint | undefined
  /** POST /api/v1/quote: tokens must be on the chain's allowlist. */
  readonly allowlist: boolean
}

export interface QuoteOutcome {
  readonly quoteId: string
  readonly chainId: number
  readonly input: QuoteInput
  readonly amount: bigint
  readonly tokenIn: QuoteToken
  readonly tokenOut: QuoteToken
  /** Every token of the route (intermediates too). */
  readonly tokens: ReadonlyMap<string, QuoteToken>
  /** Its gas figures include the L1 data fee on an OP-stack chain (L1DataFee.ts). */
  readonly result: QuoteResult
  readonly gasPriceWei: bigint
  /** The transaction's L1 data fee, counted in `result`; null on other chains or while the oracle's values are unknown. */
  readonly l1DataFeeWei: bigint | null
  readonly methodParameters: MethodParameters
  readonly bound: bigint
  readonly deadline: bigint
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/u
const AMOUNT = /^[0-9]{1,78}$/u
const MAX_UINT256 = (1n << 256n) - 1n
const ZERO = "0x0000000000000000000000000000000000000000"

/**
 * The quote pipeline: validate (chain, addresses, amount, options, allowlist), resolve the tokens, route (RouteFinder,
 * no RPC), encode calldata. Every failure is a QuoteFailure with a spec reason or a QuoteRejected (400).
 * AMOUNT_TOO_SMALL: `amount` below QUOTE_MIN_AMOUNT base units (default 1000), or an exactIn quote that pays out 0.
 */
export class Quotes extends Context.Service<
  Quotes,
  {
    readonly quote: (input: QuoteInput) => Effect.Effect<QuoteOutcome, QuoteFailure | QuoteRejected>
    readonly chainId: number
    /** Symbols and decimals of indexed tokens (from the pool snapshot; no RPC). */
    readonly tokens: (
      addresses: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyMap<string, { symbol: string; decimals: number }>>
  }
>()("app/quotes/Quotes") {
  static readonly layer = Layer.effect(
    Quotes,
    Effect.gen(function* () {
      const chain = yield* Chain
      const finder = yield* RouteFinder
      const registry = yield* TokenRegistry
      const transfers = yield* TransferCheck
      const l1 = yield* L1DataFee
      const allowlist = yield* Allowlist
      const loader = yield* PoolSnapshotLoader
      const settings = yield* quoteSettings
      const quoteChain = quoteChainFrom(chain.deployments)

      // Gas price: refreshed in the background (no RPC in the hot path); 1 gwei until the first answer.
      let gasPriceWei = 1_000_000_000n
      yield* Effect.forkScoped(
        Effect.tryPromise(() => chain.publicClient.getGasPrice()).pipe(
          Effect.tap((p) => Effect.sync(() => void (gasPriceWei = p))),
          Effect.ignore,
          Effect.repeat(Schedule.spaced("15 seconds"))
        )
      )

      const quote = Effect.fn("Quotes.quote")(function* (input: QuoteInput) {
        if (!/^[0-9]{1,10}$/u.test(input.chainId))
          return yield* fail("CHAIN_NOT_SUPPORTED", `unrecognized chain id ${input.chainId}`)
        const chainId = Number(input.chainId)
        if (chainId !== chain.chainId) {
          return yield* KNOWN_CHAINS.has(chainId)
            ? fail(
                "CHAIN_NOT_CONFIGURED",
                `chain ${chainId} (${KNOWN_CHAINS.get(chainId)}) is not enabled on this server; it serves ${chain.chainId}`
              )
            : fail("CHAIN_NOT_SUPPORTED", `unrecognized chain id ${chainId}`)
        }
        for (const [field, value] of [
          ["tokenIn", input.tokenIn],
          ["tokenOut", input.tokenOut]
        ] as const) {
          if (!ADDRESS.test(value))
            return yield* fail("INVALID_TOKEN_ADDRESS", `${field} is not an address: 0x + 40 hex digits`, {
              field,
              value
            })
        }
        const tokenInAddress = input.tokenIn.toLowerCase() as `0x${string}`
        const tokenOutAddress = input.tokenOut.toLowerCase() as `0x${string}`
        if (tokenInAddress === tokenOutAddress) {
          return yield* fail("INVALID_TOKEN_ADDRESS", "tokenIn and tokenOut are the same token", {
            field: "tokenOut",
            value: input.tokenOut
          })
        }
        if (!AMOUNT.test(input.amount) || BigInt(input.amount) === 0n || BigInt(input.amount) > MAX_UINT256) {
          return yield* fail(
            "INVALID_AMOUNT",
            "amount must be a positive integer in base units (decimal string, at most 2^256 − 1)",
            { value: input.amount }
          )
        }
        const amount = BigInt(input.amount)
        if (amount < settings.minAmount) {
          return yield* fail("AMOUNT_TOO_SMALL", `amount is below the minimum of ${settings.minAmount} base units`, {
            minimum: settings.minAmount.toString()
          })
        }
        if (input.useRouterBalance && input.routerType !== "universal") {
          return yield* new QuoteRejected({
            code: "ROUTER_BALANCE_NEEDS_UNIVERSAL",
            message: "useRouterBalance=true needs routerType=universal"
          })
        }
        if (input.allowlist) {
          const rejected = yield* allowlist.rejected(chainId, [tokenInAddress, tokenOutAddress])
          if (rejected.length > 0) {
            return yield* new QuoteRejected({
              code: "TOKEN_NOT_PERMITTED",
              message: "Token not permitted by allowlist",
              details: { addresses: rejected }
            })
          }
        }
        const [tokenIn, tokenOut] = yield* Effect.all([
          registry.resolve(tokenInAddress),
          registry.resolve(tokenOutAddress)
        ])
        if (input.routerType === "swap-router-02" && quoteChain.swapRouter02 === ZERO) {
          return yield* fail(
            "ROUTE_MISSING_METHOD_PARAMETERS",
            "calldata could not be generated: no SwapRouter02 in this chain's deployment"
          )
        }
        if (input.routerType === "universal" && quoteChain.universalRouter === ZERO) {
          return yield* fail(
            "ROUTE_MISSING_METHOD_PARAMETERS",
            "calldata could not be generated: no UniversalRouter in this chain's deployment"
          )
        }
        // From the chain's clock (the last indexed block), which a devnet may have moved ahead of the wall clock.
        const now = Math.max(Math.floor(Date.now() / 1000), Math.floor(loader.blockTimestamp()))
        const deadline = input.deadline ?? BigInt(now + settings.deadlineSeconds)
        // Read once: the background refresh may change it while the worker routes, and the answer's gasPriceWei must
        // be the price its gas figures were computed at.
        const gasPrice = gasPriceWei
        // The worker that finds the route encodes its calldata too (the SDKs' encoding is the costliest step).
        const outcome = yield* finder.quote(
          { tokenIn: tokenInAddress, tokenOut: tokenOutAddress, amount, type: input.type, gasPriceWei: gasPrice },
          {
            chainId: quoteChain.chainId,
            swapRouter02: quoteChain.swapRouter02,
            universalRouter: quoteChain.universalRouter,
            routerType: input.routerType,
            slippage: input.slippage,
            // Any case in, EIP-55 out: the SDK refuses a mixed-case address whose checksum is wrong (getAddress does not check it).
            recipient: getAddress(input.recipient),
            deadline,
            useRouterBalance: input.useRouterBalance,
            encoder: settings.calldataEncoder,
            tokens: [tokenIn, tokenOut]
          }
        )
        switch (outcome._tag) {
          case "NoPoolsAvailable":
            return yield* fail("NO_POOLS_AVAILABLE", "no pools hold the input or the output token")
          case "NoRoute":
            return yield* fail("NO_ROUTE", "no liquidity pools connect the pair")
          case "InsufficientLiquidity":
            return yield* fail("INSUFFICIENT_LIQUIDITY", "the pools connecting the pair cannot fill this amount")
        }
        const routed = outcome.quote
        if (routed.type === "exactIn" && routed.amountOut === 0n) {
          return yield* fail("AMOUNT_TOO_SMALL", "the amount is too small to buy any of the output token", {
            minimum: settings.minAmount.toString()
          })
        }
        yield* transfers.check([...new Set(routed.routes.flatMap((r) => r.path))])
        const tokens = new Map<string, QuoteToken>([
          [tokenIn.address, tokenIn],
          [tokenOut.address, tokenOut]
        ])
        for (const t of new Set(routed.routes.flatMap((r) => r.path))) {
          if (!tokens.has(t)) tokens.set(t, yield* registry.resolve(t))
        }
        const encoded = outcome.calldata
        if (encoded === null)
          return yield* fail(
            "ROUTE_MISSING_METHOD_PARAMETERS",
            "calldata could not be generated: the route finder returned none"
          )
        if (encoded._tag === "BuildFailed")
          return yield* fail("ROUTE_BUILD_FAILED", `the route could not be built: ${encoded.message}`)
        if (encoded._tag === "EncodeFailed")
          return yield* fail("ROUTE_MISSING_METHOD_PARAMETERS", `calldata could not be generated: ${encoded.message}`)
        const methodParameters: MethodParameters = { calldata: encoded.calldata, value: encoded.value, to: encoded.to }
        // An OP-stack chain also charges the transaction's L1 data fee, known only now that the calldata is: computed
        // locally from the oracle's values of a recent block (no RPC here) and counted in the gas cost; values not yet
        // read (or unreadable) leave the cost unknown (null) rather than understated.
        const l1DataFeeWei = l1.applies ? yield* l1.fee(methodParameters, routed.blockNumber) : null
        const result: QuoteResult = !l1.applies
          ? routed
          : l1DataFeeWei === null
            ? {
                ...routed,
                gasCostInQuoteToken: null,
                quoteGasAdjusted: routed.type === "exactIn" ? routed.amountOut : routed.amountIn
              }
            : addGasCost(routed, l1DataFeeWei)
        return {
          quoteId: randomUUID(),
          chainId,
          input,
          amount,
          tokenIn,
          tokenOut,
          tokens,
          result,
          gasPriceWei: gasPrice,
          l1DataFeeWei,
          methodParameters,
          bound: slippageBound(result, input.slippage),
          deadline
        } satisfies QuoteOutcome
      })

      return Quotes.of({
        quote,
        chainId: chain.chainId,
        tokens: (addresses) =>
          Effect.sync(() => {
            const out = new Map<string, { symbol: string; decimals: number }>()
            for (const address of addresses) {
              const t = finder.token(address)
              if (t !== undefined) out.set(t.address, { symbol: t.symbol ?? "", decimals: t.decimals })
            }
            return out
          })
      })
    })
  )
}

/** Display helpers of the responses. */
export const describe = (o: QuoteOutcome) => {
  const symbol = (a: string) => o.tokens.get(a)?.symbol ?? a.slice(0, 8)
  const routeString = o.result.routes
    .map(
      (r) =>
        `[V3] ${r.percent.toFixed(2)}% = ` +
        r.hops
          .map(
            (h, i) => `${i === 0 ? symbol(h.tokenIn) : ""} -- ${h.fee / 10_000}% [${h.pool}] --> ${symbol(h.tokenOut)}`
          )
          .join("")
    )
    .join(", ")
  const quote = o.result.type === "exactIn" ? o.result.amountOut : o.result.amountIn
  const quoteToken = o.result.type === "exactIn" ? o.tokenOut : o.tokenIn
  return { routeString, quote, quoteDecimals: formatUnits(quote, quoteToken.decimals) }
}
