import { assert, layer } from "@effect/vitest"
import * as fc from "fast-check"
import { Effect, Schedule } from "effect"
import { defineChain, parseEther } from "viem"
import { chainConfig, estimateL1Fee } from "viem/op-stack"
import { rpcRequest } from "../../layers/Anvil.ts"
import { indexedHead } from "../exchange/support.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import {
  BASE_LIKE,
  GAS_PRICE_ORACLE,
  installPredeploys,
  setEcotone,
  setFjord,
  setL1Values
} from "../support/OpStackOracle.ts"
import { exchange, query, QuoteServices } from "./support.ts"

/**
 * The L1 data fee of OP-stack chains (src/exchange-api/quotes/L1DataFee.ts): with the chain's profile saying opStack
 * (here forced with QUOTE_OP_STACK's setting on the devnet) and the real GasPriceOracle and L1Block predeploys
 * (test/support/OpStackOracle.ts) under Ecotone and then Fjord, a quote's l1DataFeeWei is exactly the oracle's
 * getL1Fee of the quoted transaction (random amounts, both trade types) and gasUseEstimateQuote its execution gas
 * cost plus that fee, converted to the quote token at the WETH mid price. The fee is computed from values read once
 * per block: with the oracle's code removed, quotes of the same block still price it. Without opStack the oracle is
 * not read.
 */
const chainId = 31337
const Q192 = 1n << 192n

/** The real predeploys, Ecotone with Base-like L1 values (Ecotone set last: until then, reads fail). */
const installOracle = Effect.gen(function* () {
  const chain = yield* AnvilChain
  yield* Effect.promise(async () => {
    await installPredeploys(chain.rpcUrl)
    await setL1Values(chain.rpcUrl, BASE_LIKE)
    await setEcotone(chain.rpcUrl)
  })
})

/** GET /api/v1/quote once the quote engine holds the indexed chain head. */
const headQuote = (params: Record<string, string | number | boolean | undefined>) =>
  Effect.gen(function* () {
    const chain = yield* AnvilChain
    const head = yield* indexedHead
    const recipient = chain.accounts[1]!.address
    const res = yield* exchange(`/api/v1/quote?${query({ chainId, recipient, ...params })}`).pipe(
      Effect.repeat({
        until: (r) => r.status !== 200 || BigInt(r.body.blockNumber) >= head,
        schedule: Schedule.spaced("50 millis")
      }),
      Effect.timeout("30 seconds")
    )
    assert.strictEqual(res.status, 200, JSON.stringify(res.body))
    return res.body
  })

/** What the oracle at the predeploy charges for the quote's transaction (getL1Fee of it, serialised by viem). */
const oracleFee = (q: any) =>
  Effect.gen(function* () {
    const chain = yield* AnvilChain
    const rollup = defineChain({
      ...chainConfig,
      id: chainId,
      name: "devnet as an OP-stack chain",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } }
    })
    return yield* Effect.promise(() =>
      estimateL1Fee(chain.publicClient, {
        chain: rollup,
        account: chain.accounts[0]!,
        to: q.methodParameters.to,
        data: q.methodParameters.calldata,
        value: BigInt(q.methodParameters.value)
      })
    )
  })

const executionCost = (q: any) => BigInt(q.gasUseEstimate) * BigInt(q.gasPriceWei)

