import { assert, describe, it } from "@effect/vitest"
import { foldPosition } from "../../src/client-api/listings/tokens/Position.ts"

const E = 10n ** 18n
// token is token0: a buy has amount0 < 0 (tokens out) and amount1 > 0 (WETH in); a sell the opposite.
const buy = (tokens: bigint, weth: bigint, usd: number | null = null) => ({
  amount0: (-tokens).toString(),
  amount1: weth.toString(),
  amountUsd: usd
})
const sell = (tokens: bigint, weth: bigint, usd: number | null = null) => ({
  amount0: tokens.toString(),
  amount1: (-weth).toString(),
  amountUsd: usd
})

describe("position (average cost)", () => {
  it("no trades: all zero", () => {
    assert.deepStrictEqual(foldPosition([], true), {
      bought: 0n,
      sold: 0n,
      buys: 0,
      sells: 0,
      costBasisWei: 0n,
      realizedPnlWei: 0n,
      costBasisUsd: 0
    })
  })

  it("two buys then a partial sell: the sold part leaves at the average cost", () => {
    const p = foldPosition(
      [buy(100n * E, 1n * E, 3000), buy(100n * E, 3n * E, 9000), sell(50n * E, 2n * E, 6000)],
      true
    )
    assert.strictEqual(p.bought, 200n * E)
    assert.strictEqual(p.sold, 50n * E)
    assert.strictEqual(p.costBasisWei, 3n * E) // 4 WETH for 200 tokens, 50 sold at 0.02 each = 1 WETH
    assert.strictEqual(p.realizedPnlWei, 1n * E) // 2 received − 1 cost
    assert.strictEqual(p.costBasisUsd, 9000)
    assert.deepStrictEqual([p.buys, p.sells], [2, 1])
  })

  it("token as token1 reads the other amounts", () => {
    const p = foldPosition([{ amount0: (2n * E).toString(), amount1: (-10n * E).toString(), amountUsd: null }], false)
    assert.deepStrictEqual([p.bought, p.costBasisWei], [10n * E, 2n * E])
  })

  it("selling more than was bought (tokens received by transfer): the excess has no cost", () => {
    const p = foldPosition([buy(10n * E, 1n * E), sell(30n * E, 5n * E)], true)
    assert.strictEqual(p.costBasisWei, 0n)
    assert.strictEqual(p.realizedPnlWei, 4n * E)
    // A later buy starts a fresh basis.
    const q = foldPosition([buy(10n * E, 1n * E), sell(30n * E, 5n * E), buy(10n * E, 2n * E)], true)
    assert.strictEqual(q.costBasisWei, 2n * E)
  })
})
