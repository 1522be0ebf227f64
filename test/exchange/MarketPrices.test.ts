import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schedule } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { type Address, type LocalAccount, parseAbi, parseEther } from "viem"
import { writeDeploymentsSync } from "../../layers/Deployments.ts"
import { erc20Abi, swapRouter02Abi } from "../../scripts/devnet/abis.ts"
import { approve, balanceOf, permit2Allow, sendTx } from "../quotes/chain.ts"
import { quoterAmount } from "../quotes/support.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { type MainnetShapedChain, scopedMainnetShaped } from "../support/MainnetShaped.ts"
import { type ServiceProcess, startServiceProcess } from "../support/ServiceProcess.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { fetchJson } from "../support/TestServer.ts"

/**
 * The app (exchange, search, indexer: one real process over RPC_URL) on the mainnet-shaped devnet, whose WETH/stable
 * pools all predate the start block: they are listed, counted and searchable; USD prices come from the deepest
 * WETH/stable pool; a blue chip's from its deepest path (through WETH or straight to a stablecoin); a dust pool at a wild
 * price moves nothing; a launch token quotes to 6-decimal USDC through WETH, equal to QuoterV2, and the calldata pays
 * exactly the quote (SwapRouter02, and UniversalRouter with Permit2); a fee-on-transfer token is refused.
 */

class Scenario extends Context.Service<Scenario, MainnetShapedChain>()("test/exchange/MarketPrices/Scenario") {}
class AppProcess extends Context.Service<AppProcess, ServiceProcess>()("test/exchange/MarketPrices/AppProcess") {}

const ScenarioLive = Layer.effect(Scenario, scopedMainnetShaped())
/** The test's anvil as the AnvilChain that the process helpers read (its deployments: the scenario's). */
const AnvilLive = Layer.effect(
  AnvilChain,
  Effect.map(Scenario, ({ chain, scenario }) => AnvilChain.of({ ...chain, deployments: scenario.deployments }))
)
const AppLive = Layer.effect(
  AppProcess,
  Effect.gen(function* () {
    const { scenario } = yield* Scenario
    const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "market-prices-"))
    const file = NodePath.join(dir, "deployments.json")
    writeDeploymentsSync(file, scenario.deployments)
    return yield* startServiceProcess(["exchange", "search", "indexer"], {
      DEPLOYMENTS_FILE: file,
      INDEXER_POLL_MS: "100",
      QUOTE_OPEN: "true"
    })
  })
)
const App = AppLive.pipe(Layer.provideMerge(AnvilLive), Layer.provideMerge(Layer.mergeAll(TestDatabase, ScenarioLive)))

const poolAbi = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)",
  "function token0() view returns (address)"
])

/** Retries `request` until `done` holds (the indexer catching up), bounded; a timeout shows the last answer. */
const until = <A>(request: Effect.Effect<A>, done: (a: A) => boolean, what: string) => {
  let last: A | undefined
  return request.pipe(
    Effect.tap((a) => Effect.sync(() => (last = a))),
    Effect.repeat({ until: done, schedule: Schedule.spaced("200 millis") }),
    Effect.timeoutOrElse({
      duration: "120 seconds",
      orElse: () => Effect.die(new Error(`${what}: not within 120 s; last answer ${JSON.stringify(last)}`))
    })
  )
}

/** The exchange's indexer status at the chain's head. */
const atHead = Effect.gen(function* () {
  const app = yield* AppProcess
  const { chain } = yield* Scenario
  const head = yield* Effect.promise(() => chain.blockNumber())
  yield* until(
    fetchJson(`${app.urls.exchange}/api/v1/indexer/status`),
    (r) => r.body.lastIndexedBlock !== null && BigInt(r.body.lastIndexedBlock) >= head,
    "indexer at the head"
  )
  return head
})

/**
 * A quote (`query` after `/api/v1/quote?`) on the engine's state at `head` or later: the engine applies a block after
 * the indexer reports it (PoolSync), so a quote asked right after `atHead` may still be one block behind, and its
 * calldata would then ask for more than the chain pays. Retried until a 200 answers at `head` (the test's bound).
 */
