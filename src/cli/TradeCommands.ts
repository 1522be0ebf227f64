import { Effect } from "effect"
import { type Address, type Hex, maxUint256 } from "viem"
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts"
import { readDeploymentsSync } from "../../layers/Deployments.ts"
// The devnet's sender works on any chain: one transaction at a time, gas estimate + 30 %, receipts polled (scripts/devnet/tx.ts says why).
import { erc20Abi, permit2Abi, weth9Abi } from "../../scripts/devnet/abis.ts"
import { makeSender } from "../../scripts/devnet/tx.ts"
import { exchangeApi } from "../sdk/index.ts"
import type { GetQuoteResponse } from "../exchange-api/quotes/QuoteModels.ts"
import type { Targets } from "./Commands.ts"

/**
 * `quote` and `swap`: GET /api/v1/quote (tool `dex_quote_get`) with the partner key, and for `swap` the returned
 * calldata sent from the key's account. Progress goes to stderr, one line a step; the result is one JSON line on
 * stdout. The wallet signs; the API only quotes.
 */

const progress = (line: string) => Effect.sync(() => process.stderr.write(`${line}\n`))
const isAddress = (s: string) => /^0x[0-9a-fA-F]{40}$/.test(s)

export interface QuoteArgs {
  readonly tokenIn: string
  readonly tokenOut: string
  /** Base units (of tokenIn for exactIn, of tokenOut for exactOut). */
  readonly amount: string
  readonly type: "exactIn" | "exactOut"
  readonly slippageBps: string | undefined
  readonly routerType: "swap-router-02" | "universal"
  /** Partner key (x-api-key); FIRE_API_KEY. */
  readonly apiKey: string | undefined
  /** Where the output lands: `--recipient`, else the key's address. */
  readonly recipient: string | undefined
  readonly key: string | undefined
  /** Needed to resolve `weth` and, for `swap`, WETH and Permit2. */
  readonly deployments: string
}

export interface SwapArgs extends QuoteArgs {
  readonly rpcUrl: string
}

const fail = (message: string): Effect.Effect<never, Error> => Effect.fail(new Error(message))

const accountOf = (key: string | undefined): Effect.Effect<PrivateKeyAccount, Error> =>
  key === undefined || !/^0x[0-9a-fA-F]{64}$/.test(key)
    ? fail("--key takes the wallet's private key (0x + 64 hex digits)")
    : Effect.succeed(privateKeyToAccount(key as Hex))

const readDeployments = (file: string) =>
  Effect.try({
    try: () => readDeploymentsSync(file),
    catch: (e) => new Error(`cannot read the deployments file ${file} (--deployments): ${(e as Error).message}`)
  })

/** `weth` (any case) stands for the chain's WETH9 from the deployments file; otherwise an address. */
const resolveTokens = (args: QuoteArgs) =>
  Effect.gen(function* () {
    const wantsWeth = [args.tokenIn, args.tokenOut].some((v) => v.toLowerCase() === "weth")
    const weth: string = wantsWeth ? (yield* readDeployments(args.deployments)).contracts.weth9 : ""
    const resolve = (name: string, value: string): Effect.Effect<string, Error> =>
      value.toLowerCase() === "weth"
        ? Effect.succeed(weth)
        : isAddress(value)
          ? Effect.succeed(value)
          : fail(`--${name} takes a token address (0x + 40 hex digits) or weth`)
    return { tokenIn: yield* resolve("token-in", args.tokenIn), tokenOut: yield* resolve("token-out", args.tokenOut) }
  })

/** A chain read or transaction; its failure becomes a clear error (the sender decodes reverts). */
const rpc = <A>(what: string, run: () => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (e) => new Error(`${what}: ${(e as Error).message ?? String(e)}`) })

const validate = (args: QuoteArgs): Effect.Effect<void, Error> => {
  if (!/^[0-9]+$/.test(args.amount))
    return fail("--amount takes base units: a whole number (1 WETH = 1000000000000000000)")
  if (args.slippageBps !== undefined && !/^[0-9]+$/.test(args.slippageBps))
    return fail("--slippage-bps takes basis points (50 = 0.5 %)")
  if (args.recipient !== undefined && !isAddress(args.recipient)) return fail("--recipient takes an address")
  return Effect.void
}

/** The quote, as `dex_quote_get` answers it. */
const getQuote = (targets: Targets, args: QuoteArgs, chainId: number, recipient: string) =>
  Effect.gen(function* () {
    const { tokenIn, tokenOut } = yield* resolveTokens(args)
    const api = yield* exchangeApi(targets.exchangeUrl, { apiKey: args.apiKey })
    yield* progress(
      `→ quote ${args.type} ${args.amount} ${tokenIn} → ${tokenOut} on chain ${chainId} from ${targets.exchangeUrl}`
    )
    const answer: Quote = yield* api.quotes.getQuote({
      query: {
        chainId: String(chainId),
        tokenInAddress: tokenIn,
        tokenOutAddress: tokenOut,
        amount: args.amount,
        type: args.type,
        recipient,
        routerType: args.routerType,
        ...(args.slippageBps !== undefined ? { slippageBps: args.slippageBps } : {})
      }
    })
    return answer
  })

type Quote = typeof GetQuoteResponse.Type

const summary = (q: Quote) => ({
  quoteId: q.quoteId,
  blockNumber: q.blockNumber,
  type: q.type,
  tokenIn: q.tokenIn,
  tokenOut: q.tokenOut,
  amountIn: q.amountIn,
  amountOut: q.amountOut,
  minimumAmountOut: q.minimumAmountOut,
  maximumAmountIn: q.maximumAmountIn,
  priceImpact: q.priceImpact,
  route: q.routeString,
  gasUseEstimate: q.gasUseEstimate,
  deadline: q.deadline
})

