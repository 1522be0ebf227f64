import { Context, Effect, Layer } from "effect"
import { defineChain } from "viem"
import { chainConfig, estimateL1Fee } from "viem/op-stack"
import { Chain } from "../../platform/Chain.ts"
import { redactedErrorText } from "../../platform/RedactUrl.ts"
import { quoteSettings } from "./QuoteConfig.ts"
import { chainProfileOf } from "./RoutingSettings.ts"

/** The transaction a quote returns (its methodParameters). */
export interface QuotedTransaction {
  readonly to: `0x${string}`
  readonly calldata: `0x${string}`
  /** Wei, hex. */
  readonly value: `0x${string}`
}

/** Fees kept per block: more would only be identical quotes of that block, and a burst must not grow the map. */
const CACHE_LIMIT = 10_000

/**
 * The L1 data fee an OP-stack rollup (Base, OP Mainnet…) charges a transaction on top of its L2 execution gas: the
 * cost of posting its bytes to Ethereum, which the gas model fitted on anvil (workers/routing/Gas.ts) knows nothing
 * of. Read from the chain's GasPriceOracle predeploy (0x4200…000F) by viem's `estimateL1Fee`: `getL1Fee(bytes)` of
 * the transaction serialised as an unsigned EIP-1559 transaction (viem fills gas, fees and nonce with fixed stand-ins;
 * they change a few bytes, never the calldata's), so the oracle applies whichever formula the chain runs (Ecotone,
 * Fjord's compression estimate). The calldata carries the amounts and the deadline, so fees are kept per indexed
 * block and exact transaction only. Which chains pay one: RoutingSettings.ts CHAIN_PROFILES, QUOTE_OP_STACK.
 */
export class L1DataFee extends Context.Service<
  L1DataFee,
  {
    /** True on an OP-stack chain: quotes count `fee`'s answer in their gas cost. */
    readonly applies: boolean
    /** The fee in wei (0 when `applies` is false); null when the oracle could not be read (logged). */
    readonly fee: (tx: QuotedTransaction, block: bigint) => Effect.Effect<bigint | null>
  }
>()("app/quotes/L1DataFee") {
  static readonly layer = Layer.effect(
    L1DataFee,
    Effect.gen(function* () {
      const chain = yield* Chain
      const settings = yield* quoteSettings
      const applies = settings.opStack ?? chainProfileOf(chain.chainId).opStack
      if (!applies) return L1DataFee.of({ applies, fee: () => Effect.succeed(0n) })

      // The chain id goes into the serialised transaction; chainConfig names the GasPriceOracle predeploy.
      const rollup = defineChain({
        ...chainConfig,
        id: chain.chainId,
        name: chainProfileOf(chain.chainId).name,
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [] } }
      })
      let cachedBlock = -1n
      const cached = new Map<string, bigint>()
      // An oracle that is down fails every quote: one warning per block, not one per quote.
      let warnedBlock = -1n

      const fee = (tx: QuotedTransaction, block: bigint) =>
        Effect.gen(function* () {
          if (block !== cachedBlock) {
            cached.clear()
            cachedBlock = block
          }
          const key = `${tx.to}|${tx.value}|${tx.calldata}`
          const known = cached.get(key)
          if (known !== undefined) return known
          const wei = yield* Effect.tryPromise(() =>
            estimateL1Fee(chain.publicClient, {
              chain: rollup,
              // Required by the type; an unsigned transaction has no sender, so it changes no byte of the fee's input.
              account: "0x0000000000000000000000000000000000000000",
              to: tx.to,
              data: tx.calldata,
              value: BigInt(tx.value)
            })
          ).pipe(Effect.timeout("2 seconds"))
          if (block === cachedBlock && cached.size < CACHE_LIMIT) cached.set(key, wei)
          return wei
        }).pipe(
          Effect.catchCause((cause) => {
            if (warnedBlock === block) return Effect.succeed(null)
            warnedBlock = block
            return Effect.as(
              Effect.logWarning(
                `quotes: the L1 data fee could not be read at block ${block} (quotes answer gasUseEstimateQuote null): ` +
                  redactedErrorText(cause).slice(0, 500)
              ),
              null
            )
          })
        )

      return L1DataFee.of({ applies, fee })
    })
  )
}
