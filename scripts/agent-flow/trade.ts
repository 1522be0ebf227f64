import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { Address, Hex, LocalAccount, TransactionReceipt } from "viem"
import { erc20Abi, weth9Abi } from "../devnet/abis.ts"
import type { Sender } from "../devnet/tx.ts"
import { attempt, call, check, eventually } from "./agent.ts"

/** Quote codes that mean "the engine does not hold this pool yet" right after a start or a launch: wait, then retry. */
const NOT_YET = new Set(["NO_POOLS_AVAILABLE", "NO_ROUTE", "TOKEN_NOT_FOUND"])

export interface TradeContext {
  readonly dex: Client
  readonly account: LocalAccount
  readonly sender: Sender
  readonly chainId: number
  readonly weth9: Address
  readonly settle: () => Promise<void>
}

export interface Trade {
  readonly quote: any
  readonly receipt: TransactionReceipt
  readonly received: bigint
}

/**
 * Buys `token` with `amount` wei of WETH the way the spec's agent does: wrap and approve from the wallet,
 * `dex_quote_get` (partner key) once the quote engine holds the chain head, send `methodParameters` from the wallet,
 * then follow it with `dex_status`. Asserts the tokens received equal the quote to the unit.
 */
export const buyWithWeth = async (ctx: TradeContext, token: Address, amount: bigint): Promise<Trade> => {
  const { account, dex, sender } = ctx
  const chain = sender.publicClient
  const balance = (of: Address) =>
    chain.readContract({ address: of, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })
  await sender.write(account, ctx.weth9, weth9Abi, "deposit", [], amount)
  const args = {
    chainId: String(ctx.chainId),
    tokenInAddress: ctx.weth9,
    tokenOutAddress: token,
    amount: amount.toString(),
    recipient: account.address,
    slippageBps: "50"
  }
  // The pools as of now: a quote read at an older indexed block could price a pool state that is gone.
  const head = await chain.getBlockNumber()
  const quote = await eventually(
    `dex_quote_get WETH → ${token} at block ≥ ${head}`,
    async () => {
      const outcome = await attempt(dex, "dex_quote_get", args)
      if (outcome.ok) return BigInt(outcome.value.blockNumber) >= head ? outcome.value : undefined
      if (NOT_YET.has(outcome.error.code)) return undefined
      throw new Error(`agent flow: dex_quote_get → ${outcome.error.code}: ${outcome.error.message}`)
    },
    ctx.settle
  )
  const method = quote.methodParameters
  check(quote.amountIn === amount.toString(), `the quote spends the amount asked (${quote.amountIn})`)
  check(String(quote.tokenOut.address).toLowerCase() === token.toLowerCase(), "the quote buys the token asked")
  check(
    /^0x[0-9a-f]+$/i.test(method?.calldata ?? "") && typeof method.to === "string",
    "methodParameters { to, calldata, value }"
  )

  await sender.write(account, ctx.weth9, erc20Abi, "approve", [method.to as Address, amount])
  const before = await balance(token)
  const receipt = await sender.send(account, {
    to: method.to as Address,
    data: method.calldata as Hex,
    value: BigInt(method.value)
  })
  const received = (await balance(token)) - before
  check(received === BigInt(quote.amountOut), `received ${received}, quoted ${quote.amountOut}`)

  const status = await eventually(
    `dex_status of ${receipt.transactionHash}`,
    async () => {
      const s = await call(dex, "dex_status", { chainId: ctx.chainId, txHash: receipt.transactionHash })
      return s.status === "pending" ? undefined : s
    },
    ctx.settle
  )
  check(
    status.status === "success" && status.swaps >= 1,
    `dex_status says success with a swap (got ${JSON.stringify(status)})`
  )
  check(status.blockNumber === receipt.blockNumber.toString(), "dex_status names the receipt's block")
  return { quote, receipt, received }
}
