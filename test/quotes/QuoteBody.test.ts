import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import * as fc from "fast-check"
import { afterAll, assert, describe, it } from "vitest"
import { getQuoteBody, getQuoteResponse } from "../../src/exchange-api/quotes/QuoteBody.ts"
import { GetQuoteResponse } from "../../src/exchange-api/quotes/QuoteModels.ts"
import type { QuoteOutcome } from "../../src/exchange-api/quotes/Quotes.ts"
import type { Address, HopResult, QuoteToken } from "../../workers/routing/types.ts"

/**
 * `GET /api/v1/quote` answers with a body it serialises itself (src/exchange-api/quotes/QuoteBody.ts) instead of
 * letting HttpApi encode the handler's value through GetQuoteResponse. On random quote outcomes (1–4 routes of 1–3
 * hops, amounts up to 2^256 - 1, exactIn and exactOut, null and set gas figures, symbols of any text, both router
 * types), an HttpApi endpoint declaring GetQuoteResponse that returns the plain body (HttpApi's success encoder at
 * work) and one that returns the pre-serialised response answer the same status, content type and bytes.
 */

const MAX_UINT256 = (1n << 256n) - 1n
const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => `0x${Buffer.from(bytes).toString("hex")}` as Address)
const uint = fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: MAX_UINT256 }))
const hex = fc.uint8Array({ maxLength: 600 }).map((bytes) => `0x${Buffer.from(bytes).toString("hex")}` as `0x${string}`)
const token = (a: Address) =>
  fc.record({
    address: fc.constant(a),
    decimals: fc.integer({ min: 0, max: 255 }),
    symbol: fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: "binary", maxLength: 12 }))
  })

const hopOf = (tokenIn: Address, tokenOut: Address) =>
  fc.record({
    pool: address,
    tokenIn: fc.constant(tokenIn),
    tokenOut: fc.constant(tokenOut),
    fee: fc.integer({ min: 0, max: 999_999 }),
    sqrtPriceX96Before: uint,
    sqrtPriceX96After: uint,
    liquidity: uint,
    tickBefore: fc.integer({ min: -887_272, max: 887_272 }),
    ticksCrossed: fc.nat(50),
    amountIn: uint,
    amountOut: uint
  })

/** A path tokenIn → (0–2 intermediates) → tokenOut, with its hops. */
const routeOf = (tokenIn: Address, tokenOut: Address, middle: ReadonlyArray<Address>) =>
  fc
    .tuple(fc.subarray([...middle], { maxLength: 2 }), fc.integer({ min: 1, max: 100 }), uint, uint, uint)
    .chain(([via, percent, amountIn, amountOut, gasEstimate]) => {
      const path = [tokenIn, ...via, tokenOut]
      return fc
        .tuple(...path.slice(1).map((t, i) => hopOf(path[i]!, t)))
        .map((hops: Array<HopResult>) => ({ percent, path, hops, amountIn, amountOut, gasEstimate }))
    })

