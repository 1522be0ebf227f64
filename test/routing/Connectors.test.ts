/**
 * Non-base intermediates (workers/routing/Routes.ts "connectors"): a route through a token that is neither WETH nor
 * the stablecoin is found, and chosen when it beats the base routes, for 2 hops (a connector of either end) and for
 * 3 hops (a connector's second hop); connectors are ranked by depth in the end token's own units, not by raw
 * liquidity; and the counts stay within `connectorsPerToken` / `secondHopsPerConnector`.
 */
import { assert, describe, it } from "@effect/vitest"
import { PoolGraph } from "../../workers/routing/Graph.ts"
import { makeRouter } from "../../workers/routing/index.ts"
import { swap } from "../../workers/routing/math/PoolSwap.ts"
import { candidateRoutes, intermediates } from "../../workers/routing/Routes.ts"
import type {
  Address,
  PoolSnapshot,
  PoolState,
  QuoteResult,
  RoutingConfig,
  RoutingOutcome,
  TradeType
} from "../../workers/routing/types.ts"
import { config, E18, pool, Q96, token, USDC, WETH } from "./handBuilt.ts"

const [A, B, X, Y, Z] = [token(0xa1), token(0xa2), token(0xb1), token(0xb2), token(0xb3)]

const snapshot = (pools: ReadonlyArray<PoolState>): PoolSnapshot => ({
  chainId: 31337,
  blockNumber: 1n,
  pools,
  tokens: []
})

const quote = (
  pools: ReadonlyArray<PoolState>,
  cfg: RoutingConfig,
  tokenIn: Address,
  tokenOut: Address,
  amount: bigint,
  type: TradeType = "exactIn"
): QuoteResult => {
  const outcome: RoutingOutcome = makeRouter(snapshot(pools), cfg).quote({
    tokenIn,
    tokenOut,
    amount,
    type,
    gasPriceWei: 1_000_000_000n
  })
  if (outcome._tag !== "Found") throw new Error(`expected a quote, got ${outcome._tag}`)
  return outcome.quote
}

/** The tokens strictly inside the candidate routes' paths. */
const middleTokens = (pools: ReadonlyArray<PoolState>, cfg: RoutingConfig, tokenIn: Address, tokenOut: Address) =>
  new Set(
    candidateRoutes(new PoolGraph(snapshot(pools), cfg), cfg, tokenIn, tokenOut).flatMap((r) => r.path.slice(1, -1))
  )