const quoteAtHead = (query: string, head: bigint) =>
  Effect.gen(function* () {
    const app = yield* AppProcess
    return yield* until(
      fetchJson(`${app.urls.exchange}/api/v1/quote?${query}`),
      (r) => r.status === 200 && BigInt(r.body.blockNumber) >= head,
      "a quote at the head"
    )
  })

/** Price of `token` in the pool's other token (human units), from the chain's slot0. */
const chainPrice = (pool: Address, token: Address, decimals: number, otherDecimals: number) =>
  Effect.gen(function* () {
    const { chain } = yield* Scenario
    const [slot0, token0] = yield* Effect.promise(() =>
      Promise.all([
        chain.publicClient.readContract({ address: pool, abi: poolAbi, functionName: "slot0" }),
        chain.publicClient.readContract({ address: pool, abi: poolAbi, functionName: "token0" })
      ])
    )
    const raw = (Number(slot0[0]) / 2 ** 96) ** 2
    const isToken0 = token0.toLowerCase() === token.toLowerCase()
    return isToken0 ? raw * 10 ** (decimals - otherDecimals) : 10 ** (decimals - otherDecimals) / raw
  })

/**
 * Sends a quote's calldata from `account` at the state it was quoted on: `account` spends exactly amountIn and
 * `recipient` receives exactly amountOut.
 */
const executesAsQuoted = (account: LocalAccount, q: any, recipient: Address) =>
  Effect.gen(function* () {
    const tokenIn = q.tokenIn.address as Address
    const tokenOut = q.tokenOut.address as Address
    const [in0, out0] = [yield* balanceOf(tokenIn, account.address), yield* balanceOf(tokenOut, recipient)]
    yield* sendTx(account, {
      to: q.methodParameters.to,
      data: q.methodParameters.calldata,
      value: q.methodParameters.value
    })
    const [in1, out1] = [yield* balanceOf(tokenIn, account.address), yield* balanceOf(tokenOut, recipient)]
    assert.strictEqual((in0 - in1).toString(), q.amountIn, `${q.routerType}: input spent`)
    assert.strictEqual((out1 - out0).toString(), q.amountOut, `${q.routerType}: output received`)
  })

const tokenPrice = (address: Address) =>
  Effect.gen(function* () {
    const app = yield* AppProcess
    const res = yield* fetchJson(`${app.urls.exchange}/api/v1/tokens/${address}-31337`)
    assert.strictEqual(res.status, 200, JSON.stringify(res.body))
    return res.body.priceUsd as number
  })

