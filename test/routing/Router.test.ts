/**
 * Router unit tests over hand-built pool sets: 1–3 hop routes chained exactly, exact output run backwards, splits
 * that beat the single route on a thin pair, exactIn/exactOut round trips, deltas, and each failure.
 */
import { assert, describe, it } from "@effect/vitest"
import { makeRouter } from "../../workers/routing/index.ts"
import { swap } from "../../workers/routing/math/PoolSwap.ts"
import { buildPool } from "../../workers/routing/testing/PoolBuilder.ts"
import type { Address, PoolState, QuoteRequest, QuoteResult, RoutingOutcome } from "../../workers/routing/types.ts"
import { config, E18, pool as handBuiltPool, Q96, token, USDC, WETH } from "./handBuilt.ts"

const [A, B, C, D, E] = [token(0xa1), token(0xa2), token(0xa3), token(0xa4), token(0xa5)]

/** A 1:1 pool with full-range liquidity (plus optional concentrated liquidity around the price). */
const pool = (
  a: Address,
  b: Address,
  fee: number,
  liquidity: bigint,
  extra: Array<[number, number, bigint]> = []
): PoolState => handBuiltPool(a, b, fee, liquidity, { extra })

const routerFor = (pools: ReadonlyArray<PoolState>, cfg = config()) =>
  makeRouter({ chainId: 31337, blockNumber: 10n, pools, tokens: [] }, cfg)

const request = (
  tokenIn: Address,
  tokenOut: Address,
  amount: bigint,
  type: QuoteRequest["type"] = "exactIn",
  maxSplits?: number
): QuoteRequest => ({
  tokenIn,
  tokenOut,
  amount,
  type,
  gasPriceWei: 1_000_000_000n,
  ...(maxSplits === undefined ? {} : { maxSplits })
})

const found = (outcome: RoutingOutcome): QuoteResult => {
  if (outcome._tag !== "Found") throw new Error(`expected a quote, got ${outcome._tag}`)
  return outcome.quote
}

