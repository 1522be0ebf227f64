import { Effect } from "effect"
import { type Address, type Hex, type LocalAccount, maxUint160, maxUint256, parseEther } from "viem"
import { FireTokenAbi, FireTokenBytecode } from "../../contracts/generated/index.ts"
import { erc20Abi, positionManagerAbi, swapRouter02Abi, weth9Abi } from "../../scripts/devnet/abis.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { permit2Abi } from "./support.ts"

/** Chain moves of the quote tests, through the file's anvil (sequential sends, receipts required). */

export const balanceOf = (token: Address, holder: Address) =>
  Effect.flatMap(AnvilChain, (chain) =>
    Effect.promise(() =>
      chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [holder] })
    )
  )

/** Wraps `amount` ETH of `account` into WETH. */
export const wrap = (account: LocalAccount, amount: bigint) =>
  Effect.flatMap(AnvilChain, (chain) =>
    Effect.promise(() =>
      chain.sender.write(account, chain.deployments.contracts.weth9, weth9Abi, "deposit", [], amount)
    )
  )

export const approve = (account: LocalAccount, token: Address, spender: Address) =>
  Effect.flatMap(AnvilChain, (chain) =>
    Effect.promise(() => chain.sender.write(account, token, erc20Abi, "approve", [spender, maxUint256]))
  )

/** ERC-20 approval to Permit2 plus a Permit2 allowance for the UniversalRouter (the wallet side of "Permit2 by default"). */
export const permit2Allow = (account: LocalAccount, token: Address) =>
  Effect.gen(function* () {
    const chain = yield* AnvilChain
    const c = chain.deployments.contracts
    yield* approve(account, token, c.permit2)
    yield* Effect.promise(() =>
      chain.sender.write(account, c.permit2, permit2Abi, "approve", [token, c.universalRouter, maxUint160, 2 ** 47])
    )
  })

/** Sends a quote's transaction from `account` and returns its receipt (success required). */
export const sendTx = (account: LocalAccount, tx: { to: string; data: string; value: string }) =>
  Effect.flatMap(AnvilChain, (chain) =>
    Effect.promise(() =>
      chain.sender.send(account, { to: tx.to as Address, data: tx.data as Hex, value: BigInt(tx.value) })
    )
  )

/** Buys `token` with `wethIn` WETH through SwapRouter02 (single pool) for `account`. */
export const buyWithWeth = (account: LocalAccount, token: Address, fee: number, wethIn: bigint) =>
  Effect.gen(function* () {
    const chain = yield* AnvilChain
    const c = chain.deployments.contracts
    yield* wrap(account, wethIn)
    yield* approve(account, c.weth9, c.swapRouter02)
    yield* Effect.promise(() =>
      chain.sender.write(account, c.swapRouter02, swapRouter02Abi, "exactInputSingle", [
        {
          tokenIn: c.weth9,
          tokenOut: token,
          fee,
          recipient: account.address,
          amountIn: wethIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n
        }
      ])
    )
  })

/** A plain ERC-20 (FireToken) with `supply` minted to `account`. */
export const deployToken = (account: LocalAccount, symbol: string, supply = parseEther("1000000000")) =>
  Effect.flatMap(AnvilChain, (chain) =>
    Effect.promise(() =>
      chain.sender.deploy(account, { abi: FireTokenAbi, bytecode: FireTokenBytecode }, [
        symbol,
        symbol,
        supply,
        account.address
      ])
    )
  )

/** A full-range 1 % pool of two tokens at price 1, with `amount` of each from `account`. */
export const createPool = (account: LocalAccount, a: Address, b: Address, amount: bigint) =>
  Effect.gen(function* () {
    const chain = yield* AnvilChain
    const npm = chain.deployments.contracts.positionManager
    const [token0, token1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]
    yield* approve(account, token0, npm)
    yield* approve(account, token1, npm)
    yield* Effect.promise(() =>
      chain.sender.write(account, npm, positionManagerAbi, "createAndInitializePoolIfNecessary", [
        token0,
        token1,
        10_000,
        1n << 96n
      ])
    )
    const block = yield* Effect.promise(() => chain.publicClient.getBlock())
    yield* Effect.promise(() =>
      chain.sender.write(account, npm, positionManagerAbi, "mint", [
        {
          token0,
          token1,
          fee: 10_000,
          tickLower: -887_200,
          tickUpper: 887_200,
          amount0Desired: amount,
          amount1Desired: amount,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: account.address,
          deadline: block.timestamp + 3600n
        }
      ])
    )
  })