layer(QuoteServices({ timeoutMs: 5000, opStack: true }), { timeout: "180 seconds", excludeTestServices: true })(
  "quotes on an OP-stack chain count the L1 data fee",
  (it) => {
    it.effect("an unreadable oracle leaves the gas cost unknown (null), never understated", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        const token = chain.deployments.launches.find((l) => l.canonical)!.token
        // No code at the predeploy yet: the oracle call fails.
        const q = yield* headQuote({
          tokenInAddress: token,
          tokenOutAddress: c.weth9,
          amount: parseEther("1000").toString()
        })
        assert.isNull(q.l1DataFeeWei)
        assert.isNull(q.gasUseEstimateQuote)
        assert.strictEqual(q.quoteGasAdjusted, q.quote)
      })
    )

    it.effect(
      "Ecotone then Fjord: random quotes carry exactly the oracle's fee, converted for USDT; no RPC per quote",
      () =>
        Effect.gen(function* () {
          const chain = yield* AnvilChain
          const c = chain.deployments.contracts
          const token = chain.deployments.launches.find((l) => l.canonical)!.token
          yield* installOracle

          // The first quotes of the new block start the read of the oracle's values; until it lands they answer null.
          const sellQuote = (amount: bigint) =>
            headQuote({ tokenInAddress: token, tokenOutAddress: c.weth9, amount: amount.toString() })
          const caughtUp = yield* sellQuote(parseEther("1000")).pipe(
            Effect.flatMap((q) => Effect.map(oracleFee(q), (fee) => ({ q, fee }))),
            Effect.repeat({
              until: ({ q, fee }) => q.l1DataFeeWei === fee.toString(),
              schedule: Schedule.spaced("50 millis")
            }),
            Effect.timeout("30 seconds")
          )
          assert.isTrue(caughtUp.fee > 0n)

          // Quotes whose token is WETH: the rate is 1, so the cost is exactly gas × price + the L1 fee, in wei.
          const randomQuotes = (seed: number) =>
            Effect.gen(function* () {
              const draws = fc.sample(
                fc.tuple(fc.boolean(), fc.bigInt({ min: 1n, max: 5000n }), fc.bigInt({ min: 0n, max: 10n ** 18n })),
                { seed, numRuns: 8 }
              )
              for (const [exactIn, whole, fraction] of draws) {
                const q = exactIn
                  ? yield* sellQuote(whole * 10n ** 18n + fraction)
                  : yield* headQuote({
                      tokenInAddress: c.weth9,
                      tokenOutAddress: token,
                      amount: (whole * 10n ** 17n + fraction).toString(),
                      type: "exactOut"
                    })
                const fee = yield* oracleFee(q)
                assert.strictEqual(q.l1DataFeeWei, fee.toString(), q.methodParameters.calldata)
                assert.strictEqual(q.gasUseEstimateQuote, (executionCost(q) + fee).toString())
                assert.strictEqual(
                  q.quoteGasAdjusted,
                  exactIn
                    ? (BigInt(q.amountOut) - executionCost(q) - fee).toString()
                    : (BigInt(q.amountIn) + executionCost(q) + fee).toString()
                )
              }
            })
          yield* randomQuotes(11)

          // To USDT: the cost in wei converted at the WETH/USDT pool's mid price before the swap (the route's second hop).
          const toUsdt = yield* headQuote({
            tokenInAddress: token,
            tokenOutAddress: c.stablecoin,
            amount: parseEther("1000").toString()
          })
          const hop = toUsdt.route[0][1]
          assert.strictEqual(hop.tokenIn.address, c.weth9.toLowerCase())
          const usdtFee = yield* oracleFee(toUsdt)
          assert.strictEqual(toUsdt.l1DataFeeWei, usdtFee.toString())
          const p = BigInt(hop.sqrtRatioX96) ** 2n
          const wethIsToken0 = c.weth9.toLowerCase() < c.stablecoin.toLowerCase()
          const wei = executionCost(toUsdt) + usdtFee
          const inUsdt = wethIsToken0 ? (wei * p) / Q192 : (wei * Q192) / p
          assert.strictEqual(toUsdt.gasUseEstimateQuote, inUsdt.toString())
          assert.strictEqual(toUsdt.quoteGasAdjusted, (BigInt(toUsdt.amountOut) - inUsdt).toString())

          // No RPC per quote: with the oracle's code gone (anvil_setCode mines no block), a quote of the same block is
          // still priced, from the values already read.
          const code = yield* Effect.promise(() =>
            rpcRequest<string>(chain.rpcUrl, "eth_getCode", [GAS_PRICE_ORACLE, "latest"])
          )
          yield* Effect.promise(() => rpcRequest(chain.rpcUrl, "anvil_setCode", [GAS_PRICE_ORACLE, "0x"]))
          const blind = yield* sellQuote(parseEther("1000"))
          assert.strictEqual(blind.blockNumber, caughtUp.q.blockNumber)
          yield* Effect.promise(() => rpcRequest(chain.rpcUrl, "anvil_setCode", [GAS_PRICE_ORACLE, code]))
          assert.strictEqual(blind.l1DataFeeWei, (yield* oracleFee(blind)).toString())
          assert.strictEqual(blind.gasUseEstimateQuote, (executionCost(blind) + BigInt(blind.l1DataFeeWei)).toString())

          // Fjord (FastLZ-estimated size): once a quote of a later block has had the values read again, every quote
          // carries the Fjord fee.
          yield* Effect.promise(() => setFjord(chain.rpcUrl))
          const fjord = yield* sellQuote(parseEther("1000")).pipe(
            Effect.flatMap((q) => Effect.map(oracleFee(q), (fee) => ({ q, fee }))),
            Effect.repeat({
              until: ({ q, fee }) => q.l1DataFeeWei === fee.toString(),
              schedule: Schedule.spaced("50 millis")
            }),
            Effect.timeout("30 seconds")
          )
          assert.notStrictEqual(fjord.fee, caughtUp.fee)
          yield* randomQuotes(12)
        })
    )
  }
)

layer(QuoteServices({ timeoutMs: 5000 }), { timeout: "180 seconds", excludeTestServices: true })(
  "quotes on a chain without an L1 data fee (the devnet's profile)",
  (it) => {
    it.effect("the oracle, even present, is not counted: gasUseEstimateQuote is the execution cost alone", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        const token = chain.deployments.launches.find((l) => l.canonical)!.token
        yield* installOracle
        const q = yield* headQuote({
          tokenInAddress: token,
          tokenOutAddress: c.weth9,
          amount: parseEther("1000").toString()
        })
        assert.isTrue((yield* oracleFee(q)) > 0n)
        assert.isNull(q.l1DataFeeWei)
        assert.strictEqual(q.gasUseEstimateQuote, executionCost(q).toString())
        assert.strictEqual(q.quoteGasAdjusted, (BigInt(q.amountOut) - executionCost(q)).toString())
      })
    )
  }
)
