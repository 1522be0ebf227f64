/**
 * Property test: the bigint swap loop (workers/routing/math) equals @uniswap/v3-sdk's Pool.getOutputAmount /
 * getInputAmount (with a TickListDataProvider) on random pools and swaps: both fee-tier spacings and directions,
 * exact input and exact output, with and without a price limit, prices inside a tick and exactly on one, swaps that
 * fill and swaps that run out of liquidity. When the swap fills, the pool state after it must match as well.
 */
import { assert, describe, it } from "@effect/vitest"
import type * as SdkCore from "@uniswap/sdk-core"
import type * as V3Sdk from "@uniswap/v3-sdk"
import fc from "fast-check"
import { createRequire } from "node:module"
import { capacityOf, exceedsCapacity } from "../../workers/routing/math/Capacity.ts"
import { estimateSwap } from "../../workers/routing/math/Estimate.ts"
import { swap, type SwapResult } from "../../workers/routing/math/PoolSwap.ts"
import { defaultLimit } from "../../workers/routing/math/SwapLoop.ts"
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "../../workers/routing/math/TickMath.ts"
import {
  buildPool,
  maxUsableTick,
  minUsableTick,
  priceInTick,
  TICK_SPACINGS,
  usableTick
} from "../../workers/routing/testing/PoolBuilder.ts"
import type { PoolState } from "../../workers/routing/types.ts"

const require = createRequire(import.meta.url)
const sdk = require("@uniswap/sdk-core") as typeof SdkCore
const v3 = require("@uniswap/v3-sdk") as typeof V3Sdk

const TOKEN0 = new sdk.Token(1, "0x1000000000000000000000000000000000000001", 18)
const TOKEN1 = new sdk.Token(1, "0x2000000000000000000000000000000000000002", 18)

/** Log-uniform positive bigint below 2^maxBits: covers dust and whale amounts alike. */
const logUniform = (maxBits: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxBits - 1 }), fc.bigInt({ min: 0n, max: (1n << BigInt(maxBits)) - 1n }))
    .map(([bits, x]) => (x % (1n << BigInt(bits + 1))) + 1n)

const poolArb = fc
  .record({
    // 0.01 % (tick spacing 1) weighted down: v3-sdk is slowest there (most words to walk).
    fee: fc.constantFrom(100, 500, 500, 3000, 3000, 10000),
    center: fc.integer({ min: -600_000, max: 600_000 }),
    positions: fc.array(
      fc.record({
        lower: fc.integer({ min: -300, max: 300 }),
        width: fc.integer({ min: 1, max: 600 }),
        liquidity: logUniform(110)
      }),
      { minLength: 1, maxLength: 8 }
    ),
    fullRange: fc.option(logUniform(100), { freq: 3 }),
    offset: fc.integer({ min: -350, max: 350 }),
    // 0: strictly inside a tick, 1: exactly on a tick, 2: on a tick with tick − 1 (left by a downward crossing)
    placement: fc.constantFrom(0, 0, 0, 1, 2),
    fractionPpm: fc.integer({ min: 1, max: 999_999 })
  })
  .map((g): PoolState => {
    const ts = TICK_SPACINGS[g.fee]!
    const center = usableTick(g.center, ts)
    const positions = g.positions.map((p) => {
      const tickLower = usableTick(center + p.lower * ts, ts)
      return { tickLower, tickUpper: Math.min(maxUsableTick(ts), tickLower + p.width * ts), liquidity: p.liquidity }
    })
    if (g.fullRange !== null)
      positions.push({ tickLower: minUsableTick(ts), tickUpper: maxUsableTick(ts), liquidity: g.fullRange })
    const tick = Math.max(-887_000, Math.min(887_000, center + g.offset * ts + (g.fractionPpm % ts)))
    const base = {
      address: "0x3000000000000000000000000000000000000003" as const,
      token0: "0x1000000000000000000000000000000000000001" as const,
      token1: "0x2000000000000000000000000000000000000002" as const,
      fee: g.fee,
      positions
    }
    if (g.placement === 0) return buildPool({ ...base, sqrtPriceX96: priceInTick(tick, g.fractionPpm) })
    if (g.placement === 1) return buildPool({ ...base, sqrtPriceX96: getSqrtRatioAtTick(tick) })
    return buildPool({ ...base, sqrtPriceX96: getSqrtRatioAtTick(tick), tick: tick - 1 })
  })
  .filter((pool) => pool.ticks.length > 0)

