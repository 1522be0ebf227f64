import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import {
  type Address,
  encodeAbiParameters,
  type Hex,
  maxUint256,
  parseAbiParameters,
  parseEther,
  type TransactionReceipt
} from "viem"
import {
  ADDRESS_THIS,
  erc20Abi,
  MSG_SENDER,
  permit2Abi,
  quoterV2Abi,
  swapRouter02Abi,
  universalRouterAbi,
  urCommands
} from "../../scripts/devnet/abis.ts"
import { encodePath, STABLE_FEE } from "../../scripts/devnet/seed.ts"
import { AnvilChain, type AnvilChainShape } from "../support/AnvilChain.ts"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

const balances = (chain: AnvilChainShape, owner: Address, tokens: ReadonlyArray<Address>) =>
  Promise.all([
    chain.publicClient.getBalance({ address: owner }),
    ...tokens.map((token) =>
      chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] })
    )
  ])

const gasCost = (receipt: TransactionReceipt) => receipt.gasUsed * receipt.effectiveGasPrice

const quoteSingle = (chain: AnvilChainShape, tokenIn: Address, tokenOut: Address, fee: number, amountIn: bigint) =>
  chain.publicClient
    .simulateContract({
      address: chain.deployments.contracts.quoterV2!,
      abi: quoterV2Abi,
      functionName: "quoteExactInputSingle",
      args: [{ tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96: 0n }]
    })
    .then((r) => r.result[0])

const quotePath = (chain: AnvilChainShape, path: Hex, amountIn: bigint) =>
  chain.publicClient
    .simulateContract({
      address: chain.deployments.contracts.quoterV2!,
      abi: quoterV2Abi,
      functionName: "quoteExactInput",
      args: [path, amountIn]
    })
    .then((r) => r.result[0])

const launch = (chain: AnvilChainShape, symbol: string) => {
  const found = chain.deployments.launches.find((l) => l.symbol === symbol)
  if (found === undefined) throw new Error(`no seeded launch ${symbol}`)
  return found
}