/** `fire-api quote`: prints the route and amounts; `methodParameters` too, for sending it elsewhere. */
export const quote = (targets: Targets, args: QuoteArgs) =>
  Effect.gen(function* () {
    yield* validate(args)
    const recipient = args.recipient ?? (args.key !== undefined ? (yield* accountOf(args.key)).address : undefined)
    if (recipient === undefined)
      return yield* fail("quote needs --recipient (or --key: its address receives the output)")
    const q = yield* getQuote(targets, args, targets.chainId, recipient)
    yield* progress(
      `✓ ${q.amountIn} ${q.tokenIn.symbol} → ${q.amountOut} ${q.tokenOut.symbol} via ${q.routeString} (block ${q.blockNumber})`
    )
    yield* Effect.sync(() => console.log(JSON.stringify({ ...summary(q), methodParameters: q.methodParameters })))
  })

/**
 * `fire-api swap`: quote for the key's own address, make the input spendable (wrap ETH when the input is WETH and the
 * balance is short; approve the router, or Permit2 and the router through Permit2 for `universal`), send the calldata,
 * wait for the receipt, and print what actually moved next to what was quoted.
 */
export const swap = (targets: Targets, args: SwapArgs) =>
  Effect.gen(function* () {
    yield* validate(args)
    const account = yield* accountOf(args.key)
    if (args.recipient !== undefined && args.recipient.toLowerCase() !== account.address.toLowerCase()) {
      return yield* fail("swap sends the output to the key's own address: leave out --recipient (quote takes one)")
    }
    const deployments = yield* readDeployments(args.deployments)
    const chainId = deployments.chainId
    const q = yield* getQuote(targets, args, chainId, account.address)
    yield* progress(
      `✓ quoted ${q.amountIn} ${q.tokenIn.symbol} → ${q.amountOut} ${q.tokenOut.symbol} via ${q.routeString}`
    )
    const sender = makeSender(chainId, args.rpcUrl)
    const chain = sender.publicClient
    const tokenIn = q.tokenIn.address as Address
    const tokenOut = q.tokenOut.address as Address
    const router = q.methodParameters.to as Address
    const spend = BigInt(q.type === "exactIn" ? q.amountIn : (q.maximumAmountIn ?? q.amountIn))
    const balanceOf = (token: Address) =>
      rpc(`balanceOf(${token})`, () =>
        chain.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })
      )
    const send = (what: string, run: () => Promise<unknown>) => rpc(`${what} failed`, run)

    const held = yield* balanceOf(tokenIn)
    if (held < spend && tokenIn.toLowerCase() === deployments.contracts.weth9.toLowerCase()) {
      yield* progress(`→ wrapping ${spend - held} wei into WETH`)
      yield* send("wrapping ETH", () => sender.write(account, tokenIn, weth9Abi, "deposit", [], spend - held))
    } else if (held < spend) {
      return yield* fail(`the key's ${q.tokenIn.symbol} balance ${held} is below the ${spend} the swap spends`)
    }
    const allowance = (owner: Address, spender: Address) =>
      rpc("allowance", () =>
        chain.readContract({ address: tokenIn, abi: erc20Abi, functionName: "allowance", args: [owner, spender] })
      )
    if (q.routerType === "swap-router-02") {
      if ((yield* allowance(account.address, router)) < spend) {
        yield* progress(`→ approving ${spend} ${q.tokenIn.symbol} to the router ${router}`)
        yield* send("approve", () => sender.write(account, tokenIn, erc20Abi, "approve", [router, spend]))
      }
    } else {
      const permit2 = deployments.contracts.permit2 as Address
      if ((yield* allowance(account.address, permit2)) < spend) {
        yield* progress(`→ approving ${q.tokenIn.symbol} to Permit2 ${permit2}`)
        yield* send("approve", () => sender.write(account, tokenIn, erc20Abi, "approve", [permit2, maxUint256]))
      }
      const [amount, expiration] = yield* rpc("Permit2 allowance", () =>
        chain.readContract({
          address: permit2,
          abi: permit2Abi,
          functionName: "allowance",
          args: [account.address, tokenIn, router]
        })
      )
      if (amount < spend || expiration <= Number(q.deadline)) {
        yield* progress(
          `→ Permit2: allowing the router ${router} ${spend} ${q.tokenIn.symbol} until the quote's deadline`
        )
        yield* send("Permit2 approve", () =>
          sender.write(account, permit2, permit2Abi, "approve", [tokenIn, router, spend, Number(q.deadline) + 60])
        )
      }
    }

    const [in0, out0] = [yield* balanceOf(tokenIn), yield* balanceOf(tokenOut)]
    yield* progress(`→ sending the swap to ${router} from ${account.address}`)
    const receipt = yield* rpc("the swap failed", () =>
      sender.send(account, {
        to: router,
        data: q.methodParameters.calldata as Hex,
        value: BigInt(q.methodParameters.value)
      })
    )
    const [in1, out1] = [yield* balanceOf(tokenIn), yield* balanceOf(tokenOut)]
    const spent = in0 - in1
    const received = out1 - out0
    yield* progress(
      `✓ swapped ${spent} ${q.tokenIn.symbol} for ${received} ${q.tokenOut.symbol} in ${receipt.transactionHash} ` +
        `(block ${receipt.blockNumber}; quoted ${q.amountIn} → ${q.amountOut})`
    )
    yield* Effect.sync(() =>
      console.log(
        JSON.stringify({
          txHash: receipt.transactionHash,
          blockNumber: receipt.blockNumber.toString(),
          gasUsed: receipt.gasUsed.toString(),
          amountIn: spent.toString(),
          amountOut: received.toString(),
          quoted: summary(q)
        })
      )
    )
  })