describe("Router", () => {
  it("1 hop: the quote is the pool's exact swap, with hop details and totals", () => {
    const p = pool(A, WETH, 3000, 1000n * E18)
    const q = found(routerFor([p]).quote(request(A, WETH, 5n * E18)))
    const expected = swap(p, p.token0 === A, 5n * E18)
    assert.strictEqual(q.routes.length, 1)
    assert.deepStrictEqual(q.routes[0]!.path, [A, WETH])
    assert.strictEqual(q.amountIn, 5n * E18)
    assert.strictEqual(q.amountOut, expected.amountOut)
    const hop = q.routes[0]!.hops[0]!
    assert.strictEqual(hop.pool, p.address)
    assert.strictEqual(hop.sqrtPriceX96Before, p.sqrtPriceX96)
    assert.strictEqual(hop.sqrtPriceX96After, expected.sqrtPriceX96)
    assert.strictEqual(hop.tickBefore, p.tick)
    assert.strictEqual(q.blockNumber, 10n)
    // Gas in WETH (the quote token is WETH itself): cost = gas × price; adjusted = out − cost.
    assert.strictEqual(q.gasCostWei, q.gasEstimate * 1_000_000_000n)
    assert.strictEqual(q.gasCostInQuoteToken, q.gasCostWei)
    assert.strictEqual(q.quoteGasAdjusted, q.amountOut - q.gasCostWei)
    // 0.3 % fee plus 0.5 % of the depth moved: impact between 0.3 % and 1.5 %.
    assert.isTrue(q.priceImpactPpm > 3000 && q.priceImpactPpm < 15_000, `${q.priceImpactPpm}`)
  })

  it("2 and 3 hops through base tokens chain each hop's output into the next", () => {
    const pools = [
      pool(A, WETH, 3000, 1000n * E18),
      pool(WETH, USDC, 500, 5000n * E18),
      pool(USDC, C, 3000, 1000n * E18),
      pool(WETH, B, 10000, 800n * E18)
    ]
    const router = routerFor(pools)
    const two = found(router.quote(request(A, B, E18)))
    assert.deepStrictEqual(
      two.routes.map((r) => r.path),
      [[A, WETH, B]]
    )
    const three = found(router.quote(request(A, C, E18)))
    assert.deepStrictEqual(
      three.routes.map((r) => r.path),
      [[A, WETH, USDC, C]]
    )
    let amount = E18
    for (const hop of three.routes[0]!.hops) {
      const p = pools.find((x) => x.address === hop.pool)!
      assert.strictEqual(hop.amountIn, amount)
      amount = swap(p, p.token0 === hop.tokenIn, amount).amountOut
      assert.strictEqual(hop.amountOut, amount)
    }
    assert.strictEqual(three.amountOut, amount)
    // maxHops 2 leaves no path to C.
    assert.strictEqual(routerFor(pools, config({ maxHops: 2 })).quote(request(A, C, E18))._tag, "NoRoute")
  })

  it("exact output runs backwards through the hops and round-trips with exact input", () => {
    const pools = [pool(A, WETH, 3000, 1000n * E18), pool(WETH, B, 500, 2000n * E18)]
    const router = routerFor(pools, config({ maxSplits: 1 }))
    const want = 7n * E18
    const q = found(router.quote(request(A, B, want, "exactOut")))
    assert.strictEqual(q.amountOut, want)
    const [h1, h2] = q.routes[0]!.hops
    const p2 = pools[1]!
    const last = swap(p2, p2.token0 === WETH, -want)
    assert.strictEqual(h2!.amountOut, want)
    assert.strictEqual(h2!.amountIn, last.amountIn)
    assert.strictEqual(h1!.amountOut, last.amountIn)
    assert.strictEqual(q.quoteGasAdjusted, q.amountIn + q.gasCostInQuoteToken!)
    // Paying the quoted input buys at least the wanted output; a wei less than needed... never more than asked.
    const back = found(router.quote(request(A, B, q.amountIn, "exactIn")))
    assert.isTrue(back.amountOut >= want, `${back.amountOut} < ${want}`)
    const less = found(router.quote(request(A, B, q.amountIn - q.amountIn / 1000n, "exactIn")))
    assert.isTrue(less.amountOut < want)
  })

  it("splits across pools when that beats the best single route (thin pair)", () => {
    const pools = [
      pool(A, WETH, 3000, 100n * E18),
      pool(A, WETH, 500, 60n * E18),
      pool(A, USDC, 3000, 80n * E18),
      pool(USDC, WETH, 100, 100_000n * E18)
    ]
    const router = routerFor(pools)
    const amount = 40n * E18
    const single = found(router.quote(request(A, WETH, amount, "exactIn", 1)))
    const split = found(router.quote(request(A, WETH, amount)))
    assert.strictEqual(single.routes.length, 1)
    assert.isTrue(split.routes.length >= 2, `routes: ${split.routes.length}`)
    assert.isTrue(
      split.quoteGasAdjusted > single.quoteGasAdjusted,
      `${split.quoteGasAdjusted} <= ${single.quoteGasAdjusted}`
    )
    assert.strictEqual(
      split.routes.reduce((s, r) => s + r.amountIn, 0n),
      amount
    )
    assert.strictEqual(
      split.routes.reduce((s, r) => s + r.percent, 0),
      100
    )
    // No pool serves two legs, and each leg equals its own exact simulation.
    const used = split.routes.flatMap((r) => r.hops.map((h) => h.pool))
    assert.strictEqual(new Set(used).size, used.length)
    for (const r of split.routes) {
      let amt = r.amountIn
      for (const h of r.hops) {
        const p = pools.find((x) => x.address === h.pool)!
        amt = swap(p, p.token0 === h.tokenIn, amt).amountOut
      }
      assert.strictEqual(r.amountOut, amt)
    }
    // Exact output splits too, and pays less input than the single route.
    const want = 30n * E18
    const singleOut = found(router.quote(request(A, WETH, want, "exactOut", 1)))
    const splitOut = found(router.quote(request(A, WETH, want, "exactOut")))
    assert.isTrue(splitOut.routes.length >= 2 && splitOut.amountIn < singleOut.amountIn)
    assert.strictEqual(
      splitOut.routes.reduce((s, r) => s + r.amountOut, 0n),
      want
    )
  })

  it("splits against a route that avoids the best route's pools even when its siblings rank higher at small shares", () => {
    // Four A/WETH tiers into one thin WETH/B pool: these four routes are the best at 100 % and at 5 %, and all share
    // the WETH/B pool. The costly A/USDC/B route ranks below all four, yet taking part of the amount off the thin pool
    // through it beats every single route.
    const thin = pool(WETH, B, 500, 100n * E18)
    const pools = [
      ...[100, 500, 3000, 10000].map((fee) => pool(A, WETH, fee, 10_000n * E18)),
      thin,
      pool(A, USDC, 10000, 100n * E18),
      pool(USDC, B, 10000, 100n * E18)
    ]
    const router = routerFor(pools, config({ poolsPerPair: 4 }))
    const amount = 10n * E18
    const single = found(router.quote(request(A, B, amount, "exactIn", 1)))
    assert.deepStrictEqual(single.routes[0]!.path, [A, WETH, B])
    const split = found(router.quote(request(A, B, amount)))
    assert.deepStrictEqual(
      split.routes.map((r) => r.path),
      [
        [A, WETH, B],
        [A, USDC, B]
      ]
    )
    assert.isTrue(
      split.quoteGasAdjusted > single.quoteGasAdjusted,
      `${split.quoteGasAdjusted} <= ${single.quoteGasAdjusted}`
    )
  })

  it("fails as data: no pools, no route, not enough liquidity", () => {
    const concentrated = buildPool({
      address: token(0xcfff),
      token0: D < WETH ? D : WETH,
      token1: D < WETH ? WETH : D,
      fee: 3000,
      sqrtPriceX96: Q96,
      positions: [{ tickLower: -600, tickUpper: 600, liquidity: 10n * E18 }]
    })
    const router = routerFor([pool(A, WETH, 3000, 100n * E18), pool(B, C, 3000, 100n * E18), concentrated])
    assert.strictEqual(router.quote(request(A, E, E18))._tag, "NoPoolsAvailable")
    assert.strictEqual(router.quote(request(E, A, E18))._tag, "NoPoolsAvailable")
    assert.strictEqual(router.quote(request(A, B, E18))._tag, "NoRoute")
    // The concentrated pool holds < 1 WETH: asking for 5 cannot fill; selling a lot of D runs past its range.
    assert.strictEqual(router.quote(request(D, WETH, 5n * E18, "exactOut"))._tag, "InsufficientLiquidity")
    assert.strictEqual(router.quote(request(D, WETH, 5n * E18, "exactIn"))._tag, "InsufficientLiquidity")
    assert.strictEqual(found(router.quote(request(D, WETH, E18 / 10n, "exactIn"))).routes.length, 1)
  })

  it("applies deltas: new state, removed pools, new block; gas in the quote token needs a WETH path", () => {
    const p = pool(A, WETH, 3000, 100n * E18)
    const q = pool(A, B, 3000, 100n * E18)
    const router = routerFor([p, q])
    const before = found(router.quote(request(A, WETH, E18)))
    // B has no WETH pool: no gas conversion for quotes paid in B.
    const inB = found(router.quote(request(A, B, E18)))
    assert.strictEqual(inB.gasCostInQuoteToken, null)
    assert.strictEqual(inB.quoteGasAdjusted, inB.amountOut)

    const deeper = { ...pool(A, WETH, 3000, 400n * E18), address: p.address }
    router.apply({ chainId: 31337, blockNumber: 11n, pools: [deeper], removed: [] })
    assert.strictEqual(router.blockNumber(), 11n)
    const after = found(router.quote(request(A, WETH, E18)))
    assert.isTrue(after.amountOut > before.amountOut)
    assert.strictEqual(after.blockNumber, 11n)

    router.apply({ chainId: 31337, blockNumber: 12n, pools: [], removed: [p.address] })
    assert.strictEqual(router.quote(request(A, WETH, E18))._tag, "NoPoolsAvailable")
  })
})