const outcome: fc.Arbitrary<QuoteOutcome> = fc
  .uniqueArray(address, { minLength: 4, maxLength: 4 })
  .chain(([tokenIn, tokenOut, m1, m2]) =>
    fc
      .record({
        tokens: fc.tuple(...[tokenIn!, tokenOut!, m1!, m2!].map(token)),
        routes: fc.array(routeOf(tokenIn!, tokenOut!, [m1!, m2!]), { minLength: 1, maxLength: 4 }),
        type: fc.constantFrom("exactIn" as const, "exactOut" as const),
        routerType: fc.constantFrom("swap-router-02" as const, "universal" as const),
        slippageBps: fc.integer({ min: 0, max: 5000 }),
        amount: uint,
        amountIn: uint,
        amountOut: uint,
        gasEstimate: uint,
        gasCostInQuoteToken: fc.option(uint),
        quoteGasAdjusted: uint,
        priceImpactPpm: fc.integer({ min: 0, max: 1_000_000 }),
        blockNumber: fc.bigInt({ min: 0n, max: 1n << 64n }),
        gasPriceWei: uint,
        l1DataFeeWei: fc.option(uint),
        bound: uint,
        deadline: fc.bigInt({ min: 0n, max: 1n << 40n }),
        quoteId: fc.uuid(),
        calldata: hex,
        value: hex,
        to: address
      })
      .map((d): QuoteOutcome => {
        const tokens = new Map<string, QuoteToken>(d.tokens.map((t) => [t.address, t]))
        return {
          quoteId: d.quoteId,
          chainId: 31337,
          input: {
            chainId: "31337",
            tokenIn: tokenIn!,
            tokenOut: tokenOut!,
            amount: d.amount.toString(),
            type: d.type,
            slippage: { numerator: BigInt(d.slippageBps), denominator: 10_000n },
            recipient: d.to,
            routerType: d.routerType,
            useRouterBalance: false,
            allowlist: false
          },
          amount: d.amount,
          tokenIn: tokens.get(tokenIn!)!,
          tokenOut: tokens.get(tokenOut!)!,
          tokens,
          result: {
            type: d.type,
            routes: d.routes,
            amountIn: d.amountIn,
            amountOut: d.amountOut,
            gasEstimate: d.gasEstimate,
            gasCostWei: 0n,
            gasCostInQuoteToken: d.gasCostInQuoteToken,
            gasRate: null,
            quoteGasAdjusted: d.quoteGasAdjusted,
            priceImpactPpm: d.priceImpactPpm,
            blockNumber: d.blockNumber
          },
          gasPriceWei: d.gasPriceWei,
          l1DataFeeWei: d.l1DataFeeWei,
          methodParameters: { calldata: d.calldata, value: d.value, to: d.to },
          bound: d.bound,
          deadline: d.deadline
        }
      })
  )

// Two endpoints declaring the route's success schema: one returns the plain body for HttpApi to encode, the other
// the pre-serialised response of the real route; both answer the outcome in `current`.
let current: QuoteOutcome | undefined
const Api = HttpApi.make("quoteBody").add(
  HttpApiGroup.make("bodies")
    .add(HttpApiEndpoint.get("encoded", "/encoded", { success: GetQuoteResponse }))
    .add(HttpApiEndpoint.get("direct", "/direct", { success: GetQuoteResponse }))
)
const handlers = HttpApiBuilder.group(Api, "bodies", (h) =>
  Effect.succeed(
    h
      .handle("encoded", () => Effect.sync(() => getQuoteBody(current!)))
      .handle("direct", () => Effect.sync(() => getQuoteResponse(current!)))
  )
)
const { handler, dispose } = HttpRouter.toWebHandler(
  HttpApiBuilder.layer(Api).pipe(Layer.provide(handlers), Layer.provide(NodeHttpServer.layerHttpServices)),
  { disableLogger: true }
)
afterAll(() => dispose())

const answer = async (path: string) => {
  const response = await handler(new Request(`http://localhost${path}`))
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() }
}

describe("GET /api/v1/quote's body (src/exchange-api/quotes/QuoteBody.ts)", () => {
  it("equals HttpApi's encoding through GetQuoteResponse, byte for byte, on random quotes", async () => {
    let checked = 0
    await fc.assert(
      fc.asyncProperty(outcome, async (o) => {
        current = o
        const encoded = await answer("/encoded")
        const direct = await answer("/direct")
        assert.strictEqual(encoded.status, 200, encoded.body)
        assert.deepStrictEqual(direct, encoded)
        // And the body is the schema's encoding of itself (a field the schema transformed would differ here).
        const body = getQuoteBody(o)
        assert.strictEqual(direct.body, JSON.stringify(Schema.encodeSync(GetQuoteResponse)(body)))
        checked++
      }),
      { numRuns: 300 }
    )
    assert.strictEqual(checked, 300)
  })
})