layer(App, { timeout: "300 seconds", excludeTestServices: true })("a market that predates the start block", (it) => {
  it.effect("its pools are listed, counted and searchable; USD prices come from the deepest stable pool", () =>
    Effect.gen(function* () {
      const app = yield* AppProcess
      const { scenario } = yield* Scenario
      const exchange = app.urls.exchange!
      yield* atHead
      const listed = (yield* fetchJson(`${exchange}/api/v1/pools/list?limit=100`)).body.items.map((p: any) =>
        p.address.toLowerCase()
      )
      for (const p of scenario.pools) assert.include(listed, p.address.toLowerCase(), p.label)
      const stats = (yield* fetchJson(`${exchange}/api/v1/stats/global`)).body
      assert.isAtLeast(stats.pools, scenario.pools.length + scenario.deployments.launches.length)
      // The 2,000 WETH + 6M USDC pool alone is worth about $12M.
      assert.isAbove(stats.tvlUsd, 11_000_000, JSON.stringify(stats))
      const found = yield* until(
        fetchJson(`${app.urls.search}/api/v1/search/pools?q=${scenario.tokens.usdc}&limit=100`),
        (r) => r.status === 200 && r.body.items.length > 0,
        "USDC pools searchable"
      )
      const searched = found.body.items.map((h: any) => h.pool.address.toLowerCase())
      assert.include(searched, scenario.deepestStablePool.toLowerCase())

      const { weth, usdc } = scenario.tokens
      const wethUsd = yield* chainPrice(scenario.deepestStablePool, weth, 18, 6)
      assert.closeTo(yield* tokenPrice(weth), wethUsd, wethUsd * 1e-6)
      assert.strictEqual(yield* tokenPrice(usdc), 1)
      for (const launch of scenario.deployments.launches) {
        const inWeth = yield* chainPrice(launch.pool, launch.token, 18, 18)
        assert.closeTo(yield* tokenPrice(launch.token), inWeth * wethUsd, inWeth * wethUsd * 1e-3, launch.symbol)
      }
    })
  )

  it.effect("a dust pool at a wild price moves no price", () =>
    Effect.gen(function* () {
      const { chain, scenario } = yield* Scenario
      const { weth, usdc } = scenario.tokens
      const lp = chain.accounts[0]!
      const { swapRouter02 } = scenario.deployments.contracts
      yield* atHead
      const wethBefore = yield* tokenPrice(weth)
      const dustBefore = yield* chainPrice(scenario.dustPool, weth, 18, 6)
      // 100 USDC into a pool of 0.001 WETH: its price goes through the roof.
      yield* Effect.promise(() =>
        chain.sender.write(lp, swapRouter02, swapRouter02Abi, "exactInputSingle", [
          {
            tokenIn: usdc,
            tokenOut: weth,
            fee: 10000,
            recipient: lp.address,
            amountIn: 100_000_000n,
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: 0n
          }
        ])
      )
      const dustAfter = yield* chainPrice(scenario.dustPool, weth, 18, 6)
      assert.isAbove(dustAfter, dustBefore * 100)
      // Then a launch bought: its USD price is taken after the dust swap.
      const launch = scenario.deployments.launches[0]!
      const buyer = chain.accounts[8]!
      yield* Effect.promise(() =>
        chain.sender.write(
          buyer,
          swapRouter02,
          swapRouter02Abi,
          "exactInputSingle",
          [
            {
              tokenIn: weth,
              tokenOut: launch.token,
              fee: launch.fee,
              recipient: buyer.address,
              amountIn: parseEther("0.2"),
              amountOutMinimum: 0n,
              sqrtPriceLimitX96: 0n
            }
          ],
          parseEther("0.2")
        )
      )
      yield* atHead
      assert.closeTo(yield* tokenPrice(weth), wethBefore, wethBefore * 1e-9)
      const inWeth = yield* chainPrice(launch.pool, launch.token, 18, 18)
      assert.closeTo(yield* tokenPrice(launch.token), inWeth * wethBefore, inWeth * wethBefore * 1e-3)
    })
  )

  it.effect("a blue chip's USD price follows its deepest path: WBTC through WETH, LINK straight to USDC", () =>
    Effect.gen(function* () {
      const { scenario } = yield* Scenario
      const { weth, usdc } = scenario.tokens
      const { wbtc, link } = scenario.blueChips
      yield* atHead
      const wethUsd = yield* chainPrice(scenario.deepestStablePool, weth, 18, 6)
      assert.closeTo(yield* tokenPrice(usdc), 1, 1e-12)
      const paths = [
        {
          what: "WBTC",
          token: wbtc.token,
          deep: (yield* chainPrice(wbtc.deepPool, wbtc.token, 8, 18)) * wethUsd,
          shallow: yield* chainPrice(wbtc.shallowPool, wbtc.token, 8, 6)
        },
        {
          what: "LINK",
          token: link.token,
          deep: yield* chainPrice(link.deepPool, link.token, 18, 6),
          shallow: (yield* chainPrice(link.shallowPool, link.token, 18, 18)) * wethUsd
        }
      ]
      for (const { what, token, deep, shallow } of paths) {
        // The shallow path is several percent off: following it would fail the 0.1 % bound.
        assert.isAbove(Math.abs(shallow - deep) / deep, 0.03, `${what}: the scenario's paths must disagree`)
        assert.closeTo(yield* tokenPrice(token), deep, deep * 1e-3, what)
      }
    })
  )

  it.effect("a quote through the fee-on-transfer token is refused over HTTP: FEE_ON_TRANSFER_UNSUPPORTED", () =>
    Effect.gen(function* () {
      const app = yield* AppProcess
      const { chain, scenario } = yield* Scenario
      const taxed = scenario.feeOnTransfer.token
      const launch = scenario.deployments.launches[0]!
      yield* atHead
      for (const [tokenIn, tokenOut, amount] of [
        [taxed, scenario.tokens.usdc, parseEther("100")],
        [launch.token, taxed, parseEther("1000")]
      ] as const) {
        const res = yield* fetchJson(
          `${app.urls.exchange}/api/v1/quote?chainId=31337&tokenInAddress=${tokenIn}&tokenOutAddress=${tokenOut}` +
            `&amount=${amount}&type=exactIn&recipient=${chain.accounts[2]!.address}`
        )
        assert.strictEqual(res.status, 400, JSON.stringify(res.body))
        assert.strictEqual(res.body.code, "FEE_ON_TRANSFER_UNSUPPORTED")
        assert.deepStrictEqual(res.body.details.tokens, [{ address: taxed.toLowerCase(), feeBps: 200 }])
      }
    })
  )

  it.effect(
    "a launch token quotes to 6-decimal USDC through WETH, equal to QuoterV2 to the wei, and its calldata pays it",
    () =>
      Effect.gen(function* () {
        const { chain, scenario } = yield* Scenario
        const launch = scenario.deployments.launches[1]!
        const holder = chain.accounts[6]!
        const { swapRouter02 } = scenario.deployments.contracts
        // The wallet side first (its blocks move no pool): SwapRouter02 pulls the input.
        yield* approve(holder, launch.token, swapRouter02)
        const head = yield* atHead
        const amount =
          (yield* Effect.promise(() =>
            chain.publicClient.readContract({
              address: launch.token,
              abi: erc20Abi,
              functionName: "balanceOf",
              args: [holder.address]
            })
          )) / 10n
        const res = yield* quoteAtHead(
          `chainId=31337&tokenInAddress=${launch.token}&tokenOutAddress=${scenario.tokens.usdc}` +
            `&amount=${amount}&type=exactIn&recipient=${holder.address}`,
          head
        )
        // QuoterV2 simulates each route alone: the routes of a split must not share a pool for that to hold.
        const pools = res.body.route.flatMap((r: any) => r.map((h: any) => h.address))
        assert.strictEqual(new Set(pools).size, pools.length, res.body.routeString)
        let out = 0n
        for (const route of res.body.route) {
          const tokens = [route[0].tokenIn.address, ...route.map((h: any) => h.tokenOut.address)].map((a: string) =>
            a.toLowerCase()
          )
          // Out of the launch's only pool (with WETH), then into USDC, directly or through another stablecoin.
          assert.strictEqual(tokens[0], launch.token.toLowerCase(), res.body.routeString)
          assert.strictEqual(tokens[1], scenario.tokens.weth.toLowerCase(), res.body.routeString)
          assert.strictEqual(tokens.at(-1), scenario.tokens.usdc.toLowerCase(), res.body.routeString)
          const routeIn = BigInt(route[0].amountIn)
          const routeOut = BigInt(route.at(-1).amountOut)
          assert.strictEqual(
            yield* quoterAmount(scenario.deployments.contracts.quoterV2!, "exactIn", route, routeIn),
            routeOut
          )
          out += routeOut
        }
        assert.strictEqual(out.toString(), res.body.amountOut)
        assert.isAbove(Number(out), 0)
        yield* executesAsQuoted(holder, res.body, holder.address)

        // The same through the UniversalRouter: Permit2 pulls the input; output to another wallet.
        yield* permit2Allow(holder, launch.token)
        const universal = yield* quoteAtHead(
          `chainId=31337&tokenInAddress=${launch.token}&tokenOutAddress=${scenario.tokens.usdc}` +
            `&amount=${amount}&type=exactIn&recipient=${chain.accounts[3]!.address}&routerType=universal`,
          yield* atHead
        )
        assert.strictEqual(
          universal.body.methodParameters.to,
          scenario.deployments.contracts.universalRouter.toLowerCase()
        )
        yield* executesAsQuoted(holder, universal.body, chain.accounts[3]!.address)
      })
  )
})
