import { Context, Effect, Layer } from "effect"
import { Chain } from "../../platform/Chain.ts"

/**
 * `transaction.gas` of POST quotes: eth_estimateGas of the built transaction from the sender, plus 25 % (viem's
 * estimate has no margin, and swaps that write a new oracle slot ran out of gas without one, as scripts/devnet/tx.ts found). Large swaps can
 * cost far more than any heuristic, hence a real simulation. When the sender cannot be simulated (no balance, no
 * allowance yet, RPC down) the field is omitted rather than guessed: the quote itself is still valid.
 */
export class GasEstimator extends Context.Service<
  GasEstimator,
  {
    readonly estimate: (tx: {
      from: `0x${string}`
      to: `0x${string}`
      calldata: `0x${string}`
      value: `0x${string}`
    }) => Effect.Effect<bigint | undefined>
  }
>()("app/quotes/GasEstimator") {
  static readonly layer = Layer.effect(
    GasEstimator,
    Effect.gen(function* () {
      const chain = yield* Chain
      return GasEstimator.of({
        estimate: (tx) =>
          Effect.tryPromise(() =>
            chain.publicClient.estimateGas({ account: tx.from, to: tx.to, data: tx.calldata, value: BigInt(tx.value) })
          ).pipe(
            Effect.map((gas) => (gas * 125n) / 100n),
            Effect.timeout("2 seconds"),
            Effect.catchCause(() => Effect.succeed(undefined))
          )
      })
    })
  )
}
