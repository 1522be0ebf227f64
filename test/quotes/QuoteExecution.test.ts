import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { type Address, encodeFunctionData, parseEther } from "viem"
import { rpcRequest } from "../../layers/Anvil.ts"
import { erc20Abi } from "../../scripts/devnet/abis.ts"
import { indexedHead } from "../exchange/support.ts"
import { enforcedBound } from "../routing/enforcedBound.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { approve, balanceOf, buyWithWeth, permit2Allow, sendTx, wrap } from "./chain.ts"
import { exchange, postJson, query, QuoteServices } from "./support.ts"

/**
 * Executing the returned calldata from a funded account moves balances exactly as quoted: SwapRouter02,
 * UniversalRouter with Permit2, UniversalRouter spending a balance pre-funded in the same block; buys and sells of a
 * launch token for WETH, and a launch token → USDT through WETH. Each quote is taken at the indexed chain head.
 */
const chainId = 31337

/** GET /api/v1/quote once the quote engine holds the chain head (the indexer and PoolSync caught up). */
const headQuote = (params: Record<string, string | number | boolean | undefined>) =>
  Effect.gen(function* () {
    const head = yield* indexedHead
    return yield* exchange(`/api/v1/quote?${query({ chainId, ...params })}`).pipe(
      Effect.repeat({
        until: (r) => r.status !== 200 || BigInt(r.body.blockNumber) >= head,
        schedule: Schedule.spaced("50 millis")
      }),
      Effect.timeout("30 seconds")
    )
  })

const txOf = (q: any) => ({
  to: q.methodParameters.to,
  data: q.methodParameters.calldata,
  value: q.methodParameters.value
})

/** Sends `tx` from `account`; asserts its slippage bound is the quote's and the exact moves: input spent by `account`, output received by `recipient`. */
const executes = (accountIndex: number, tx: { to: string; data: string; value: string }, q: any, recipient: Address) =>
  Effect.gen(function* () {
    const chain = yield* AnvilChain
    const account = chain.accounts[accountIndex]!
    const tokenIn = q.tokenIn.address as Address
    const tokenOut = q.tokenOut.address as Address
    // The stated slippage bound is the one the calldata enforces.
    const bound = enforcedBound(q.routerType, tx.data as `0x${string}`).toString()
    assert.strictEqual(q.type === "exactIn" ? q.minimumAmountOut : q.maximumAmountIn, bound, "slippage bound")
    const [in0, out0] = [yield* balanceOf(tokenIn, account.address), yield* balanceOf(tokenOut, recipient)]
    yield* sendTx(account, tx)
    const [in1, out1] = [yield* balanceOf(tokenIn, account.address), yield* balanceOf(tokenOut, recipient)]
    assert.strictEqual((in0 - in1).toString(), q.amountIn, "input spent")
    assert.strictEqual((out1 - out0).toString(), q.amountOut, "output received")
  })

