import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { getAddress } from "viem"
import { buildMethodParameters, buildMethodParametersWithSdk } from "../../workers/Calldata.ts"
import type { CalldataChain, CalldataOptions } from "../../workers/CalldataTypes.ts"
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from "../../workers/routing/math/TickMath.ts"
import type { Address, HopResult, QuoteToken, RouteResult } from "../../workers/routing/types.ts"
import { quoteOfRoutes } from "./quoteOfRoutes.ts"
import { encodeWithViem } from "../../workers/ViemCalldata.ts"

/**
 * The viem encoder against the Uniswap SDKs it replaced, on random trades: every field the calldata depends on is
 * drawn (routers, Permit2 or the router's balance, exactIn/exactOut, 1–3 hops, 1–4 routes — more than two exactIn
 * routes take the aggregated-slippage branch with its sweep —, fees, ticks and prices within them, amounts up to
 * 2^256 - 1, slippage above 100 %, deadlines, checksummed or lower-case addresses), and some draws break an invariant
 * the SDK checks (a price outside its tick, a repeated pool, a token without decimals, a bad checksum). Whatever the
 * draw, `buildMethodParameters` answers exactly as the SDK path: the same bytes, or the same error.
 */

const MAX_UINT256 = (1n << 256n) - 1n
const chain: CalldataChain = {
  chainId: 31337,
  swapRouter02: "0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45",
  universalRouter: "0x66a9893cc07d91d95644aedd05d03f95e1dba8af"
}

const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => `0x${Buffer.from(bytes).toString("hex")}` as Address)

const hopArbitrary = fc.record({
  // Mostly distinct fees: two routes through one pair and fee are one pool twice, which the SDK refuses.
  fee: fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(100, 500, 3000, 10_000) },
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 999_999 }) }
  ),
  tick: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: -200_000, max: 200_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: MIN_TICK, max: MAX_TICK - 1 }) }
  ),
  // Where the price sits in its tick, in millionths; above 1,000,000 it is outside (the SDK's PRICE_BOUNDS).
  within: fc.oneof(
    { weight: 60, arbitrary: fc.integer({ min: 0, max: 1_000_000 }) },
    { weight: 1, arbitrary: fc.constant(2_000_000) }
  ),
  liquidity: fc.bigInt({ min: 0n, max: 1n << 128n })
})

const amount = fc.oneof(
  { weight: 30, arbitrary: fc.bigInt({ min: 1n, max: 1n << 128n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: MAX_UINT256 }) },
  { weight: 1, arbitrary: fc.constant(MAX_UINT256) }
)

const draw = fc.record({
  tokens: fc.uniqueArray(address, { minLength: 8, maxLength: 8, selector: (a) => a }),
  routes: fc.array(
    fc.record({
      hops: fc.array(hopArbitrary, { minLength: 1, maxLength: 3 }),
      middle: fc.array(fc.integer({ min: 2, max: 7 }), { minLength: 2, maxLength: 2 }),
      amountIn: amount,
      amountOut: amount
    }),
    { minLength: 1, maxLength: 4 }
  ),
  type: fc.constantFrom("exactIn" as const, "exactOut" as const),
  routerType: fc.constantFrom("swap-router-02" as const, "universal" as const),
  useRouterBalance: fc.boolean(),
  numerator: fc.oneof(fc.bigInt({ min: 0n, max: 500n }), fc.bigInt({ min: 0n, max: 20_000n })),
  denominator: fc.constantFrom(10_000n, 1000n, 1n, 7n),
  recipient: address,
  deadline: fc.oneof(fc.bigInt({ min: 0n, max: 1n << 40n }), fc.constant(MAX_UINT256)),
  checksummed: fc.boolean(),
  // Rare breakages of what the SDK requires.
  dropToken: fc.oneof(
    { weight: 30, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 7 }) }
  ),
  badChecksum: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
  repeatPool: fc.integer({ min: 0, max: 19 }).map((n) => n === 0)
})
type Draw = typeof draw extends fc.Arbitrary<infer A> ? A : never

