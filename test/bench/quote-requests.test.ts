/**
 * The bench:quotes inputs: requests priced through WETH and sized in the exact token's units over the routing core's
 * generated universe (set B), and QuoterV2 paths packed as Uniswap packs them. (The generated pools themselves are
 * checked against v3-sdk by test/routing.)
 */
import { describe, expect, it } from "vitest"
import { makeRequests, pricesInEth } from "../../scripts/bench/quote-requests.ts"
import { packPath } from "../../scripts/bench/quote-quoterv2.ts"
import { GENERATED_USDC, GENERATED_WETH, generateUniverse } from "../../workers/routing/testing/generatePools.ts"
import type { Address } from "../../workers/routing/types.ts"

describe("makeRequests", () => {
  const { snapshot, usd } = generateUniverse(11, 300)

  it("prices tokens through their deepest WETH pool", () => {
    const prices = pricesInEth(snapshot, GENERATED_WETH)
    expect(prices.get(GENERATED_WETH)).toBe(1)
    // USDC at $1 with WETH at $3,000; the generator perturbs each pool's price by at most ±0.2 %.
    expect(1 / prices.get(GENERATED_USDC)!).toBeGreaterThan(2990)
    expect(1 / prices.get(GENERATED_USDC)!).toBeLessThan(3010)
    for (const [token, eth] of prices) expect((eth * 3000) / usd.get(token)!).toBeCloseTo(1, 1)
  })

  it("sizes requests in the exact token's units, half exactIn, pinned pairs first, deterministic", () => {
    const plan = {
      count: 40,
      seed: 5,
      minEth: 1,
      maxEth: 1,
      gasPriceWei: 1n,
      pinned: [
        [GENERATED_WETH, GENERATED_USDC],
        [GENERATED_WETH, GENERATED_USDC]
      ] as const
    }
    const requests = makeRequests(snapshot, GENERATED_WETH, plan)
    expect(requests).toHaveLength(40)
    expect(requests[0]).toMatchObject({
      tokenIn: GENERATED_WETH,
      tokenOut: GENERATED_USDC,
      type: "exactIn",
      amount: 10n ** 18n
    })
    // exactOut of 1 ETH worth of USDC: ~3,000 USDC (6 decimals).
    const usdcOut = requests.find((r) => r.type === "exactOut" && r.tokenOut === GENERATED_USDC)
    expect(usdcOut, "the second pinned pair is an exactOut of USDC").toBe(requests[1])
    expect(Number(usdcOut!.amount) / 1e6).toBeCloseTo(3000, -2)
    expect(requests.filter((r) => r.type === "exactOut")).toHaveLength(20)
    expect(makeRequests(snapshot, GENERATED_WETH, plan)).toEqual(requests)
  })
})

describe("packPath", () => {
  it("packs token, fee, token … and reverses for exactOut", () => {
    const a = "0x1111111111111111111111111111111111111111" as Address
    const b = "0x2222222222222222222222222222222222222222" as Address
    const c = "0x3333333333333333333333333333333333333333" as Address
    expect(packPath([a, b, c], [500, 3000], false)).toBe(
      `0x${"11".repeat(20)}0001f4${"22".repeat(20)}000bb8${"33".repeat(20)}`
    )
    expect(packPath([a, b, c], [500, 3000], true)).toBe(
      `0x${"33".repeat(20)}000bb8${"22".repeat(20)}0001f4${"11".repeat(20)}`
    )
  })
})