layer(QuoteServices({ timeoutMs: 5000 }), { timeout: "180 seconds", excludeTestServices: true })(
  "quote calldata executes as quoted",
  (it) => {
    it.effect(
      "SwapRouter02: buy a launch token with WETH (exactIn and exactOut), sell it back, launch token → USDT through WETH",
      () =>
        Effect.gen(function* () {
          const chain = yield* AnvilChain
          const c = chain.deployments.contracts
          const account = chain.accounts[5]!
          const token = chain.deployments.launches.find((l) => l.canonical)!.token
          yield* wrap(account, parseEther("5"))
          yield* approve(account, c.weth9, c.swapRouter02)
          yield* approve(account, token, c.swapRouter02)

          const buy = yield* headQuote({
            tokenInAddress: c.weth9,
            tokenOutAddress: token,
            amount: parseEther("0.3").toString(),
            recipient: account.address
          })
          assert.strictEqual(buy.status, 200, JSON.stringify(buy.body))
          assert.strictEqual(buy.body.methodParameters.to, c.swapRouter02.toLowerCase())
          yield* executes(5, txOf(buy.body), buy.body, account.address)

          const exactOut = yield* headQuote({
            tokenInAddress: c.weth9,
            tokenOutAddress: token,
            amount: (BigInt(buy.body.amountOut) / 3n).toString(),
            type: "exactOut",
            recipient: account.address
          })
          assert.strictEqual(exactOut.status, 200, JSON.stringify(exactOut.body))
          assert.strictEqual(exactOut.body.amountOut, (BigInt(buy.body.amountOut) / 3n).toString())
          yield* executes(5, txOf(exactOut.body), exactOut.body, account.address)

          const held = yield* balanceOf(token, account.address)
          const sell = yield* headQuote({
            tokenInAddress: token,
            tokenOutAddress: c.weth9,
            amount: (held / 2n).toString(),
            recipient: account.address
          })
          assert.strictEqual(sell.status, 200, JSON.stringify(sell.body))
          yield* executes(5, txOf(sell.body), sell.body, account.address)

          // Launch token → USDT: two hops through WETH, output to another wallet.
          const toUsdt = yield* headQuote({
            tokenInAddress: token,
            tokenOutAddress: c.stablecoin,
            amount: (held / 4n).toString(),
            recipient: chain.accounts[6]!.address
          })
          assert.strictEqual(toUsdt.status, 200, JSON.stringify(toUsdt.body))
          assert.deepStrictEqual(
            toUsdt.body.route[0].map((h: any) => h.tokenOut.address),
            [c.weth9.toLowerCase(), c.stablecoin.toLowerCase()]
          )
          yield* executes(5, txOf(toUsdt.body), toUsdt.body, chain.accounts[6]!.address)

          const usdtOut = yield* headQuote({
            tokenInAddress: token,
            tokenOutAddress: c.stablecoin,
            amount: parseEther("10").toString(),
            type: "exactOut",
            recipient: account.address
          })
          assert.strictEqual(usdtOut.status, 200, JSON.stringify(usdtOut.body))
          yield* executes(5, txOf(usdtOut.body), usdtOut.body, account.address)
        })
    )

    it.effect("UniversalRouter with Permit2: buy and sell a launch token, exactIn and exactOut", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const c = chain.deployments.contracts
        const account = chain.accounts[7]!
        const launch = chain.deployments.launches.filter((l) => l.canonical)[1]!
        yield* wrap(account, parseEther("3"))
        yield* permit2Allow(account, c.weth9)
        yield* permit2Allow(account, launch.token)
        const buy = yield* headQuote({
          tokenInAddress: c.weth9,
          tokenOutAddress: launch.token,
          amount: parseEther("0.2").toString(),
          recipient: account.address,
          routerType: "universal"
        })
        assert.strictEqual(buy.status, 200, JSON.stringify(buy.body))
        assert.strictEqual(buy.body.methodParameters.to, c.universalRouter.toLowerCase())
        yield* executes(7, txOf(buy.body), buy.body, account.address)
        const sell = yield* headQuote({
          tokenInAddress: launch.token,
          tokenOutAddress: c.weth9,
          amount: parseEther("0.01").toString(),
          type: "exactOut",
          recipient: account.address,
          routerType: "universal"
        })
        assert.strictEqual(sell.status, 200, JSON.stringify(sell.body))
        yield* executes(7, txOf(sell.body), sell.body, account.address)
      })
    )

    it.effect(
      "UniversalRouter with useRouterBalance: the router is pre-funded in the same block, then swaps from its own balance",
      () =>
        Effect.gen(function* () {
          const chain = yield* AnvilChain
          const c = chain.deployments.contracts
          const account = chain.accounts[8]!
          const wallet = chain.wallets[8]!
          const launch = chain.deployments.launches.filter((l) => l.canonical)[2]!
          yield* wrap(account, parseEther("1"))
          const amount = parseEther("0.1")
          const q = yield* headQuote({
            tokenInAddress: c.weth9,
            tokenOutAddress: launch.token,
            amount: amount.toString(),
            recipient: account.address,
            routerType: "universal",
            useRouterBalance: true
          })
          assert.strictEqual(q.status, 200, JSON.stringify(q.body))
          const [weth0, out0] = [
            yield* balanceOf(c.weth9, account.address),
            yield* balanceOf(launch.token, account.address)
          ]
          // No approvals at all: the transfer to the router and the swap land in one block (FACTS: leftovers on the
          // router can be swept by anyone, so pre-funding must happen in the same transaction or block).
          yield* Effect.promise(async () => {
            await rpcRequest(chain.rpcUrl, "evm_setAutomine", [false])
            try {
              const nonce = await chain.publicClient.getTransactionCount({ address: account.address })
              const fund = await wallet.sendTransaction({
                to: c.weth9,
                nonce,
                gas: 100_000n,
                data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [c.universalRouter, amount] })
              })
              const swap = await wallet.sendTransaction({
                to: q.body.methodParameters.to,
                data: q.body.methodParameters.calldata,
                value: BigInt(q.body.methodParameters.value),
                nonce: nonce + 1,
                gas: 1_000_000n
              })
              await rpcRequest(chain.rpcUrl, "evm_mine", [])
              for (const hash of [fund, swap]) {
                const receipt = await chain.publicClient.getTransactionReceipt({ hash })
                if (receipt.status !== "success") throw new Error(`${hash} reverted`)
              }
              const [a, b] = await Promise.all(
                [fund, swap].map((hash) => chain.publicClient.getTransactionReceipt({ hash }))
              )
              if (a!.blockNumber !== b!.blockNumber) throw new Error("not in one block")
            } finally {
              await rpcRequest(chain.rpcUrl, "evm_setAutomine", [true])
            }
          })
          const [weth1, out1] = [
            yield* balanceOf(c.weth9, account.address),
            yield* balanceOf(launch.token, account.address)
          ]
          assert.strictEqual((weth0 - weth1).toString(), q.body.amountIn)
          assert.strictEqual((out1 - out0).toString(), q.body.amountOut)
          assert.strictEqual(yield* balanceOf(c.weth9, c.universalRouter), 0n, "nothing left on the router")
        })
    )

    it.effect(
      "POST /api/v1/quote/open: transaction { to, callData, value, gas } from the sender executes as quoted; gas omitted without sender",
      () =>
        Effect.gen(function* () {
          const chain = yield* AnvilChain
          const c = chain.deployments.contracts
          const account = chain.accounts[9]!
          const token = chain.deployments.launches.find((l) => l.canonical)!.token
          yield* buyWithWeth(account, token, 10_000, parseEther("0.5"))
          yield* approve(account, token, c.swapRouter02)
          yield* indexedHead
          const body = {
            chainId,
            tokenInAddress: token,
            tokenOutAddress: c.stablecoin,
            amount: parseEther("1000").toString(),
            recipient: account.address,
            slippage: 0.01
          }
          const head = yield* indexedHead
          const res = yield* postJson("/api/v1/quote/open", { ...body, sender: account.address }).pipe(
            Effect.repeat({
              until: (r) => r.status !== 200 || BigInt(r.body.blockNumber) >= head,
              schedule: Schedule.spaced("50 millis")
            })
          )
          assert.strictEqual(res.status, 200, JSON.stringify(res.body))
          assert.isFalse(res.body.meta.allowlistApplied)
          assert.isUndefined(res.body.methodParameters)
          assert.isUndefined(res.body.transaction.calldata)
          assert.match(res.body.transaction.callData, /^0x[0-9a-f]+$/u)
          assert.match(res.body.transaction.gas, /^[0-9]+$/u)
          assert.strictEqual(res.body.slippageBps, 100)
          yield* executes(
            9,
            { to: res.body.transaction.to, data: res.body.transaction.callData, value: res.body.transaction.value },
            res.body,
            account.address
          )
          const noSender = yield* postJson("/api/v1/quote/open", body)
          assert.strictEqual(noSender.status, 200)
          assert.isUndefined(noSender.body.transaction.gas)
        })
    )
  }
)
