import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { defineChain, parseEther } from "viem"
import { chainConfig, estimateL1Fee } from "viem/op-stack"
import { rpcRequest } from "../../layers/Anvil.ts"
import { indexedHead } from "../exchange/support.ts"
import { ecotoneGasPriceOracleArtifact } from "../fixtures/ecotoneGasPriceOracle.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { exchange, query, QuoteServices } from "./support.ts"

/**
 * The L1 data fee of OP-stack chains (src/exchange-api/quotes/L1DataFee.ts): with the chain's profile saying opStack
 * (here forced with QUOTE_OP_STACK's setting on the devnet) and test/fixtures/EcotoneGasPriceOracle.sol at the
 * GasPriceOracle predeploy, a quote's gasUseEstimateQuote is its execution gas cost plus exactly the oracle's fee of
 * the quoted transaction, converted to the quote token at the WETH mid price; without opStack the oracle is not read.
 */
const chainId = 31337
const PREDEPLOY = "0x420000000000000000000000000000000000000F"
const Q192 = 1n << 192n

const installOracle = Effect.gen(function* () {
  const chain = yield* AnvilChain
  yield* Effect.promise(() =>
    rpcRequest(chain.rpcUrl, "anvil_setCode", [PREDEPLOY, ecotoneGasPriceOracleArtifact().deployedBytecode])
  )
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

    it.effect("exactIn to WETH, exactOut from WETH, and to USDT through WETH: execution cost + the oracle's fee", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        const token = chain.deployments.launches.find((l) => l.canonical)!.token
        yield* installOracle

        // The quote token is WETH: the rate is 1, so the cost is exactly gas × price + the L1 fee, in wei.
        const sell = yield* headQuote({
          tokenInAddress: token,
          tokenOutAddress: c.weth9,
          amount: parseEther("1000").toString()
        })
        const sellFee = yield* oracleFee(sell)
        assert.isTrue(sellFee > 0n)
        assert.strictEqual(sell.l1DataFeeWei, sellFee.toString())
        assert.strictEqual(sell.gasUseEstimateQuote, (executionCost(sell) + sellFee).toString())
        assert.strictEqual(sell.quoteGasAdjusted, (BigInt(sell.amountOut) - executionCost(sell) - sellFee).toString())

        const buy = yield* headQuote({
          tokenInAddress: c.weth9,
          tokenOutAddress: token,
          amount: parseEther("500").toString(),
          type: "exactOut"
        })
        const buyFee = yield* oracleFee(buy)
        assert.strictEqual(buy.l1DataFeeWei, buyFee.toString())
        assert.strictEqual(buy.gasUseEstimateQuote, (executionCost(buy) + buyFee).toString())
        assert.strictEqual(buy.quoteGasAdjusted, (BigInt(buy.amountIn) + executionCost(buy) + buyFee).toString())

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
