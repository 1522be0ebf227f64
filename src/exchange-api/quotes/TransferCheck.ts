import { Context, Effect, Layer } from "effect"
import { type Address, decodeFunctionResult, encodeFunctionData, erc20Abi, type Hex } from "viem"
import { TransferProbeAbi, TransferProbeBytecode } from "../../../contracts/generated/index.ts"
import { Chain } from "../../platform/Chain.ts"
import { redactedErrorText } from "../../platform/RedactUrl.ts"
import { fail, type QuoteFailure } from "./QuoteError.ts"
import { RouteFinder } from "./RouteFinder.ts"

/** Where the simulated transfer goes: only its balance before and after matters. */
const PROBE_RECIPIENT: Address = "0x000000000000000000000000000000000000f0e1"
/** A verdict is kept this long: a token's fee can be switched on later (USDT has such a switch). */
const VERDICT_TTL_MS = 10 * 60_000

/**
 * Fee-on-transfer tokens are refused, not quoted: a Uniswap v3 swap through one delivers less than the pool math
 * says (each hop and the final transfer lose the fee), so the quote, `amountOutMinimum` and exactOut amounts would all
 * be wrong. Each token of a found route is checked once (then every VERDICT_TTL_MS): a transfer of 0.1 % of a pool's
 * balance is simulated with eth_call from that pool, whose code is replaced by contracts/TransferProbe.sol through a
 * state override (the token's storage is untouched), and a recipient that gets less than the pool gave means a fee:
 * 400 FEE_ON_TRANSFER_UNSUPPORTED. A simulation that cannot run (RPC failure, a token that reverts) refuses nothing.
 */
export class TransferCheck extends Context.Service<
  TransferCheck,
  { readonly check: (tokens: ReadonlyArray<string>) => Effect.Effect<void, QuoteFailure> }
>()("app/quotes/TransferCheck") {
  static readonly layer = Layer.effect(
    TransferCheck,
    Effect.gen(function* () {
      const chain = yield* Chain
      const finder = yield* RouteFinder
      const client = chain.publicClient
      const verdicts = new Map<string, { readonly at: number; readonly feeBps: number | null }>()
      let probeCode: Hex | undefined

      /** The probe's runtime code: what its creation code returns when run (eth_call without `to`). */
      const runtime = Effect.promise(async () => {
        if (probeCode === undefined) probeCode = (await client.call({ data: TransferProbeBytecode })).data
        return probeCode
      })

      /** The fee in basis points a transfer of `token` takes; null when none, or when it cannot be measured. */
      const measure = (token: Address) =>
        Effect.gen(function* () {
          const holder = finder.current()?.pools.find((p) => p.token0 === token || p.token1 === token)?.address
          if (holder === undefined) return null
          const balance = yield* Effect.promise(() =>
            client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [holder] })
          )
          const amount = balance / 1000n
          const code = yield* runtime
          if (amount === 0n || code === undefined) return null
          const { data } = yield* Effect.promise(() =>
            client.call({
              to: holder,
              data: encodeFunctionData({
                abi: TransferProbeAbi,
                functionName: "probe",
                args: [token, PROBE_RECIPIENT, amount]
              }),
              stateOverride: [{ address: holder, code }]
            })
          )
          if (data === undefined) return null
          const [sent, received] = decodeFunctionResult({ abi: TransferProbeAbi, functionName: "probe", data })
          // Rounded to the nearest basis point (the token rounds its fee down on an amount that is not a multiple).
          return received < sent ? Number(((sent - received) * 10_000n + sent / 2n) / sent) : null
        }).pipe(
          Effect.catchCause((cause) =>
            Effect.as(Effect.logWarning(`transfer check of ${token} could not run: ${redactedErrorText(cause)}`), null)
          )
        )

      const verdict = (token: Address) =>
        Effect.suspend(() => {
          const known = verdicts.get(token)
          if (known !== undefined && Date.now() - known.at < VERDICT_TTL_MS) return Effect.succeed(known.feeBps)
          return Effect.tap(measure(token), (feeBps) =>
            Effect.sync(() => verdicts.set(token, { at: Date.now(), feeBps }))
          )
        })

      const refused = (results: ReadonlyArray<readonly [string, number | null]>) => {
        const taxed = results.filter(([, feeBps]) => feeBps !== null)
        return taxed.length === 0
          ? Effect.void
          : Effect.fail(
              fail(
                "FEE_ON_TRANSFER_UNSUPPORTED",
                `fee-on-transfer token on the route (${taxed.map(([t, bps]) => `${t} takes ${bps! / 100} %`).join(", ")}): ` +
                  "such tokens are not quoted (Uniswap v3 swaps through them deliver less than quoted)",
                { tokens: taxed.map(([address, feeBps]) => ({ address, feeBps })) }
              )
            )
      }

      /** Every token's verdict when all are known and fresh (a quote's usual case), else undefined. */
      const known = (tokens: ReadonlyArray<string>) => {
        const now = Date.now()
        const results: Array<readonly [string, number | null]> = []
        for (const t of tokens) {
          const v = verdicts.get(t.toLowerCase())
          if (v === undefined || now - v.at >= VERDICT_TTL_MS) return undefined
          results.push([t, v.feeBps])
        }
        return results
      }

      return TransferCheck.of({
        // Known verdicts are read in place: no fiber per token for the quote path's usual case.
        check: (tokens) =>
          Effect.suspend(() => {
            const results = known(tokens)
            if (results !== undefined) return refused(results)
            return Effect.forEach(
              tokens,
              (t) => Effect.map(verdict(t.toLowerCase() as Address), (feeBps) => [t, feeBps] as const),
              { concurrency: 4 }
            ).pipe(Effect.flatMap(refused))
          })
      })
    })
  )
}
