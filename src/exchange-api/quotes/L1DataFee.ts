import { Context, Effect, Layer, Schedule } from "effect"
import { parseAbi } from "viem"
import { Chain } from "../../platform/Chain.ts"
import { redactedErrorText } from "../../platform/RedactUrl.ts"
import { l1Fee, type OracleParams, type QuotedTransaction, unsignedTransaction } from "./L1FeeFormula.ts"
import { quoteSettings } from "./QuoteConfig.ts"
import { chainProfileOf } from "./RoutingSettings.ts"

export type { QuotedTransaction } from "./L1FeeFormula.ts"

/** The OP-stack GasPriceOracle predeploy, the same address on every OP-stack chain. */
export const GAS_PRICE_ORACLE = "0x420000000000000000000000000000000000000F"

const oracleAbi = parseAbi([
  "function isEcotone() view returns (bool)",
  "function isFjord() view returns (bool)",
  "function l1BaseFee() view returns (uint256)",
  "function blobBaseFee() view returns (uint256)",
  "function baseFeeScalar() view returns (uint32)",
  "function blobBaseFeeScalar() view returns (uint32)"
])

/**
 * How many blocks behind a quote's block the oracle's values may be read and still price it. They follow L1 (a new
 * L1 block every 12 s, its base fee moving at most 12.5 %), and while quotes come in they are read again at each new
 * block; older ones (an idle server) give null until the read of the new block lands.
 */
export const MAX_PARAMS_LAG_BLOCKS = 10n

/** How often the values are read at the chain's head whatever the quotes (the first read at the start). */
const IDLE_READ_INTERVAL = "5 seconds"

/**
 * The L1 data fee an OP-stack rollup (Base, OP Mainnet…) charges a transaction on top of its L2 execution gas: the
 * cost of posting its bytes to Ethereum, which the gas model fitted on anvil (workers/routing/Gas.ts) knows nothing
 * of. No RPC in a quote: the GasPriceOracle predeploy's inputs (Ecotone or Fjord, the L1 base and blob base fees,
 * their scalars) are read in the background, at most once per block: the first quote of a newer indexed block starts
 * the read (the quotes meanwhile use the previous block's values), and so does the chain's head every
 * IDLE_READ_INTERVAL, for an idle server. The fee of the quoted transaction is computed locally with the predeploy's
 * own formula (L1FeeFormula.ts). Which chains pay one: RoutingSettings.ts CHAIN_PROFILES, QUOTE_OP_STACK.
 */
export class L1DataFee extends Context.Service<
  L1DataFee,
  {
    /** True on an OP-stack chain: quotes count `fee`'s answer in their gas cost. */
    readonly applies: boolean
    /**
     * The fee in wei (0 when `applies` is false); null while no values read within MAX_PARAMS_LAG_BLOCKS of `block`
     * are known (none read yet, or the oracle unreadable: logged once per block).
     */
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
      const scope = yield* Effect.scope

      let known: { readonly block: bigint; readonly params: OracleParams } | undefined
      // The newest block whose read was started: one read per block, whatever the number of quotes.
      let requestedBlock = -1n

      const read = (block: bigint) =>
        Effect.tryPromise(async () => {
          const at = { address: GAS_PRICE_ORACLE, abi: oracleAbi, blockNumber: block } as const
          const client = chain.publicClient
          const [ecotone, fjord, l1BaseFee, blobBaseFee, baseFeeScalar, blobBaseFeeScalar] = await Promise.all([
            client.readContract({ ...at, functionName: "isEcotone" }),
            client.readContract({ ...at, functionName: "isFjord" }),
            client.readContract({ ...at, functionName: "l1BaseFee" }),
            client.readContract({ ...at, functionName: "blobBaseFee" }),
            client.readContract({ ...at, functionName: "baseFeeScalar" }),
            client.readContract({ ...at, functionName: "blobBaseFeeScalar" })
          ])
          // A pre-Ecotone oracle (no OP-stack chain has run one since March 2024) prices with other inputs.
          if (!ecotone) throw new Error("the GasPriceOracle is not Ecotone or later")
          return {
            fjord,
            l1BaseFee,
            blobBaseFee,
            baseFeeScalar: BigInt(baseFeeScalar),
            blobBaseFeeScalar: BigInt(blobBaseFeeScalar)
          } satisfies OracleParams
        }).pipe(
          Effect.timeout("2 seconds"),
          Effect.tap((params) =>
            Effect.sync(() => {
              if (known === undefined || block > known.block) known = { block, params }
            })
          ),
          Effect.catchCause((cause) =>
            Effect.logWarning(
              `quotes: the L1 data fee's oracle could not be read at block ${block} (quotes answer gasUseEstimateQuote ` +
                `null until a read succeeds): ${redactedErrorText(cause).slice(0, 500)}`
            )
          ),
          Effect.asVoid
        )

      const fee = (tx: QuotedTransaction, block: bigint) =>
        Effect.gen(function* () {
          if (block > requestedBlock && (known === undefined || block > known.block)) {
            requestedBlock = block
            yield* Effect.forkIn(read(block), scope)
          }
          const current = known
          if (current === undefined) return null
          const lag = block - current.block
          if (lag > MAX_PARAMS_LAG_BLOCKS) return null
          return l1Fee(current.params, unsignedTransaction(tx, chain.chainId))
        })

      // An idle server has no quotes to start the reads: the chain's head is read on its own every few seconds, so
      // the first quote after a pause finds values within MAX_PARAMS_LAG_BLOCKS (and the first one after the start).
      yield* Effect.forkScoped(
        Effect.tryPromise(() => chain.publicClient.getBlockNumber({ cacheTime: 0 })).pipe(
          Effect.flatMap((head) => {
            if (head <= requestedBlock || (known !== undefined && head <= known.block)) return Effect.void
            requestedBlock = head
            return read(head)
          }),
          Effect.ignore,
          Effect.repeat(Schedule.spaced(IDLE_READ_INTERVAL))
        )
      )

      return L1DataFee.of({ applies, fee })
    })
  )
}