const swapArb = fc.record({
  zeroForOne: fc.boolean(),
  exactIn: fc.boolean(),
  amount: logUniform(120),
  // A price limit some ticks away in the direction of the swap, or (1 in 8: v3-sdk walks every empty word to the
  // extreme in JSBI, the slowest case by far) none: the pool's extremes, as QuoterV2 uses.
  limitTicks: fc.option(fc.integer({ min: 0, max: 20_000 }), { freq: 8 })
})

const limitFor = (pool: PoolState, zeroForOne: boolean, limitTicks: number | null): bigint | undefined => {
  if (limitTicks === null) return undefined
  const limit = zeroForOne
    ? getSqrtRatioAtTick(Math.max(-887_272, pool.tick - limitTicks)) + 1n
    : getSqrtRatioAtTick(Math.min(887_272, pool.tick + 1 + limitTicks)) - 1n
  const valid = zeroForOne
    ? limit < pool.sqrtPriceX96 && limit > MIN_SQRT_RATIO
    : limit > pool.sqrtPriceX96 && limit < MAX_SQRT_RATIO
  return valid ? limit : undefined
}

const sdkPool = (pool: PoolState) =>
  new v3.Pool(
    TOKEN0,
    TOKEN1,
    pool.fee,
    pool.sqrtPriceX96.toString(),
    pool.liquidity.toString(),
    pool.tick,
    new v3.TickListDataProvider(
      pool.ticks.map((t) => ({
        index: t.index,
        liquidityNet: t.liquidityNet.toString(),
        liquidityGross: (t.liquidityNet < 0n ? -t.liquidityNet : t.liquidityNet).toString()
      })),
      pool.tickSpacing
    )
  )

/** Every field, the lazily computed tick included. */
const plain = (r: SwapResult) => ({
  amountIn: r.amountIn,
  amountOut: r.amountOut,
  filled: r.filled,
  sqrtPriceX96: r.sqrtPriceX96,
  tick: r.tick,
  liquidity: r.liquidity,
  ticksCrossed: r.ticksCrossed
})

const RUNS = 10_000
/** ~13 s on an idle 2-core machine; v3-sdk walks every bitmap word in JSBI, so leave room for a loaded one. */
const TIMEOUT = 300_000