const build = (d: Draw) => {
  const addr = (a: Address) => (d.checksummed ? (getAddress(a) as Address) : a)
  const [input, output] = [addr(d.tokens[0]!), addr(d.tokens[1]!)]
  const routes: Array<RouteResult> = d.routes.map((r) => {
    // input → (up to two distinct intermediates) → output
    const middle = [...new Set(r.middle)].slice(0, r.hops.length - 1).map((i) => addr(d.tokens[i]!))
    const hopsDrawn = r.hops.slice(0, middle.length + 1)
    const path = [input, ...middle, output]
    const hops: Array<HopResult> = hopsDrawn.map((h, i) => {
      const low = getSqrtRatioAtTick(h.tick)
      const high = getSqrtRatioAtTick(h.tick + 1)
      const sqrt = low + ((high - low) * BigInt(h.within)) / 1_000_000n
      return {
        pool: "0x0000000000000000000000000000000000000001",
        tokenIn: path[i]!,
        tokenOut: path[i + 1]!,
        fee: h.fee,
        sqrtPriceX96Before: sqrt,
        sqrtPriceX96After: sqrt,
        liquidity: h.liquidity,
        tickBefore: h.tick,
        ticksCrossed: 0,
        amountIn: r.amountIn,
        amountOut: r.amountOut
      }
    })
    if (d.repeatPool && hops.length > 1)
      hops[1] = { ...hops[1]!, tokenIn: path[0]!, tokenOut: path[1]!, fee: hops[0]!.fee }
    return { percent: 100, path, hops, amountIn: r.amountIn, amountOut: r.amountOut, gasEstimate: 0n }
  })
  const quote = quoteOfRoutes(d.type, routes)
  const tokens = new Map<string, QuoteToken>()
  d.tokens.forEach((t, i) => {
    if (d.dropToken !== null && d.dropToken === i) return
    tokens.set(addr(t), { address: addr(t), decimals: (i * 7) % 31, symbol: `T${i}` })
  })
  // A mixed-case address whose checksum is wrong (ethers' getAddress refuses it).
  const recipient = d.badChecksum
    ? (`0x${getAddress(d.recipient)
        .slice(2)
        .split("")
        .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
        .join("")}` as Address)
    : addr(d.recipient)
  const options: CalldataOptions = {
    routerType: d.routerType,
    slippage: { numerator: d.numerator, denominator: d.denominator },
    recipient,
    deadline: d.deadline,
    useRouterBalance: d.useRouterBalance
  }
  return { quote, tokens, options }
}

const outcome = (f: () => unknown) => {
  try {
    return { ok: f() }
  } catch (e) {
    return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` }
  }
}

describe("calldata: viem encoder = Uniswap SDKs, byte for byte", () => {
  it("on 2,000 random trades, both routers; at least 1,000 of them encoded by viem", () => {
    const counts = {
      viem: 0,
      sdk: 0,
      refused: 0,
      aggregated: 0,
      multiHop: 0,
      exactOut: 0,
      universal: 0,
      routerBalance: 0
    }
    fc.assert(
      fc.property(draw, (d) => {
        const { options, quote, tokens } = build(d)
        const reference = outcome(() => buildMethodParametersWithSdk(chain, quote, tokens, options))
        const fast = encodeWithViem(chain, quote, tokens, options)
        if (fast !== undefined) {
          // Where viem answers, the SDK succeeded with the same bytes.
          expect(reference).toEqual({ ok: fast })
          counts.viem++
          if (quote.type === "exactIn" && quote.routes.length > 2) counts.aggregated++
          if (quote.routes.some((r) => r.hops.length > 1)) counts.multiHop++
          if (quote.type === "exactOut") counts.exactOut++
          if (options.routerType === "universal") counts.universal++
          if (options.routerType === "universal" && options.useRouterBalance) counts.routerBalance++
        } else if ("ok" in reference) counts.sdk++
        else counts.refused++
        // And the function the worker calls always answers as the SDK path did.
        expect(outcome(() => buildMethodParameters(chain, quote, tokens, options))).toEqual(reference)
      }),
      { numRuns: 2000 }
    )
    expect(counts.viem).toBeGreaterThanOrEqual(1000)
    for (const branch of ["aggregated", "multiHop", "exactOut", "universal", "routerBalance"] as const)
      expect(counts[branch], branch).toBeGreaterThanOrEqual(50)
    expect(counts.refused, "draws the SDK refuses").toBeGreaterThan(10)
  }, 300_000)
})