layer(AnvilChain.layer, { timeout: "60 seconds" })("swaps on the seeded devnet", (it) => {
  it.effect("SwapRouter02 exactInputSingle with ETH pays exactly what QuoterV2 predicted", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const { weth9, swapRouter02 } = chain.deployments.contracts
      const blze = launch(chain, "BLZE")
      const trader = chain.accounts[7]!
      const amountIn = parseEther("0.37")
      const quoted = yield* promise(() => quoteSingle(chain, weth9, blze.token, blze.fee, amountIn))
      assert.isTrue(quoted > 0n)
      const [eth0, token0] = yield* promise(() => balances(chain, trader.address, [blze.token]))
      const receipt = yield* promise(() =>
        chain.sender.write(
          trader,
          swapRouter02,
          swapRouter02Abi,
          "exactInputSingle",
          [
            {
              tokenIn: weth9,
              tokenOut: blze.token,
              fee: blze.fee,
              recipient: trader.address,
              amountIn,
              amountOutMinimum: quoted,
              sqrtPriceLimitX96: 0n
            }
          ],
          amountIn
        )
      )
      const [eth1, token1] = yield* promise(() => balances(chain, trader.address, [blze.token]))
      assert.strictEqual(token1! - token0!, quoted)
      assert.strictEqual(eth0! - eth1!, amountIn + gasCost(receipt))
    })
  )

  it.effect("SwapRouter02 multi-hop USDT → WETH → token pays exactly quoteExactInput", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const { weth9, swapRouter02, stablecoin } = chain.deployments.contracts
      const cndr = launch(chain, "CNDR")
      const trader = chain.accounts[8]! // holds seeded USDT
      const path = encodePath([stablecoin, weth9, cndr.token], [STABLE_FEE, cndr.fee])
      const amountIn = parseEther("1234.5")
      const quoted = yield* promise(() => quotePath(chain, path, amountIn))
      yield* promise(() => chain.sender.write(trader, stablecoin, erc20Abi, "approve", [swapRouter02, amountIn]))
      const [, usdt0, token0] = yield* promise(() => balances(chain, trader.address, [stablecoin, cndr.token]))
      yield* promise(() =>
        chain.sender.write(trader, swapRouter02, swapRouter02Abi, "exactInput", [
          {
            path,
            recipient: trader.address,
            amountIn,
            amountOutMinimum: quoted
          }
        ])
      )
      const [, usdt1, token1] = yield* promise(() => balances(chain, trader.address, [stablecoin, cndr.token]))
      assert.strictEqual(usdt0! - usdt1!, amountIn)
      assert.strictEqual(token1! - token0!, quoted)
    })
  )

  it.effect("UniversalRouter sells through a Permit2 allowance and pays as quoted; the allowance is spent", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const { weth9, permit2, universalRouter } = chain.deployments.contracts
      const cndr = launch(chain, "CNDR")
      const trader = chain.accounts[6]!
      // Buy some CNDR first through UniversalRouter with ETH (WRAP_ETH then V3_SWAP_EXACT_IN, payer = router).
      const ethIn = parseEther("0.2")
      const buyQuote = yield* promise(() => quoteSingle(chain, weth9, cndr.token, cndr.fee, ethIn))
      const deadline = (yield* promise(() => chain.publicClient.getBlock())).timestamp + 600n
      const [, before] = yield* promise(() => balances(chain, trader.address, [cndr.token]))
      yield* promise(() =>
        chain.sender.write(
          trader,
          universalRouter,
          universalRouterAbi,
          "execute",
          [
            commands(urCommands.WRAP_ETH, urCommands.V3_SWAP_EXACT_IN),
            [
              recipientAmount(ADDRESS_THIS, ethIn),
              v3ExactIn(MSG_SENDER, ethIn, buyQuote, encodePath([weth9, cndr.token], [cndr.fee]), false)
            ],
            deadline
          ],
          ethIn
        )
      )
      const [, bought] = yield* promise(() => balances(chain, trader.address, [cndr.token]))
      assert.strictEqual(bought! - before!, buyQuote)

      // Sell half: ERC-20 approval to Permit2, a Permit2 allowance for the router, then the router pulls the tokens.
      const amountIn = buyQuote / 2n
      const sellQuote = yield* promise(() => quoteSingle(chain, cndr.token, weth9, cndr.fee, amountIn))
      yield* promise(() => chain.sender.write(trader, cndr.token, erc20Abi, "approve", [permit2, maxUint256]))
      yield* promise(() =>
        chain.sender.write(trader, permit2, permit2Abi, "approve", [
          cndr.token,
          universalRouter,
          amountIn,
          Number(deadline)
        ])
      )
      const [, token0, weth0] = yield* promise(() => balances(chain, trader.address, [cndr.token, weth9]))
      yield* promise(() =>
        chain.sender.write(trader, universalRouter, universalRouterAbi, "execute", [
          commands(urCommands.V3_SWAP_EXACT_IN),
          [v3ExactIn(MSG_SENDER, amountIn, sellQuote, encodePath([cndr.token, weth9], [cndr.fee]), true)],
          deadline
        ])
      )
      const [, token1, weth1] = yield* promise(() => balances(chain, trader.address, [cndr.token, weth9]))
      assert.strictEqual(token0! - token1!, amountIn)
      assert.strictEqual(weth1! - weth0!, sellQuote)
      const [allowance] = yield* promise(() =>
        chain.publicClient.readContract({
          address: permit2,
          abi: permit2Abi,
          functionName: "allowance",
          args: [trader.address, cndr.token, universalRouter]
        })
      )
      assert.strictEqual(allowance, 0n)
    })
  )
})

const commands = (...codes: ReadonlyArray<number>): Hex =>
  `0x${codes.map((c) => c.toString(16).padStart(2, "0")).join("")}`
const recipientAmount = (recipient: Address, amount: bigint) =>
  encodeAbiParameters(parseAbiParameters("address, uint256"), [recipient, amount])
const v3ExactIn = (recipient: Address, amountIn: bigint, minOut: bigint, path: Hex, payerIsUser: boolean) =>
  encodeAbiParameters(parseAbiParameters("address, uint256, uint256, bytes, bool"), [
    recipient,
    amountIn,
    minOut,
    path,
    payerIsUser
  ])