describe("connector intermediates", () => {
  it("2 hops: a route through a non-base token wins when it beats the base routes, exactIn and exactOut", () => {
    // A/X and X/B are deep 0.05 % pools; the base route A/WETH/B runs through thinner 0.3 % pools.
    const pools = [
      pool(A, X, 500, 1000n * E18),
      pool(X, B, 500, 1000n * E18),
      pool(A, WETH, 3000, 100n * E18),
      pool(WETH, B, 3000, 100n * E18)
    ]
    const withConnectors = quote(pools, config(), A, B, E18)
    assert.deepStrictEqual(
      withConnectors.routes.map((r) => r.path),
      [[A, X, B]]
    )
    // Exactly the two pools' swaps chained.
    const [p1, p2] = [pools[0]!, pools[1]!]
    const mid = swap(p1, p1.token0 === A, E18).amountOut
    assert.strictEqual(withConnectors.amountOut, swap(p2, p2.token0 === X, mid).amountOut)

    const basesOnly = quote(pools, config({ connectorsPerToken: 0 }), A, B, E18)
    assert.deepStrictEqual(
      basesOnly.routes.map((r) => r.path),
      [[A, WETH, B]]
    )
    assert.isTrue(
      withConnectors.amountOut > basesOnly.amountOut,
      `${withConnectors.amountOut} <= ${basesOnly.amountOut}`
    )
    assert.isTrue(withConnectors.quoteGasAdjusted > basesOnly.quoteGasAdjusted)

    const out = quote(pools, config(), A, B, E18, "exactOut")
    assert.deepStrictEqual(
      out.routes.map((r) => r.path),
      [[A, X, B]]
    )
    assert.isTrue(out.amountIn < quote(pools, config({ connectorsPerToken: 0 }), A, B, E18, "exactOut").amountIn)
  })

  it("the base route still wins when it is better", () => {
    const pools = [
      pool(A, X, 10000, 50n * E18),
      pool(X, B, 10000, 50n * E18),
      pool(A, WETH, 500, 1000n * E18),
      pool(WETH, B, 500, 1000n * E18)
    ]
    const q = quote(pools, config(), A, B, E18)
    assert.deepStrictEqual(
      q.routes.map((r) => r.path),
      [[A, WETH, B]]
    )
    assert.isTrue(middleTokens(pools, config(), A, B).has(X), "X was a candidate")
  })

  it("3 hops: a connector's second hop reaches a token the ends do not rank", () => {
    // A's deepest partner is X; X's is Y; Y/B is B's shallowest pool, so B's one connector is Z (a dead end).
    const pools = [
      pool(A, X, 500, 1000n * E18),
      pool(X, Y, 500, 1000n * E18),
      pool(Y, B, 500, 900n * E18),
      pool(B, Z, 500, 5000n * E18),
      pool(A, WETH, 3000, 50n * E18),
      pool(WETH, B, 3000, 50n * E18)
    ]
    const cfg = config({ connectorsPerToken: 1 })
    const graph = new PoolGraph(snapshot(pools), cfg)
    assert.deepStrictEqual(intermediates(graph, cfg, A, B).connectors, {
      in: [X],
      out: [Z],
      secondIn: [Y],
      secondOut: []
    })
    const q = quote(pools, cfg, A, B, E18)
    assert.deepStrictEqual(
      q.routes.map((r) => r.path),
      [[A, X, Y, B]]
    )
    const noSecond = quote(pools, config({ connectorsPerToken: 1, secondHopsPerConnector: 0 }), A, B, E18)
    assert.deepStrictEqual(
      noSecond.routes.map((r) => r.path),
      [[A, WETH, B]]
    )
    assert.isTrue(q.amountOut > noSecond.amountOut)
    // With maxHops 2 no second hops are taken at all.
    assert.deepStrictEqual(
      intermediates(new PoolGraph(snapshot(pools), config({ maxHops: 2 })), config({ maxHops: 2 }), A, B).connectors
        .secondIn,
      []
    )
  })

  it("ranks partners by depth in the end token's units, not by raw liquidity", () => {
    // Q has 6 decimals: 1 A (1e18) = 1 Q (1e6), price 1e-12. Its pool holds 500 A at L = √(500e18 · 500e6) = 5e14,
    // far below the raw L of P's 100-A pool (1e20), yet it is the deeper pool for A.
    const [P, Q] = [token(0xd1), token(0xd2)]
    assert.isTrue(A < Q, "A must be token0 for the price below")
    const pools = [
      pool(A, P, 500, 100n * E18),
      pool(A, Q, 500, 500_000_000_000_000n, { sqrtPriceX96: Q96 / 1_000_000n })
    ]
    const graph = new PoolGraph(snapshot(pools), config())
    assert.deepStrictEqual(graph.deepestPartners(A, 5), [Q, P])
    assert.deepStrictEqual(graph.deepestPartners(A, 1), [Q])
  })

  it("takes at most connectorsPerToken per end and secondHopsPerConnector per connector", () => {
    // A pairs with X1..X6, deepest first; B pairs with the same tokens, shallowest first; each Xi also pairs with a
    // token Wi of its own (their second hops), one more pool each, deepest for X1.
    const xs = [1, 2, 3, 4, 5, 6].map((i) => token(0xf0 + i))
    const ws = [1, 2, 3, 4, 5, 6].map((i) => token(0xf8 + i))
    const pools = xs.flatMap((x, i) => [
      pool(A, x, 3000, BigInt(600 - 100 * i) * E18),
      pool(x, B, 3000, BigInt(100 + 100 * i) * E18),
      pool(x, ws[i]!, 3000, BigInt(2000 - 100 * i) * E18),
      pool(ws[i]!, B, 3000, 10n * E18)
    ])
    pools.push(pool(A, WETH, 3000, 10n * E18), pool(WETH, B, 3000, 10n * E18))
    for (const [c, s] of [
      [1, 1],
      [2, 1],
      [3, 0],
      [3, 2]
    ] as const) {
      const cfg = config({ connectorsPerToken: c, secondHopsPerConnector: s })
      const { connectors, middle, first, second } = intermediates(new PoolGraph(snapshot(pools), cfg), cfg, A, B)
      assert.deepStrictEqual(connectors.in, xs.slice(0, c))
      assert.deepStrictEqual(connectors.out, xs.slice(6 - c).reverse())
      assert.isAtMost(connectors.secondIn.length, c * s)
      assert.isAtMost(connectors.secondOut.length, c * s)
      // Bases + connectors only: nothing beyond the bound reaches a route.
      assert.isAtMost(middle.length, 2 + 2 * c)
      assert.isAtMost(first.length, 2 + c + c * s)
      assert.isAtMost(second.length, 2 + c + c * s)
      const allowed = new Set([
        WETH,
        USDC,
        ...connectors.in,
        ...connectors.out,
        ...connectors.secondIn,
        ...connectors.secondOut
      ])
      for (const t of middleTokens(pools, cfg, A, B)) assert.isTrue(allowed.has(t), `${t} is outside the bound`)
    }
    // With 1 connector per end: X1 (A's deepest) and X6 (B's deepest) only; X2..X5 never appear in a route.
    const one = middleTokens(pools, config({ connectorsPerToken: 1, secondHopsPerConnector: 0 }), A, B)
    assert.deepStrictEqual([...one].filter((t) => xs.includes(t)).sort(), [xs[0]!, xs[5]!].sort())
  })
})
