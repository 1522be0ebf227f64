import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { parseEther } from "viem"
import { indexedHead } from "../exchange/support.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { buyWithWeth } from "./chain.ts"
import { exchange, matchesQuoter, query, QuoteServices } from "./support.ts"

/**
 * Quoted amounts equal the chain's QuoterV2 (quoteExactInput / quoteExactOutput by eth_call on each returned path)
 * to the wei, for random pairs among WETH, USDT and the launch tokens and random amounts, both trade types; and the
 * engine follows the chain: after a swap is indexed, the next quote is at the new block and still equals QuoterV2.
 */
const chainId = 31337

/** mulberry32: a small seeded PRNG, so a failure can be replayed. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** Amount magnitudes (powers of ten of base units) that the devnet pools can mostly fill, per token kind. */
const magnitudes = { weth: [13, 18], usdt: [16, 21], launch: [19, 25] } as const

const randomAmount = (next: () => number, [lo, hi]: readonly [number, number]) => {
  const exp = lo + Math.floor(next() * (hi - lo + 1))
  return (BigInt(Math.floor((1 + next() * 9) * 1e6)) * 10n ** BigInt(exp)) / 1_000_000n
}

layer(QuoteServices({ timeoutMs: 5000 }), { timeout: "300 seconds", excludeTestServices: true })(
  "quotes equal QuoterV2",
  (it) => {
    it.effect("random pairs and amounts, exactIn and exactOut: every route equals QuoterV2 to the wei", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        const head = yield* indexedHead
        const tokens = [
          { address: c.weth9, kind: "weth" as const },
          { address: c.stablecoin, kind: "usdt" as const },
          ...chain.deployments.launches
            .filter((l) => l.canonical)
            .map((l) => ({ address: l.token, kind: "launch" as const }))
        ]
        const next = prng(20261124)
        const outcomes: Record<string, number> = {}
        let checked = 0
        for (let round = 0; round < 3; round++)
          for (const tokenIn of tokens) {
            for (const tokenOut of tokens) {
              if (tokenIn === tokenOut) continue
              for (const type of ["exactIn", "exactOut"] as const) {
                const amount = randomAmount(next, magnitudes[type === "exactIn" ? tokenIn.kind : tokenOut.kind])
                const res = yield* exchange(
                  `/api/v1/quote?${query({
                    chainId,
                    tokenInAddress: tokenIn.address,
                    tokenOutAddress: tokenOut.address,
                    amount: amount.toString(),
                    type,
                    recipient: chain.accounts[0]!.address
                  })}`
                )
                const outcome = res.status === 200 ? "OK" : res.body.code
                outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
                if (res.status !== 200) {
                  // Only size-dependent outcomes are acceptable for random amounts.
                  assert.include(["INSUFFICIENT_LIQUIDITY", "AMOUNT_TOO_SMALL"], outcome, JSON.stringify(res.body))
                  continue
                }
                assert.strictEqual(BigInt(res.body.blockNumber), head)
                if ((yield* matchesQuoter(res.body, c.quoterV2!)) > 0) checked++
              }
            }
          }
        console.log(`quotes vs QuoterV2: ${checked} checked to the wei; outcomes ${JSON.stringify(outcomes)}`)
        assert.isAtLeast(checked, 120)
      })
    )

    it.effect("after a swap is indexed, the next quote is at the new block and equals QuoterV2 again", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        const launch = chain.deployments.launches.find((l) => l.canonical)!
        const params = {
          chainId,
          tokenInAddress: c.weth9,
          tokenOutAddress: launch.token,
          amount: parseEther("0.2").toString(),
          recipient: chain.accounts[0]!.address
        }
        yield* indexedHead
        const before = (yield* exchange(`/api/v1/quote?${query(params)}`)).body
        yield* buyWithWeth(chain.accounts[4]!, launch.token, launch.fee, parseEther("1"))
        const head = yield* indexedHead
        const after = (yield* exchange(`/api/v1/quote?${query(params)}`).pipe(
          Effect.repeat({ until: (r) => BigInt(r.body.blockNumber) >= head, schedule: Schedule.spaced("50 millis") }),
          Effect.timeout("30 seconds")
        )).body
        assert.isTrue(BigInt(after.amountOut) < BigInt(before.amountOut), "the buy moved the price")
        assert.notStrictEqual(after.route[0][0].sqrtRatioX96, before.route[0][0].sqrtRatioX96)
        const compared = yield* matchesQuoter(after, c.quoterV2!)
        assert.strictEqual(compared, after.route.length, `every route compared with QuoterV2 (${after.routeString})`)
        assert.isAtLeast(compared, 1)
      })
    )
  }
)