describe("PoolSwap", () => {
  it(
    "equals v3-sdk getOutputAmount/getInputAmount on random pools and swaps",
    async () => {
      const counts = { filled: 0, unfilled: 0, exactIn: 0, exactOut: 0, crossed: 0 }
      await fc.assert(
        fc.asyncProperty(poolArb, swapArb, async (pool, s) => {
          const limit = limitFor(pool, s.zeroForOne, s.limitTicks)
          const ours = swap(pool, s.zeroForOne, s.exactIn ? s.amount : -s.amount, limit)
          const p = sdkPool(pool)
          const limitJsbi =
            limit === undefined ? undefined : sdk.CurrencyAmount.fromRawAmount(TOKEN0, limit.toString()).quotient
          const [tokenIn, tokenOut] = s.zeroForOne ? [TOKEN0, TOKEN1] : [TOKEN1, TOKEN0]
          const [amount, after] = s.exactIn
            ? await p.getOutputAmount(sdk.CurrencyAmount.fromRawAmount(tokenIn, s.amount.toString()), limitJsbi)
            : await p.getInputAmount(sdk.CurrencyAmount.fromRawAmount(tokenOut, s.amount.toString()), limitJsbi)
          if (s.exactIn) assert.strictEqual(ours.amountOut.toString(), amount.quotient.toString(), "amountOut")
          else assert.strictEqual(ours.amountIn.toString(), amount.quotient.toString(), "amountIn")
          if (ours.filled) {
            assert.strictEqual(ours.sqrtPriceX96.toString(), after.sqrtRatioX96.toString(), "sqrtPriceX96 after")
            assert.strictEqual(ours.tick, after.tickCurrent, "tick after")
            assert.strictEqual(ours.liquidity.toString(), after.liquidity.toString(), "liquidity after")
            assert.strictEqual(s.exactIn ? ours.amountIn : ours.amountOut, s.amount)
            counts.filled++
          } else {
            // Not filled: v3-sdk went all the way to the price limit.
            const expected = limit ?? (s.zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n)
            assert.strictEqual(after.sqrtRatioX96.toString(), expected.toString(), "unfilled swap stops at the limit")
            assert.isTrue((s.exactIn ? ours.amountIn : ours.amountOut) < s.amount)
            counts.unfilled++
          }
          counts[s.exactIn ? "exactIn" : "exactOut"]++
          if (ours.ticksCrossed > 0) counts.crossed++
        }),
        { numRuns: RUNS }
      )
      // The generator must actually exercise every branch.
      assert.isTrue(counts.filled > RUNS / 4 && counts.unfilled > RUNS / 20, JSON.stringify(counts))
      assert.isTrue(
        counts.exactIn > RUNS / 3 && counts.exactOut > RUNS / 3 && counts.crossed > RUNS / 10,
        JSON.stringify(counts)
      )
    },
    TIMEOUT
  )

  it(
    "jumping over memoised steps equals stepping one by one, for many swaps on one pool state",
    () => {
      // An explicit limit equal to the default forces the plain loop; without one, swaps reuse SwapSegments' memo.
      fc.assert(
        fc.property(
          poolArb,
          fc.boolean(),
          fc.array(fc.tuple(fc.boolean(), logUniform(100)), { minLength: 5, maxLength: 20 }),
          (pool, zeroForOne, swaps) => {
            for (const [exactIn, amount] of swaps) {
              const specified = exactIn ? amount : -amount
              assert.deepStrictEqual(
                plain(swap(pool, zeroForOne, specified)),
                plain(swap(pool, zeroForOne, specified, defaultLimit(zeroForOne)))
              )
            }
          }
        ),
        { numRuns: 200 }
      )
    },
    TIMEOUT
  )

  it(
    "the float capacity check only rejects swaps that cannot fill",
    () => {
      let rejected = 0
      fc.assert(
        fc.property(
          poolArb,
          fc.boolean(),
          fc.boolean(),
          fc.integer({ min: -1000, max: 1000 }),
          (pool, zeroForOne, exactIn, ppm) => {
            const c = capacityOf(pool, zeroForOne)
            const cap = exactIn ? c.maxIn : c.maxOut
            if (!Number.isFinite(cap) || cap < 1 || cap > 2 ** 200) return
            // Amounts within ±0.1 % of the capacity: both sides of the boundary.
            const amount = BigInt(Math.floor(cap * (1 + ppm / 1e6))) + 1n
            if (exceedsCapacity(pool, zeroForOne, exactIn, amount)) {
              rejected++
              assert.isFalse(swap(pool, zeroForOne, exactIn ? amount : -amount).filled)
            }
          }
        ),
        { numRuns: 500 }
      )
      assert.isTrue(rejected > 50, `only ${rejected} amounts rejected`)
    },
    TIMEOUT
  )

  it(
    "the float estimate used by the split search stays close to the exact swap",
    () => {
      let compared = 0
      // Real-sized liquidity (with dust liquidity the integer rounding of each word step dominates any estimate), and
      // no 0.01 % tier: its exact swaps across the whole price range take thousands of steps each.
      const realPool = poolArb.filter(
        (pool) =>
          pool.fee !== 100 &&
          pool.ticks.every((t) => t.liquidityNet === 0n || t.liquidityNet > 1n << 40n || t.liquidityNet < -(1n << 40n))
      )
      fc.assert(
        fc.property(realPool, fc.boolean(), fc.boolean(), logUniform(90), (pool, zeroForOne, exactIn, amount) => {
          const exact = swap(pool, zeroForOne, exactIn ? amount : -amount)
          const estimate = estimateSwap(pool, zeroForOne, exactIn, Number(amount))
          const value = exactIn ? exact.amountOut : exact.amountIn
          if (!exact.filled || estimate === null || value < 10n ** 15n || amount < 10n ** 15n) return
          compared++
          assert.approximately(estimate.amount / Number(value), 1, 1e-6)
          assert.strictEqual(estimate.ticksCrossed, exact.ticksCrossed)
        }),
        { numRuns: 2000 }
      )
      assert.isTrue(compared > 80, `only ${compared} compared`)
    },
    TIMEOUT
  )
})
